#!/usr/bin/env bash
# The peer benchmark in one command (make bench-peers): installs what it needs (Debian's
# python3-cairo, numpy, Pillow and chromium; skia-python, blend2d-py, flip-evaluator, matplotlib,
# websocket-client and rlottie-python from PyPI into a virtual environment of Debian's Python,
# which pycairo comes with), builds quartz optimized and runs peers.py (its scenes), then
# lottie_peers.py (Lottie files beside rlottie, every frame different; LOTTIE=0
# leaves it out). Arguments go to peers.py (--rounds, --layers 10,100, --blur 4,20, --motion
# still|moving|both, --out DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
missing=()
for p in python3-cairo python3-numpy python3-pil python3-venv chromium; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
venv=${TMPDIR:-/tmp}/openquartz-peers-venv
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -c 'import skia, blend2d, flip_evaluator, matplotlib, websocket, rlottie_python' 2>/dev/null \
  || "$venv/bin/pip" install -q skia-python blend2d-py flip-evaluator==1.7 matplotlib websocket-client rlottie-python
swift build --traits SnapshotTesting -c release --product quartz >/dev/null 2>&1
"$venv/bin/python" benchmarks/peers/peers.py --quartz .build/release/quartz "$@"
[ "${LOTTIE:-1}" = 0 ] || "$venv/bin/python" benchmarks/peers/lottie_peers.py --quartz .build/release/quartz
