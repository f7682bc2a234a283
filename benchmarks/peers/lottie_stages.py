"""Where a Lottie frame's time goes, file by file, beside rlottie: a quick look between full
`lottie_peers.py` runs (which time every frame and compare pictures).

For every `--every`-th file of the corpus lottie_peers.py draws (../shared/lottie's plain samples
and ours), its first `--frames` frames at the size lottie-ios's snapshots use:
  openquartz   `quartz animate FILE --size WxH --to T --backend B --json`: each stage's time a
               frame (evaluation, compositing = building the render list, execution = drawing,
               readback, rasterization of drawn content); PNG encoding left out, and the GL
               device's opening (`setup`: once a process, as rlottie's loading is left out of its
               frames) shown apart.
  rlottie      rlottie-python's render of the same frames, a frame's mean (when installed).
Prints a line per file, then the medians over the files of the frame and of its ratio to
rlottie's; `--json FILE` keeps the rows.

  python3 benchmarks/peers/lottie_stages.py --quartz .build/release/quartz --backend cpu --every 4
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from lottie_corpus import corpus, fitted  # noqa: E402

STAGES = ["evaluation", "compositing", "execution", "readback", "rasterization"]


def rlottie_frame_ms(path, frames, width, height):
    try:
        from rlottie_python import LottieAnimation
    except ImportError:
        return None
    animation = LottieAnimation.from_file(path)
    count = min(frames, animation.lottie_animation_get_totalframe())
    start = time.perf_counter()
    for frame in range(count):
        animation.lottie_animation_render(frame_num=frame, width=width, height=height)
    return 1000 * (time.perf_counter() - start) / max(1, count)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quartz", default=os.path.join(ROOT, ".build/release/quartz"))
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    parser.add_argument("--backend", choices=["cpu", "gpu"], default="cpu")
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as out:
        for name, path in corpus(args.shared)[::args.every]:
            document = json.load(open(path))
            width, height = fitted(document["w"], document["h"])
            frames = min(int(document["op"] - document["ip"]), args.frames)
            run = subprocess.run([args.quartz, "animate", path, "-o", os.path.join(out, "frames"), "--size", f"{width}x{height}",
                                  "--json", "--backend", args.backend, "--to", str((frames - 0.5) / document["fr"])],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{name}: quartz failed: {run.stderr.strip()[:200]}")
                continue
            report = json.loads(run.stdout)
            row = {stage: 1000 * report["stages"].get(stage, 0) / report["totalFrames"] for stage in STAGES}
            row.update(name=name, frames=report["totalFrames"], frame=sum(row[stage] for stage in STAGES),
                       setup=1000 * report["stages"].get("setup", 0), rlottie=rlottie_frame_ms(path, frames, width, height))
            rows.append(row)
            versus = f" rlottie {row['rlottie']:7.3f} ms ({row['frame'] / row['rlottie']:5.1f}x)" if row["rlottie"] else ""
            setup = f" (setup {row['setup']:.0f} ms)" if row["setup"] else ""
            print(f"{name:40s} {row['frame']:8.2f} ms: " + " ".join(f"{stage[:5]} {row[stage]:6.2f}" for stage in STAGES[:3])
                  + versus + setup, flush=True)
    if not rows:
        sys.exit("no file drawn")
    print(f"median frame {statistics.median(r['frame'] for r in rows):.2f} ms over {len(rows)} files")
    if any(r["setup"] for r in rows):
        print(f"median setup (opening the GL device, building its programs; once a process, left out of the frames) "
              f"{statistics.median(r['setup'] for r in rows):.0f} ms")
    ratios = [r["frame"] / r["rlottie"] for r in rows if r["rlottie"]]
    if ratios:
        print(f"median of the files' ratios to rlottie {statistics.median(ratios):.1f}x")
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
