"""Where a Lottie frame's time goes, file by file, beside rlottie: a quick look between full
`lottie_peers.py` runs (which time every frame and compare pictures).

For every `--every`-th file of the corpus lottie_peers.py draws (../shared/lottie's plain samples
and ours), its first `--frames` frames at the size lottie-ios's snapshots use:
  openquartz   `quartz animate FILE --size WxH --to T --backend B --json`: each stage's time a
               frame (evaluation, compositing = building the render list, execution = drawing,
               readback, rasterization of drawn content); PNG encoding left out, and the GL
               device's opening (`setup`: once a process, as rlottie's loading is left out of its
               frames) shown apart.
  rlottie      rlottie-python's render of the same frames, a frame's mean (when installed); a
               file it draws nothing of (every fourth frame clear) is left out of the ratios.
Prints a line per file, then the medians over the files of the frame and of its ratio to
rlottie's; `--json FILE` keeps the rows.

  python3 benchmarks/peers/lottie_stages.py --quartz .build/release/quartz --backend cpu --every 4

`--baseline OLD_QUARTZ` times an earlier build on the same frames, the two interleaved `--rounds`
times per file (medians kept), so a change is measured before and after in one run on a noisy
machine; each line then gives both frames and their ratio, and the end the median ratio.
`--threads N` sets OPENQUARTZ_CPU_THREADS for both (1 steadies a comparison).
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
    seconds = time.perf_counter() - start
    # A file rlottie reads but draws nothing of (pr_2478's shapes, text without glyphs, a file of
    # no frames) is no race: its time is that of an empty frame.
    if not any(rlottie_draws(animation.lottie_animation_render(frame_num=frame, width=width, height=height))
               for frame in range(0, count, max(1, count // 4))):
        return "drew nothing"
    return 1000 * seconds / max(1, count)


def rlottie_draws(premultiplied):
    """Whether an rlottie frame (premultiplied BGRA bytes) has a pixel that is not clear."""
    return bytes(premultiplied[3::4]).strip(b"\0") != b""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quartz", default=os.path.join(ROOT, ".build/release/quartz"))
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    parser.add_argument("--backend", choices=["cpu", "gpu"], default="cpu")
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--json")
    parser.add_argument("--baseline", help="an earlier quartz to time on the same frames, interleaved")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each build per file (medians kept)")
    parser.add_argument("--threads", type=int, help="OPENQUARTZ_CPU_THREADS for every run")
    args = parser.parse_args()
    env = dict(os.environ, **({"OPENQUARTZ_CPU_THREADS": str(args.threads)} if args.threads else {}))
    rows = []
    with tempfile.TemporaryDirectory() as out:
        def stages(quartz, path, width, height, frames, fps):
            run = subprocess.run([quartz, "animate", path, "-o", os.path.join(out, "frames"), "--size", f"{width}x{height}",
                                  "--json", "--backend", args.backend, "--to", str((frames - 0.5) / fps)],
                                 capture_output=True, text=True, env=env)
            if run.returncode != 0:
                return run.stderr.strip()[:200]
            report = json.loads(run.stdout)
            row = {stage: 1000 * report["stages"].get(stage, 0) / report["totalFrames"] for stage in STAGES}
            row.update(frames=report["totalFrames"], frame=sum(row[stage] for stage in STAGES),
                       setup=1000 * report["stages"].get("setup", 0))
            return row

        def median_row(runs):
            return {key: statistics.median(run[key] for run in runs) for key in runs[0]}

        for name, path in corpus(args.shared)[::args.every]:
            document = json.load(open(path))
            width, height = fitted(document["w"], document["h"])
            frames = min(int(document["op"] - document["ip"]), args.frames)
            runs, base_runs, failure = [], [], None
            for _ in range(max(1, args.rounds)):
                for quartz, kept in [(args.quartz, runs)] + ([(args.baseline, base_runs)] if args.baseline else []):
                    result = stages(quartz, path, width, height, frames, document["fr"])
                    if isinstance(result, str):
                        failure = failure or f"{quartz}: {result}"
                    else:
                        kept.append(result)
            if failure or not runs or (args.baseline and not base_runs):
                print(f"{name}: quartz failed: {failure}")
                continue
            row = median_row(runs)
            row.update(name=name, rlottie=rlottie_frame_ms(path, frames, width, height))
            if args.baseline:
                row["baseline"] = median_row(base_runs)["frame"]
            rows.append(row)
            drawn = isinstance(row["rlottie"], float)
            versus = (f" rlottie {row['rlottie']:7.3f} ms ({row['frame'] / row['rlottie']:5.1f}x)" if drawn
                      else f" rlottie {row['rlottie']}" if row["rlottie"] else "")
            if args.baseline:
                versus += f" baseline {row['baseline']:7.2f} ms ({row['frame'] / row['baseline']:.2f})"
            setup = f" (setup {row['setup']:.0f} ms)" if row["setup"] else ""
            print(f"{name:40s} {row['frame']:8.2f} ms: " + " ".join(f"{stage[:5]} {row[stage]:6.2f}" for stage in STAGES[:3])
                  + versus + setup, flush=True)
    if not rows:
        sys.exit("no file drawn")
    print(f"median frame {statistics.median(r['frame'] for r in rows):.2f} ms over {len(rows)} files")
    if any(r["setup"] for r in rows):
        print(f"median setup (opening the GL device, building its programs; once a process, left out of the frames) "
              f"{statistics.median(r['setup'] for r in rows):.0f} ms")
    ratios = [r["frame"] / r["rlottie"] for r in rows if isinstance(r["rlottie"], float)]
    if ratios:
        print(f"median of the files' ratios to rlottie {statistics.median(ratios):.1f}x over the {len(ratios)} it draws")
    if args.baseline:
        print(f"median of the files' ratios to the baseline {statistics.median(r['frame'] / r['baseline'] for r in rows):.2f}")
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
