#!/usr/bin/env bash
# Image comparison speed, OpenQuartz against the reference packages, in one command on this
# machine: the same pair of 1280x720 PNGs (the star-wars crawl at 10 s on the CPU and on the GPU,
# rendered by quartz) compared by `quartz diff --repeats` (the comparison alone, median of the
# runs) and by pixelmatch 0.3.0 and flip-evaluator 1.7 from PyPI (timed around the call alone,
# images already in memory). Prints megapixels per second for each.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --traits SnapshotTesting -c release --product quartz >/dev/null 2>&1
quartz=.build/release/quartz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$quartz render Examples/star-wars-crawl.json --time 10 --backend cpu -o "$work/a.png" >/dev/null 2>&1
$quartz render Examples/star-wars-crawl.json --time 10 --backend gpu -o "$work/b.png" >/dev/null 2>&1

venv=${TMPDIR:-/tmp}/openquartz-pixelmatch-venv
[ -x "$venv/bin/python" ] || python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -c 'import numpy, PIL' 2>/dev/null || "$venv/bin/pip" install -q numpy pillow
"$venv/bin/python" -c 'import pixelmatch' 2>/dev/null || "$venv/bin/pip" install -q pixelmatch==0.3.0
"$venv/bin/python" -c 'import flip_evaluator' 2>/dev/null || "$venv/bin/pip" install -q flip-evaluator==1.7

printf '%-34s %14s %12s\n' "comparator (1280x720, CPU vs GPU)" "ms/compare" "Mpx/s"
for comparator in exact off-by-one fuzzy bar pixelmatch ciede2000 flip; do
  # (exit status 1 only says the images differ)
  { "$quartz" diff "$work/a.png" "$work/b.png" --comparator "$comparator" --max-fraction 1 --repeats 5 --json 2>/dev/null || true; } \
    | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("%-34s %14.2f %12.1f" % ("OpenQuartz " + sys.argv[1], r["compareSeconds"]*1000, r["megapixelsPerSecond"]))' "$comparator"
done
"$venv/bin/python" - "$work/a.png" "$work/b.png" <<'PY'
import sys, time
import numpy as np
from PIL import Image
from pixelmatch.core import pixelmatch
import flip_evaluator
a, b = Image.open(sys.argv[1]).convert("RGBA"), Image.open(sys.argv[2]).convert("RGBA")
megapixels = a.width * a.height / 1e6
da, db = list(a.tobytes()), list(b.tobytes())
start = time.perf_counter(); pixelmatch(da, db, a.width, a.height, threshold=0.1); seconds = time.perf_counter() - start
print("%-34s %14.2f %12.1f" % ("pixelmatch 0.3.0 (Python)", seconds * 1000, megapixels / seconds))
ra = np.asarray(a.convert("RGB"), dtype=np.float32) / 255; rb = np.asarray(b.convert("RGB"), dtype=np.float32) / 255
runs = []
for _ in range(3):
    start = time.perf_counter(); flip_evaluator.evaluate(ra, rb, "LDR", applyMagma=False); runs.append(time.perf_counter() - start)
seconds = sorted(runs)[1]
print("%-34s %14.2f %12.1f" % ("flip-evaluator 1.7 (C++, OpenMP)", seconds * 1000, megapixels / seconds))
PY
