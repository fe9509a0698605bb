"""Driver of bench/fidelity/run.sh: builds each program with dist-gen and
dist-opt, simulates it with dist-sim and compares with the published
figures of ../shared/data/REFERENCE.md."""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.environ.get("DIST_BIN", "build/bin")
WORK = tempfile.mkdtemp(prefix="fidelity-")

# Korthikanti et al. 2022, Table 4: GPT-22B layer, ms per layer.
LAYER = dict(hidden=6144, heads=64, seq=2048, vocab=64, batch=4)
TABLE4 = [  # row, forward, forward+backward, dist-recompute mode, SP
    ("baseline", 7.7, 19.6, "", False),
    ("sequence parallel", 7.2, 19.0, "", True),
    ("full recompute", 7.7, 27.2, "full", False),
    ("selective recompute", 7.7, 20.9, "selective", False),
    ("selective + sequence parallel", 7.2, 20.3, "selective", True),
]
# Korthikanti's runs: Megatron-LM of 2022 (docs/dist-sim.md, "Frameworks").
TABLE4_FRAMEWORK = "megatron-2022"

# Narayanan et al. SC'21, Table 1 (sequence 2048, vocabulary 51200).
TABLE1 = [  # name, heads, hidden, layers, tp, pp, dp, batch, micro,
    # layers per virtual stage (interleaved rows), TF/s
    ("1.7B", 24, 2304, 24, 1, 1, 32, 512, 16, None, 137),
    ("3.6B", 32, 3072, 30, 2, 1, 32, 512, 16, None, 138),
    ("7.5B", 32, 4096, 36, 4, 1, 32, 512, 16, None, 142),
    ("18B", 48, 6144, 40, 8, 1, 32, 1024, 8, None, 135),
    ("39B", 64, 8192, 48, 8, 2, 32, 1536, 4, None, 138),
    ("76B", 80, 10240, 60, 8, 4, 32, 1792, 2, 5, 140),
    ("145B", 96, 12288, 80, 8, 8, 24, 2304, 2, 5, 148),
    ("310B", 128, 16384, 96, 8, 16, 15, 2160, 1, 3, 155),
    ("530B", 128, 20480, 105, 8, 35, 9, 2520, 1, 1, 163),
    ("1T", 160, 25600, 128, 8, 64, 6, 3072, 1, None, 163),
]
SEQ, VOCAB = 2048, 51200

# Mechanisms, each switched off in turn for MECHANISM_ROWS: (name, how).
# `framework` overrides are appended to the row's --framework; `recompute`
# replaces dist-recompute's mode; `overlap` False passes --no-overlap;
# `scatter_gather` False sends pipeline activations whole, `buckets` False
# all-reduces each gradient on its own (pass options).
MECHANISMS = [
    ("blocking TP all-reduces (sc21)", dict(framework="tp-overlap=true")),
    ("DDP as run (torch <-> local)", dict(framework="swap-ddp")),
    ("fused bias kernels", dict(framework="fuse=false")),
    ("whole-layer recompute", dict(recompute="minimal")),
    ("communication overlap", dict(overlap=False)),
    ("pipeline scatter/gather (sc21)", dict(scatter_gather=False)),
    ("gradient buckets (DDP)", dict(buckets=False)),
]
MECHANISM_ROWS = ["1.7B", "18B", "39B"]


def run(command, **kwargs):
    return subprocess.run(command, shell=True, check=True,
                          executable="/bin/bash", **kwargs)


def tool(name):
    return os.path.join(BIN, name)


def step_seconds(report):
    with open(report) as f:
        return json.load(f)["step_time_s"]


def gen_command(layers, hidden, heads, seq, vocab, batch):
    return ("dist-gen gpt --layers %d --hidden %d --heads %d --seq %d "
            "--vocab %d --batch %d --dtype f16"
            % (layers, hidden, heads, seq, vocab, batch))


def simulate(pipeline, cluster, framework, report, extra=""):
    """Runs `pipeline` (dist-gen ... | dist-opt ...) into dist-sim."""
    command = "%s | dist-sim --cluster %s --framework %s%s" % (
        pipeline, cluster, framework, extra)
    local = command.replace("dist-gen ", tool("dist-gen") + " ").replace(
        "dist-opt ", tool("dist-opt") + " ").replace(
        "dist-sim ", tool("dist-sim") + " ")
    run(local + " --report %s > /dev/null" % report)
    return step_seconds(report), command


def table4():
    print("## Table 4: marginal GPT-22B layer (8-layer minus 4-layer program, "
          "per layer), tp=8, --framework %s" % TABLE4_FRAMEWORK)
    print("%-30s %9s %9s %7s %9s %9s %7s" % (
        "row", "fwd pub", "fwd sim", "error", "f+b pub", "f+b sim", "error"))

    def marginal(autodiff, recompute, sequence_parallel):
        times = {}
        for layers in (4, 8):
            passes = ""
            if autodiff:
                passes = " --dist-autodiff=optimizer=none"
                if recompute:
                    passes += " --dist-recompute=mode=" + recompute
            parallelize = " --dist-parallelize=tp=8"
            if sequence_parallel:
                parallelize = ' --dist-parallelize="tp=8 sequence-parallel=true"'
            pipeline = gen_command(layers, **LAYER) + " | dist-opt" + \
                passes + parallelize
            report = os.path.join(WORK, "t4.json")
            times[layers], command = simulate(pipeline, "dgx-a100",
                                              TABLE4_FRAMEWORK, report)
        return (times[8] - times[4]) / 4 * 1e3, command

    # The forward pass does not depend on recomputation: one per SP setting.
    forwards = {}
    commands = []
    for sequence_parallel in (False, True):
        forwards[sequence_parallel], command = marginal(
            False, None, sequence_parallel)
        commands.append("forward%s: %s" % (
            " (sequence parallel)" if sequence_parallel else "", command))
    for row, fwd_pub, both_pub, recompute, sequence_parallel in TABLE4:
        forward = forwards[sequence_parallel]
        both, command = marginal(True, recompute, sequence_parallel)
        print("%-30s %9.1f %9.2f %+6.1f%% %9.1f %9.2f %+6.1f%%" % (
            row, fwd_pub, forward, (forward / fwd_pub - 1) * 100, both_pub,
            both, (both / both_pub - 1) * 100))
        commands.append(row + ": " + command)
    print("Commands (each also with --layers 4):")
    for command in commands:
        print("  " + command)
    print()


def table1_row(row, framework_extra="", recompute="full", overlap=True,
               scatter_gather=True, buckets=True, show=False):
    """Simulated TF/s per GPU of a Table 1 row and its command."""
    name, heads, hidden, layers, tp, pp, dp, batch, micro, per_chunk, _ = row
    gpus = tp * pp * dp
    microbatches = batch // dp // micro
    parallel = "dp=%d tp=%d pp=%d microbatches=%d" % (dp, tp, pp, microbatches)
    if pp > 1:
        parallel += " schedule=1f1b"
    # Interleaved rows: V = layers / (pp x layers per virtual stage) model
    # chunks per stage (3, 2, 2, 3 for 76B, 145B, 310B, 530B).
    interleave = layers // (pp * per_chunk) if per_chunk else 1
    if interleave > 1:
        parallel += " interleave=%d" % interleave
    # SC'21's code sends pipeline activations as 1/tp slices and all-gathers
    # them (--scatter-gather-tensors-in-pipeline, on by default): a pass
    # option, since it changes what is communicated (no effect with pp = 1).
    parallel += " scatter-gather=%s" % ("true" if scatter_gather else "false")
    # run_table_1.sh: DDP=torch up to 18B, DDP=local above.
    ddp = "torch" if hidden <= 6144 else "local"
    if framework_extra == "swap-ddp":
        ddp, framework_extra = {"torch": "local", "local": "torch"}[ddp], ""
    # What each DDP communicates (pass options too): PyTorch DDP all-reduces
    # 25 MB buckets (bucket_cap_mb); Megatron's local DDP its whole
    # contiguous gradient buffer at once (one bucket larger than the model).
    if buckets:
        parallel += " grad-bucket-mb=%d" % (25 if ddp == "torch" else 1000000)
    program = os.path.join(WORK, "t1-%s-%s-%s-%s-v%d.mlirbc" % (
        name, recompute, "sg" if scatter_gather else "whole",
        ddp if buckets else "unbucketed", interleave))
    pipeline = "%s | dist-opt --dist-autodiff=optimizer=adam " \
        "--dist-recompute=mode=%s --dist-parallelize=\"%s\"" % (
            gen_command(layers, hidden, heads, SEQ, VOCAB, batch), recompute,
            parallel)
    if not os.path.exists(program):
        local = pipeline.replace("dist-gen ", tool("dist-gen") + " ").replace(
            "dist-opt ", tool("dist-opt") + " ")
        run(local + " --emit-bytecode -o " + program)
    framework = "megatron-sc21:ddp=" + ddp
    if framework_extra:
        framework += "," + framework_extra
    report = os.path.join(WORK, "t1.json")
    cluster = "dgx-a100:nodes=%d" % (gpus // 8)
    extra = "" if overlap else " --no-overlap"
    local = "%s %s --cluster %s --framework %s%s --report %s > /dev/null" % (
        tool("dist-sim"), program, cluster, framework, extra, report)
    run(local)
    seconds = step_seconds(report)
    flops = 96 * batch * SEQ * layers * hidden**2 * (
        1 + SEQ / (6 * hidden) + VOCAB / (16 * layers * hidden))
    command = "%s | dist-sim --cluster %s --framework %s%s" % (
        pipeline, cluster, framework, extra)
    return flops / seconds / gpus / 1e12, seconds, command


def selected_rows():
    wanted = os.environ.get("ROWS")
    if not wanted:
        return TABLE1
    names = wanted.split(",")
    return [row for row in TABLE1 if row[0] in names]


def table1():
    print("## Table 1: TF/s per GPU, --framework megatron-sc21 "
          "(:ddp=local above 18B), full recompute, Adam")
    print("%-6s %3s %3s %3s %11s %11s %9s %8s" % (
        "row", "tp", "pp", "dp", "published", "simulated", "step s", "error"))
    errors = []
    for row in selected_rows():
        name, _, _, layers, tp, pp, dp, _, _, per_chunk, published = row
        tflops, seconds, command = table1_row(row)
        error = (tflops / published - 1) * 100
        note = ""
        if per_chunk:
            note = "   (interleaved: %d layers per virtual stage, V = %d)" % (
                per_chunk, layers // (pp * per_chunk))
        errors.append(abs(error))
        print("%-6s %3d %3d %3d %11.1f %11.1f %9.3f %+7.1f%%%s" % (
            name, tp, pp, dp, published, tflops, seconds, error, note))
        print("  $ " + command)
        sys.stdout.flush()
    if errors:
        print("average |error| over the %d rows: %.1f%%, "
              "largest %.1f%%" % (len(errors), sum(errors) / len(errors),
                                  max(errors)))
    print()


def mechanisms():
    print("## Contribution of each mechanism: simulated TF/s per GPU with the "
          "mechanism switched off, and the change")
    rows = [row for row in TABLE1 if row[0] in MECHANISM_ROWS]
    print("%-34s" % "mechanism off" + "".join(
        "%18s" % row[0] for row in rows))
    base = [table1_row(row)[0] for row in rows]
    print("%-34s" % "(none: as Table 1)" + "".join(
        "%18.1f" % tflops for tflops in base))
    for mechanism, how in MECHANISMS:
        cells = []
        for row, reference in zip(rows, base):
            tflops = table1_row(row, how.get("framework", ""),
                                how.get("recompute", "full"),
                                how.get("overlap", True),
                                how.get("scatter_gather", True),
                                how.get("buckets", True))[0]
            cells.append("%9.1f (%+5.1f%%)" % (
                tflops, (tflops / reference - 1) * 100))
        print("%-34s" % mechanism + "".join("%18s" % c for c in cells))
        sys.stdout.flush()
    print()


def main():
    parts = sys.argv[1:] or ["table4", "table1", "mechanisms"]
    for part in parts:
        {"table4": table4, "table1": table1, "mechanisms": mechanisms}[part]()
    subprocess.run(["rm", "-rf", WORK])


if __name__ == "__main__":
    main()
