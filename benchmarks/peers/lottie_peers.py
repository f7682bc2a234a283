"""Lottie animations: OpenQuartz beside rlottie (Samsung's renderer, the one Telegram uses) on the
same files and the same frames, every frame different.

Files: lottie-ios's samples in ../shared/lottie that lottie-ios renders without customizing them
(index.json), and our own (Tests/LottieSampleTests/Documents, Examples/lottie). Each is drawn at
the size lottie-ios's snapshots use (the longer side at most 500 points, never enlarged), one
pixel a point, every frame from ip to op - 1:

  rlottie                rlottie-python's lottie_animation_render (the C library's renderSync)
                         into a buffer, frame after frame; the time is the whole run over the frames.
                         A file it reads but draws clear at every FLIP frame ("draws nothing":
                         pr_2478, text without glyphs) is left out of the ratios.
  openquartz-cpu / -gpu  `quartz animate FILE -o FOLDER --size WxH --json`: the frame's stages
                         (evaluation, content, render list, drawing, readback) summed over the run,
                         over the frames; PNG encoding (on background threads) is left out, and
                         so is the GL device's opening (the `setup` stage: loading the driver,
                         building programs, once a process), reported apart, as rlottie's
                         loading of a file is left out of its frames.
  import                 `quartz info FILE --json`: reading the JSON and building the layer tree
                         with its animations (readSeconds + buildSeconds), once per file.

FLIP (flip-evaluator) of rlottie's frame against OpenQuartz's CPU frame at 0, 25, 50 and 75% of
each file, both over white: where the two renderers part (rlottie is not the reference; Apple's
frames are, in Tests/LottieSampleTests). Outputs (out/peers/): lottie-results.json,
lottie-report.md (per file and overall: median frame times, ratios to rlottie, FLIP),
lottie-side-by-side.png (the files FLIP parts most, rlottie | OpenQuartz).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from peers import flip_against  # noqa: E402  (the still scenes' FLIP, the same settings)
from lottie_corpus import corpus, fitted  # noqa: E402


def over_white(rgba):
    """A straight-alpha RGBA image composited over white, as RGB."""
    canvas = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    canvas.alpha_composite(rgba.convert("RGBA"))
    return canvas.convert("RGB")


def rlottie_frame(animation, frame, width, height):
    """rlottie's frame: premultiplied BGRA, as a straight-alpha RGBA image."""
    data = animation.lottie_animation_render(frame_num=frame, width=width, height=height)
    bgra = np.frombuffer(data, dtype=np.uint8).reshape(height, width, 4).astype(np.float32)
    alpha = bgra[..., 3:4]
    rgb = np.where(alpha > 0, bgra[..., 2::-1] * 255 / np.maximum(alpha, 1), 0)
    return Image.fromarray(np.concatenate([np.clip(rgb + 0.5, 0, 255), alpha], axis=2).astype(np.uint8), "RGBA")


def rlottie_child(path, width, height, folder):
    """In a process of its own (rlottie crashes on some files): every frame timed, then the
    frames at 0, 25, 50 and 75% written as PNGs over white into `folder`; prints the frame count
    and the seconds a frame."""
    from rlottie_python import LottieAnimation
    animation = LottieAnimation.from_file(path)
    frames = animation.lottie_animation_get_totalframe()
    start = time.perf_counter()
    for f in range(frames):
        animation.lottie_animation_render(frame_num=f, width=width, height=height)
    seconds = (time.perf_counter() - start) / max(frames, 1)
    draws = False
    for fraction in FLIP_FRACTIONS:
        index = min(int(fraction * frames), frames - 1)
        if index < 0:
            continue
        frame = rlottie_frame(animation, index, width, height)
        draws = draws or frame.getbbox() is not None
        over_white(frame).save(os.path.join(folder, f"rlottie-{index}.png"))
    print(json.dumps({"frames": frames, "seconds": seconds, "draws": draws}))


def time_rlottie(path, width, height, folder):
    run = subprocess.run([sys.executable, os.path.abspath(__file__), "--rlottie-child", path, str(width), str(height), folder],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(f"rlottie failed (exit {run.returncode})")
    report = json.loads(run.stdout.strip().splitlines()[-1])
    return report["frames"], report["seconds"], report["draws"]


def time_quartz(quartz, path, backend, width, height, folder):
    run = subprocess.run([quartz, "animate", path, "-o", folder, "--backend", backend, "--size", f"{width}x{height}", "--json"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit {run.returncode}")
    report = json.loads(run.stdout.strip().splitlines()[-1])
    # The frames' own stages: PNG encoding and the GL device's opening (once a process, as
    # rlottie's loading is left out of its frames) are not a frame's drawing.
    drawn = sum(v for k, v in report["stages"].items() if k not in ("encoding", "setup"))
    return report["frames"], drawn / max(report["frames"], 1), report["stages"].get("setup", 0)


FLIP_FRACTIONS = [0, 0.25, 0.5, 0.75]


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--rlottie-child":
        return rlottie_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quartz", required=True)
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    parser.add_argument("--out", default="out/peers")
    parser.add_argument("--only", help="files whose name contains this")
    parser.add_argument("--every", type=int, default=1, help="every n-th file of the corpus (a quicker sample)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="openquartz-lottie-peers-")
    results = []
    for number, (name, path) in enumerate(corpus(args.shared)):
        if number % args.every or (args.only and args.only not in name):
            continue
        doc = json.load(open(path))
        width, height = fitted(doc["w"], doc["h"])
        info = json.loads(subprocess.run([args.quartz, "info", path, "--json"], capture_output=True, text=True).stdout or "{}")
        row = {"name": name, "width": width, "height": height,
               "importMs": (info.get("readSeconds", float("nan")) + info.get("buildSeconds", float("nan"))) * 1000,
               "bytes": os.path.getsize(path)}
        theirs = os.path.join(work, f"{name}-rlottie")
        os.makedirs(theirs, exist_ok=True)
        try:
            frames, seconds, draws = time_rlottie(path, width, height, theirs)
            if draws:
                row["rlottieMs"], row["rlottieFrames"] = seconds * 1000, frames
            else:  # read but drawn clear at every FLIP frame: an empty frame's time is no race
                row["rlottieError"] = "draws nothing"
        except (RuntimeError, subprocess.TimeoutExpired) as error:  # rlottie refuses or crashes on a few files
            row["rlottieError"] = str(error)
        for backend in ["cpu", "gpu"]:
            folder = os.path.join(work, f"{name}-{backend}")
            try:
                frames, seconds, setup = time_quartz(args.quartz, path, backend, width, height, folder)
                row[f"{backend}Ms"], row["frames"] = seconds * 1000, frames
                if setup:
                    row[f"{backend}SetupMs"] = setup * 1000
            except RuntimeError as error:
                row[f"{backend}Error"] = str(error)
        if "rlottieMs" in row and "cpuMs" in row:
            flips = []
            names = sorted(f for f in os.listdir(os.path.join(work, f"{name}-cpu")) if f.endswith(".png"))
            for fraction in FLIP_FRACTIONS:
                index = min(int(fraction * row["rlottieFrames"]), row["rlottieFrames"] - 1)
                rlottie_png = os.path.join(theirs, f"rlottie-{index}.png")
                ours = os.path.join(work, f"{name}-cpu", names[min(index, len(names) - 1)])
                if os.path.exists(rlottie_png):
                    over_white(Image.open(ours)).save(ours + ".white.png")
                    flips.append(flip_against(ours + ".white.png", rlottie_png))
                    row["flipFrame"] = (rlottie_png, ours + ".white.png")
            if flips:
                row["flip"] = statistics.mean(flips)
        results.append(row)
        print(f"{name}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()
                                     if k not in ("name", "flipFrame")), flush=True)
        # After every file, so a run cut short still leaves its figures.
        report(results, args.out, quiet=True)
    report(results, args.out)


def median(values):
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def report(results, out, quiet=False):
    json.dump([{k: v for k, v in r.items() if k != "flipFrame"} for r in results], open(os.path.join(out, "lottie-results.json"), "w"), indent=1)
    both = [r for r in results if "rlottieMs" in r and "cpuMs" in r and "gpuMs" in r]
    lines = ["# Lottie: OpenQuartz beside rlottie", "",
             f"{len(results)} files, {sum(r.get('frames', 0) for r in results)} frames; every frame from ip to op - 1, "
             "at the size lottie-ios's snapshots use. Frame times in ms (medians over files of each file's mean frame); "
             "`benchmarks/peers/lottie_peers.py` says what each figure includes.", "",
             "| | rlottie | OpenQuartz CPU | OpenQuartz GPU | CPU / rlottie | GPU / rlottie | FLIP (rlottie vs CPU) |", "|---|---|---|---|---|---|---|"]
    if both:
        lines.append("| median over the files both draw | {:.2f} | {:.2f} | {:.2f} | {:.2f}x | {:.2f}x | {:.3f} |".format(
            median([r["rlottieMs"] for r in both]), median([r["cpuMs"] for r in both]), median([r["gpuMs"] for r in both]),
            median([r["cpuMs"] / r["rlottieMs"] for r in both]), median([r["gpuMs"] / r["rlottieMs"] for r in both]),
            median([r.get("flip", float("nan")) for r in both])))
        setups = [r["gpuSetupMs"] for r in both if "gpuSetupMs" in r]
        if setups:
            lines += ["", f"The GPU's setup (opening the GL device and building its programs, once a process; left out of its "
                      f"frames as rlottie's loading is left out of its): median {median(setups):.0f} ms."]
    lines += ["", "| file | frames | size | import ms | rlottie | CPU | GPU | CPU / rlottie | FLIP |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        ratio = r["cpuMs"] / r["rlottieMs"] if "cpuMs" in r and "rlottieMs" in r else float("nan")
        lines.append("| {} | {} | {}x{} | {:.1f} | {} | {} | {} | {:.2f}x | {:.3f} |".format(
            r["name"], r.get("frames", "-"), r["width"], r["height"], r["importMs"],
            f"{r['rlottieMs']:.2f}" if "rlottieMs" in r else r.get("rlottieError", "refused"), f"{r['cpuMs']:.2f}" if "cpuMs" in r else r.get("cpuError", "-"),
            f"{r['gpuMs']:.2f}" if "gpuMs" in r else r.get("gpuError", "-"), ratio, r.get("flip", float("nan"))))
    open(os.path.join(out, "lottie-report.md"), "w").write("\n".join(lines) + "\n")
    if not quiet:
        print("\n".join(lines[:8]))
    worst = sorted((r for r in results if "flipFrame" in r), key=lambda r: -r["flip"])[:6]
    if worst:
        sheet = Image.new("RGB", (2 * 252, len(worst) * 270), (230, 230, 232))
        draw = ImageDraw.Draw(sheet)
        for i, r in enumerate(worst):
            for j, png in enumerate(r["flipFrame"]):
                im = Image.open(png).convert("RGB")
                im.thumbnail((250, 250))
                sheet.paste(im, (j * 252 + 1, i * 270 + 18))
            draw.text((4, i * 270 + 3), f"{r['name']}: rlottie | OpenQuartz CPU, FLIP {r['flip']:.3f}", fill="black")
        sheet.save(os.path.join(out, "lottie-side-by-side.png"))


if __name__ == "__main__":
    main()
