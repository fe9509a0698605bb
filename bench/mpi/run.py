"""Simulator against measurement: MLP and GPT training steps under mpirun.

For each rank count N, calibrates this machine (dist-run --mpi --calibrate),
then for each configuration (dp, tp, pp with 1F1B or GPipe, combinations on
N devices, one per rank) measures dist-run --mpi --time (median and minimum
of --runs runs of one process) and simulates the same program with dist-sim
on the calibrated cluster, once with the cost model alone and once with the
program's own measured per-op times (--profile-out of the measured run).
Prints a table: measured vs simulated step time and peak memory, the error
per configuration and Kendall's tau between the measured and simulated
rankings. See docs/mpi-validation.md.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# What dist-run --mpi does: every collective blocks the rank, gradients are
# reduced after the whole backward, no kernel is fused.
FRAMEWORK = "megatron-sc21:ddp=local,fuse=false"

MODELS = {
    "mlp": ["mlp", "--layers", "4", "--hidden", "512", "--batch", "256"],
    "gpt": ["gpt", "--layers", "4", "--hidden", "128", "--heads", "4",
            "--seq", "64", "--vocab", "512", "--batch", "8", "--dropout",
            "0"],
}
QUICK_MODELS = {
    "mlp": ["mlp", "--layers", "2", "--hidden", "64", "--batch", "32"],
    "gpt": ["gpt", "--layers", "2", "--hidden", "32", "--heads", "2",
            "--seq", "8", "--vocab", "32", "--batch", "4", "--dropout",
            "0"],
}
# (dp, tp, pp, microbatches, schedule) by rank count.
CONFIGS = {
    2: [(2, 1, 1, 1, "1f1b"), (1, 2, 1, 1, "1f1b"), (1, 1, 2, 4, "1f1b"),
        (1, 1, 2, 4, "gpipe")],
    4: [(4, 1, 1, 1, "1f1b"), (2, 2, 1, 1, "1f1b"), (2, 1, 2, 4, "1f1b"),
        (1, 2, 2, 4, "1f1b"), (1, 1, 4, 4, "1f1b")],
}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.environ.get("DIST_BIN",
                                                         "build/bin"))
    parser.add_argument("--ranks", default="2,4",
                        help="rank counts, comma-separated (default 2,4)")
    parser.add_argument("--runs", type=int, default=7,
                        help="measured runs per configuration (default 7)")
    parser.add_argument("--calibrate-repeat", type=int, default=5)
    parser.add_argument("--models", default="mlp,gpt")
    parser.add_argument("--quick", action="store_true",
                        help="tiny models, 2 runs, 2 ranks (a smoke test)")
    parser.add_argument("--mpirun", default=None,
                        help="the mpirun command before -n N, e.g. "
                        "'mpirun --hostfile hosts -x OPENBLAS_NUM_THREADS=1' "
                        "(default: oversubscribed shared memory on this "
                        "machine)")
    parser.add_argument("--work", default=None,
                        help="keep the programs and files here")
    return parser.parse_args()


def default_mpirun():
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("bench/mpi: mpirun not found (scripts/lib.sh installs "
                 "openmpi-bin)")
    return ["env", "OPENBLAS_NUM_THREADS=1", "OMPI_ALLOW_RUN_AS_ROOT=1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", mpirun, "--quiet",
            "--oversubscribe", "--bind-to", "none", "--mca", "btl",
            "self,vader", "--mca", "btl_vader_single_copy_mechanism",
            "none"]


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=600, **kwargs)
    if result.returncode != 0:
        sys.exit("bench/mpi: failed: %s\n%s%s" % (
            " ".join(command), result.stdout, result.stderr))
    return result


def tool(args, name):
    """The tool in --bin, else on PATH (as lit runs it)."""
    path = os.path.join(args.bin, name)
    return path if os.path.exists(path) else (shutil.which(name) or path)


def build_program(args, work, model, spec, config):
    dp, tp, pp, micro, schedule = config
    train = os.path.join(work, model + ".train.mlir")
    if not os.path.exists(train):
        forward = os.path.join(work, model + ".mlir")
        run([tool(args, "dist-gen")] + spec + ["-o", forward])
        run([tool(args, "dist-opt"), forward,
             "--dist-autodiff=optimizer=sgd", "-o", train])
    name = "%s-dp%d-tp%d-pp%d-%s%d" % (model, dp, tp, pp, schedule, micro)
    program = os.path.join(work, name + ".mlir")
    run([tool(args, "dist-opt"), train, "--dist-parallelize=dp=%d tp=%d "
         "pp=%d microbatches=%d schedule=%s" % (dp, tp, pp, micro, schedule),
         "-o", program])
    return name, program


def measure(args, mpirun, ranks, program, profile):
    """Per run: the step's wall time and the largest CPU time of a rank
    (ms); the largest peak live bytes of a rank."""
    result = run(mpirun + ["-n", str(ranks), tool(args, "dist-run"), program,
                           "--mpi", "--time", "--repeat", str(args.runs),
                           "--profile-out", profile])
    steps = [float(m) for m in re.findall(r"^time: @\S+ run \d+: ([0-9.]+) ms",
                                          result.stderr, re.M)]
    peaks = [int(m) for m in re.findall(r"peak live bytes (\d+)",
                                        result.stderr)]
    cpus = [float(m) for m in re.findall(r", cpu ([0-9.]+) ms",
                                         result.stderr)]
    cpu_steps = [max(cpus[i * ranks:(i + 1) * ranks])
                 for i in range(len(steps))]
    return steps, cpu_steps, max(peaks)


def simulate(args, program, cluster, profile, work):
    report = os.path.join(work, "report.json")
    command = [tool(args, "dist-sim"), program, "--cluster", cluster,
               "--framework", FRAMEWORK, "--report", report]
    if profile:
        command += ["--profile", profile]
    run(command)
    with open(report) as f:
        data = json.load(f)
    return data["step_time_s"] * 1e3, data["peak_memory_bytes"]


def kendall_tau(xs, ys):
    """Kendall's tau-b."""
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx * dy > 0:
                concordant += 1
            else:
                discordant += 1
    denominator = ((concordant + discordant + ties_x) *
                   (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 0.0


def error(simulated, measured):
    return 100.0 * (simulated - measured) / measured


def main():
    args = parse_args()
    if args.quick:
        args.runs, args.calibrate_repeat, args.ranks = 2, 2, "2"
    models = QUICK_MODELS if args.quick else MODELS
    mpirun = args.mpirun.split() if args.mpirun else default_mpirun()
    # lit's %mpirun ends with -n: the script adds its own.
    if mpirun[-1] == "-n":
        mpirun.pop()
    work = args.work or tempfile.mkdtemp(prefix="bench-mpi-")
    os.makedirs(work, exist_ok=True)
    rows = []
    for ranks in [int(n) for n in args.ranks.split(",")]:
        cluster = os.path.join(work, "cluster-n%d.json" % ranks)
        calibration = run(mpirun + [
            "-n", str(ranks), tool(args, "dist-run"), "--mpi", "--calibrate",
            "--repeat", str(args.calibrate_repeat), "--cluster-out",
            cluster])
        print(calibration.stdout, end="")
        for model in args.models.split(","):
            for config in CONFIGS[ranks]:
                name, program = build_program(args, work, model,
                                              models[model], config)
                profile = os.path.join(work, name + ".profile.json")
                steps, cpu_steps, peak = measure(args, mpirun, ranks,
                                                 program, profile)
                model_ms, sim_peak = simulate(args, program, cluster, None,
                                              work)
                profiled_ms, _ = simulate(args, program, cluster, profile,
                                          work)
                rows.append(dict(name=name, ranks=ranks,
                                 median=statistics.median(steps),
                                 minimum=min(steps), cpu=min(cpu_steps),
                                 model=model_ms,
                                 profiled=profiled_ms, peak=peak,
                                 sim_peak=sim_peak))
                print_row(rows[-1])
    print_summary(rows)


HEADER = ("| configuration | ranks | measured ms: median / min / cpu "
          "| simulated ms | error vs min | simulated with profile ms "
          "| error vs min | peak MiB measured / simulated |\n"
          "|---|---|---|---|---|---|---|---|")
printed_header = False


def print_row(row):
    global printed_header
    if not printed_header:
        print(HEADER)
        printed_header = True
    mib = 1 << 20
    print("| %s | %d | %.2f / %.2f / %.2f | %.2f | %+.0f %% | %.2f | %+.0f %% "
          "| %.2f / %.2f |" % (
              row["name"], row["ranks"], row["median"], row["minimum"],
              row["cpu"], row["model"], error(row["model"], row["minimum"]),
              row["profiled"], error(row["profiled"], row["minimum"]),
              row["peak"] / mib, row["sim_peak"] / mib), flush=True)


def print_summary(rows):
    for measure in ("minimum", "median", "cpu"):
        measured = [row[measure] for row in rows]
        for key, label in (("model", "cost model"),
                           ("profiled", "with profile")):
            simulated = [row[key] for row in rows]
            errors = [abs(error(s, m)) for s, m in zip(simulated, measured)]
            per_ranks = []
            for ranks in sorted({row["ranks"] for row in rows}):
                subset = [row for row in rows if row["ranks"] == ranks]
                if len(subset) > 1:
                    per_ranks.append("%d ranks %.2f" % (ranks, kendall_tau(
                        [r[measure] for r in subset],
                        [r[key] for r in subset])))
            print("%s vs measured %s: mean |error| %.0f %%, %d of %d within "
                  "15 %%, Kendall tau %.2f (%s)" % (
                      label, measure, statistics.mean(errors),
                      sum(e <= 15 for e in errors), len(rows),
                      kendall_tau(measured, simulated),
                      ", ".join(per_ranks)))


if __name__ == "__main__":
    main()
