#!/usr/bin/env bash
# Path fill, OpenQuartz against skia-python, in one command on this machine: the same 1000x1000
# petal shape (benchmarks/Benchmarks/Drawing, benchmarks/peers/fill_skia.py). skia-python goes
# into a virtual environment of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/peers-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q skia-python >/dev/null
"$venv/bin/python" peers/fill_skia.py
swift package --allow-writing-to-package-directory benchmark --target Drawing --filter ".*curved.*" 2>&1 \
  | grep -E "fill curved path|Time \(wall"
