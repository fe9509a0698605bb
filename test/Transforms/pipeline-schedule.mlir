// The per-stage order of the units is the schedule. Each forward unit of a
// stage is represented by its relu, each backward unit by its relu_grad
// (F<m> / B<m> for microbatch m); the block order restricted to one stage is
// what that stage's devices run.

// 1F1B, pp = 2, 4 microbatches: stage 0 warms up with pp - 0 - 1 = 1
// forward, alternates, then cools down; the last stage alternates at once.
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=4 schedule=1f1b" > %t.1f1b
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.layer = 0 ' %t.1f1b | FileCheck %s --check-prefix=S0
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.layer = 3 ' %t.1f1b | FileCheck %s --check-prefix=S1
// S0:      dist.relu {{.*}}dist.microbatch = 0 :
// S0-NEXT: dist.relu {{.*}}dist.microbatch = 1 :
// S0-NEXT: dist.relu_grad {{.*}}dist.microbatch = 0 :
// S0-NEXT: dist.relu {{.*}}dist.microbatch = 2 :
// S0-NEXT: dist.relu_grad {{.*}}dist.microbatch = 1 :
// S0-NEXT: dist.relu {{.*}}dist.microbatch = 3 :
// S0-NEXT: dist.relu_grad {{.*}}dist.microbatch = 2 :
// S0-NEXT: dist.relu_grad {{.*}}dist.microbatch = 3 :
// S0-NOT:  dist.relu
// S1:      dist.relu {{.*}}dist.microbatch = 0 :
// S1-NEXT: dist.relu_grad {{.*}}dist.microbatch = 0 :
// S1-NEXT: dist.relu {{.*}}dist.microbatch = 1 :
// S1-NEXT: dist.relu_grad {{.*}}dist.microbatch = 1 :
// S1-NEXT: dist.relu {{.*}}dist.microbatch = 2 :
// S1-NEXT: dist.relu_grad {{.*}}dist.microbatch = 2 :
// S1-NEXT: dist.relu {{.*}}dist.microbatch = 3 :
// S1-NEXT: dist.relu_grad {{.*}}dist.microbatch = 3 :

// 1F1B, pp = 4 (one layer per stage), 8 microbatches: stage 0 warms up with
// 3 forwards, stage 2 with 1.
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=4 microbatches=8" > %t.pp4
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.layer = 0 ' %t.pp4 | sed -E 's/.*dist\.relu(_grad)? .*dist\.microbatch = ([0-9]+).*/\1 \2/' | tr '\n' ',' | FileCheck %s --check-prefix=P4S0
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.layer = 2 ' %t.pp4 | sed -E 's/.*dist\.relu(_grad)? .*dist\.microbatch = ([0-9]+).*/\1 \2/' | tr '\n' ',' | FileCheck %s --check-prefix=P4S2
// P4S0: {{^}} 0, 1, 2, 3,_grad 0, 4,_grad 1, 5,_grad 2, 6,_grad 3, 7,_grad 4,_grad 5,_grad 6,_grad 7,{{$}}
// P4S2: {{^}} 0, 1,_grad 0, 2,_grad 1, 3,_grad 2, 4,_grad 3, 5,_grad 4, 6,_grad 5, 7,_grad 6,_grad 7,{{$}}

// GPipe: every forward of the stage, then every backward.
// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=4 microbatches=4 schedule=gpipe" > %t.gpipe
// RUN: grep -E 'dist\.relu(_grad)? .*dist\.layer = 0 ' %t.gpipe | sed -E 's/.*dist\.relu(_grad)? .*dist\.microbatch = ([0-9]+).*/\1 \2/' | tr '\n' ',' | FileCheck %s --check-prefix=GPIPE
// GPIPE: {{^}} 0, 1, 2, 3,_grad 0,_grad 1,_grad 2,_grad 3,{{$}}
