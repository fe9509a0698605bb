// Interleaved 1F1B (interleave = V): the layers are cut into pp x V chunks,
// chunk c (`dist.stage = c`, a virtual stage) on the devices of stage
// c mod pp, each stage running Megatron-LM's interleaved order
// (forward_backward_pipelining_with_interleaving): the k-th forward of a
// stage is microbatch (k / (pp V)) pp + k mod pp on chunk (k mod pp V) / pp,
// backwards count the chunks down; (pp - s - 1) x 2 + (V - 1) x pp warm-up
// forwards. F/B<virtual stage>.<microbatch> for each relu / relu_grad of the
// 4-layer MLP (one layer per chunk).

// pp = 2, V = 2, 4 microbatches: stage 0 (chunks 0 and 2) warms up with
// 2 + 2 = 4 forwards, stage 1 (chunks 1 and 3) with 2.
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=4 interleave=2" > %t.i2
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.stage = [02] ' %t.i2 | sed -E 's/.*dist\.relu(_grad)? .*dist\.microbatch = ([0-9]+).*dist\.stage = ([0-9]+).*/\1 \3.\2/; s/^_grad /B/; s/^ /F/' | tr '\n' ',' | FileCheck %s --check-prefix=I2S0
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.stage = [13] ' %t.i2 | sed -E 's/.*dist\.relu(_grad)? .*dist\.microbatch = ([0-9]+).*dist\.stage = ([0-9]+).*/\1 \3.\2/; s/^_grad /B/; s/^ /F/' | tr '\n' ',' | FileCheck %s --check-prefix=I2S1
// I2S0: {{^}}F0.0,F0.1,F2.0,F2.1,F0.2,B2.0,F0.3,B2.1,F2.2,B0.0,F2.3,B0.1,B2.2,B2.3,B0.2,B0.3,{{$}}
// I2S1: {{^}}F1.0,F1.1,F3.0,B3.0,F3.1,B3.1,F1.2,B1.0,F1.3,B1.1,F3.2,B3.2,F3.3,B3.3,B1.2,B1.3,{{$}}

// Each layer is one chunk; the chunks wrap around the stages: chunk 2 on
// stage 0's device, chunk 3 on stage 1's; what crosses chunks is sent, from
// stage 1 back to stage 0 between chunks 1 and 2.
// RUN: sed -nE 's/.*dist\.relu .*dist\.layer = ([0-9]+) : i64.*dist\.stage = ([0-9]+) : i64.*#dist\.devices<\[([0-9]+)\]>>\).*/L\1:S\2:D\3/p' %t.i2 | sort -u | tr '\n' ' ' | FileCheck %s --check-prefix=PLACE
// PLACE: L0:S0:D0 L1:S1:D1 L2:S2:D0 L3:S3:D1
// RUN: grep -E 'dist\.send .*dist\.microbatch = 0 ' %t.i2 | grep -v 'phase = "backward"' | sed -E 's/.*dist\.send [^ ]+ to \[([0-9]+)\].*dist\.stage = ([0-9]+).*/S\2->D\1/' | tr '\n' ' ' | FileCheck %s --check-prefix=SEND
// SEND: S0->D1 S1->D0 S2->D1

// As many microbatches as stages: every forward first (Megatron-LM's
// all-warm-up case).
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=2 interleave=2" > %t.m2
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.stage = [13] ' %t.m2 | sed -E 's/.*dist\.relu(_grad)? .*dist\.microbatch = ([0-9]+).*dist\.stage = ([0-9]+).*/\1 \3.\2/; s/^_grad /B/; s/^ /F/' | tr '\n' ',' | FileCheck %s --check-prefix=M2S1
// M2S1: {{^}}F1.0,F1.1,F3.0,F3.1,B3.0,B3.1,B1.0,B1.1,{{$}}

// first-layers / last-layers fix the layers of the first and last chunk (the
// stages without interleaving), as Megatron-LM users give the embedding's and
// the head's stages fewer layers; the time-based cut takes the rest.
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=2 first-layers=3" | sed -nE 's/.*dist\.layer = ([0-9]+) : i64.*dist\.stage = ([0-9]+) : i64.*/\1:\2/p' | sort -u | tr '\n' ' ' | FileCheck %s --check-prefix=FIRST
// FIRST: 0:0 1:0 2:0 3:1
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=1 microbatches=2 interleave=3 last-layers=2" | sed -nE 's/.*dist\.layer = ([0-9]+) : i64.*dist\.stage = ([0-9]+) : i64.*/\1:\2/p' | sort -u | tr '\n' ' ' | FileCheck %s --check-prefix=LAST
// LAST: 0:0 1:1 2:2 3:2
