#!/usr/bin/python3
"""Browser test of the pages dist-sim --html and dist-search --html write.

Builds a small pipelined GPT step and a search with the tools in --bin,
writes both pages, and loads each in Debian's headless Chromium (offline:
no network, a fresh profile):

* the console log is empty (no script error, nothing fetched);
* the DOM after the scripts ran (--dump-dom) has every chart's axis titles,
  and for the search one point per simulated configuration (the series'
  point counts the page writes under its chart against the --json rows)
  and a Pareto front series;
* a screenshot is not blank (many distinct colours).

--docs DIR keeps one screenshot per page there (docs/dist-sim-html.png,
docs/dist-search-html.png, shown by docs/dist-sim.md and dist-search.md).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
]

STEP_AXES = ["time (ms)", "device class · stream", "device class", "memory (GiB)",
             "memory at the peak (GiB)", "total time (ms)", "op"]
SEARCH_AXES = ["peak memory per device (GiB)", "step time (ms)"]


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(map(str, command))}\n{result.stderr}")
    return result


def chromium(browser, page, *args, timeout=90):
    """Runs Chromium on `page` with a fresh profile; (stdout, console lines)."""
    with tempfile.TemporaryDirectory(prefix="distir-chromium-") as profile:
        result = subprocess.run(
            [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             "--enable-logging=stderr", "--v=0", *args, "file://" + os.path.abspath(page)],
            capture_output=True, text=True, timeout=timeout)
    # Chromium's own complaints (no D-Bus, ...) are not the page's: only
    # the console's messages are.
    console = [line for line in result.stderr.splitlines() if "CONSOLE(" in line]
    return result.stdout, console


def check_page(browser, page, axes, screenshot, size, failures):
    dom, console = chromium(browser, page, "--dump-dom")
    name = os.path.basename(page)
    if console:
        failures.append(f"{name}: console messages: {console}")
    titles = set(re.findall(r'<span class="axis-title">([^<]*)</span>', dom))
    titles = {t.replace("&amp;", "&") for t in titles}
    for axis in axes:
        if axis not in titles:
            failures.append(f"{name}: axis title '{axis}' not in the DOM (found {sorted(titles)})")
    _, console = chromium(browser, page, f"--screenshot={screenshot}", f"--window-size={size}")
    if console:
        failures.append(f"{name}: console messages while drawing: {console}")
    check_not_blank(screenshot, name, failures)
    return dom


def check_not_blank(png, name, failures):
    if not os.path.exists(png):
        failures.append(f"{name}: no screenshot")
        return
    import matplotlib.image  # noqa: PLC0415 (Debian's python3-matplotlib)
    pixels = matplotlib.image.imread(png)
    colours = {tuple(p) for p in (pixels[::7, ::7, :3] * 255).astype(int).reshape(-1, 3)}
    if len(colours) < 20:
        failures.append(f"{name}: screenshot looks blank ({len(colours)} colours)")


def datasets(dom):
    """(label, points) of every series the page lists under its charts."""
    return [(label, int(points)) for label, points in re.findall(
        r'<span class="dataset" data-label="([^"]*)" data-points="(\d+)"', dom)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="directory of the distir tools")
    parser.add_argument("--docs", help="keep one screenshot per page here")
    parser.add_argument("--browser", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    if not os.path.exists(args.browser):
        sys.exit("chromium not found: apt-get install chromium")
    tool = lambda name: os.path.join(args.bin, name)
    failures = []
    with tempfile.TemporaryDirectory(prefix="distir-pages-") as work:
        forward = run([tool("dist-gen"), "gpt", "--layers", "4", "--hidden", "256",
                       "--heads", "8", "--seq", "128", "--vocab", "1000", "--batch", "8"]).stdout
        step = run([tool("dist-opt"), "--dist-autodiff",
                    "--dist-parallelize=dp=2 tp=2 pp=2 microbatches=4"], input=forward).stdout
        step_page = os.path.join(work, "step.html")
        run([tool("dist-sim"), "--cluster", "dgx-a100", "--html", step_page], input=step)
        search_page = os.path.join(work, "search.html")
        search_json = os.path.join(work, "search.json")
        subprocess.run([tool("dist-search"), "gpt:layers=4,hidden=256,heads=8,seq=128,vocab=1000",
                        "--cluster", "dgx-a100", "--global-batch", "16", "--devices", "8",
                        "--html", search_page, "--json", search_json],
                       capture_output=True, check=True)

        step_png = os.path.join(work, "dist-sim-html.png")
        check_page(args.browser, step_page, STEP_AXES, step_png, "1280,2000", failures)
        search_png = os.path.join(work, "dist-search-html.png")
        dom = check_page(args.browser, search_page, SEARCH_AXES, search_png, "1280,720",
                         failures)
        series = datasets(dom)
        rows = sum(len(s["configurations"]) for s in json.load(open(search_json))["scenarios"])
        points = sum(n for label, n in series if label not in ("Pareto front", "device memory"))
        if points != rows:
            failures.append(f"search page: {points} points for {rows} simulated configurations")
        if not any(label == "Pareto front" and n > 0 for label, n in series):
            failures.append(f"search page: no Pareto front series ({series})")
        if args.docs:
            for png in (step_png, search_png):
                shutil.copy(png, os.path.join(args.docs, os.path.basename(png)))
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)
    print(f"pages ok: {rows} configurations plotted, axis titles and Pareto front present")


if __name__ == "__main__":
    main()
