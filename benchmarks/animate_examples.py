"""`quartz animate` on the Examples/ showcase and the benchmark scenes: frames per second on each
backend, drawing each frame over the one before (damage tracking, the default) and whole
(`--full-redraw`), with where a frame's time goes (quartz's own stage timers).

    python3 benchmarks/animate_examples.py [--quartz .build/release/quartz] [--seconds 3] [--only NAME]

Each document is animated from 0 for at most `--seconds` of its timeline into a scratch folder
(PNG frames, libpng's fast setting, encoded on background threads as `quartz animate` does), once
per backend and mode, and the report (a Markdown table) is printed. Frames per second is the
wall clock of the whole run, encoding included; the stages are milliseconds a frame on the
calling thread. The machine is shared: compare the two modes of one row, not rows of two runs.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ["setup", "evaluation", "rasterization", "compositing", "execution", "readback", "encoding"]


def documents(only):
    paths = sorted(glob.glob(os.path.join(ROOT, "Examples", "*.json")))
    paths.append(os.path.join(ROOT, "benchmarks", "scenes", "spinner-on-page.json"))
    return [p for p in paths if not only or only in os.path.basename(p)]


def animate(quartz, path, backend, whole, seconds, scratch):
    with open(path) as f:
        document = json.load(f)
    duration = document.get("duration") or 1.0
    out = os.path.join(scratch, "frames")
    shutil.rmtree(out, ignore_errors=True)
    command = [quartz, "animate", path, "-o", out, "--backend", backend, "--to", str(min(duration, seconds)), "--json"]
    if whole:
        command.append("--full-redraw")
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit {run.returncode}"}
    report = json.loads(run.stdout.strip().splitlines()[-1])
    frames = report["frames"]
    return {
        "frames": frames, "fps": report["framesPerSecond"], "drawn": report.get("drawnShare", 1.0),
        "size": f"{report['width']}x{report['height']}",
        "stages": {k: 1000 * report["stages"].get(k, 0) / frames for k in STAGES},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quartz", default=os.path.join(ROOT, ".build", "release", "quartz"))
    parser.add_argument("--seconds", type=float, default=3.0, help="timeline seconds animated at most (default 3)")
    parser.add_argument("--only", help="documents whose file name contains this")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="animate-examples-")
    results = {}
    try:
        print("| document | size | frames | backend | fps tracked | fps whole | drawn | "
              + " | ".join(f"{s} ms" for s in STAGES) + " |")
        print("|" + "---|" * (7 + len(STAGES)))
        for path in documents(args.only):
            name = os.path.basename(path)
            for backend in ["cpu", "gpu"]:
                tracked = animate(args.quartz, path, backend, False, args.seconds, scratch)
                whole = animate(args.quartz, path, backend, True, args.seconds, scratch)
                results[f"{name} {backend}"] = {"tracked": tracked, "whole": whole}
                if "error" in tracked or "error" in whole:
                    print(f"| {name} | | | {backend} | {tracked.get('error') or whole.get('error')} |")
                    continue
                stages = " | ".join(f"{tracked['stages'][s]:.2f}" for s in STAGES)
                print(f"| {name} | {tracked['size']} | {tracked['frames']} | {backend} | {tracked['fps']:.1f} | "
                      f"{whole['fps']:.1f} | {100 * tracked['drawn']:.0f}% | {stages} |", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
