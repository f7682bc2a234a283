#!/usr/bin/env bash
# Installs the Debian packages OpenQuartz builds and runs with, if any are missing. Safe to run
# again: it installs nothing when everything is there. Swift itself (6.1 or later) must be on PATH.
set -euo pipefail

packages=(
  pkg-config
  libegl-dev libgles-dev libgbm-dev   # EGL, GLES 3 and GBM headers and loaders (GLBackend)
  libegl-mesa0 libgl1-mesa-dri        # Mesa's EGL driver and llvmpipe: GL without a GPU
  libpng-dev                          # PNG codec (OpenCoreGraphics)
  libgif-dev libturbojpeg0-dev        # GIF and JPEG decoding (OpenCoreGraphics ImageIO)
  libfreetype-dev libharfbuzz-dev libfontconfig-dev  # text: glyph outlines, shaping, font lookup
  fonts-dejavu-core fonts-liberation2 # default fonts; Liberation stands in for Helvetica, Arial, Times, Courier
  glslang-tools                       # glslangValidator: shader validation in the tests
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# For the tests only (`install-deps.sh --test`): a JSON Schema validator the scene schema is
# checked with (any install will do), and headless Chromium, which opens the demo's index page.
if [ "${1:-}" = "--test" ]; then
  python3 -c 'import jsonschema' 2>/dev/null || missing+=(python3-jsonschema)
  # The cross-check of pixelmatch and FLIP installs the reference packages (pixelmatch,
  # flip-evaluator) into a virtual environment that reads PNGs with Pillow.
  # Asked of dpkg, not of `python3`: where python3 is another install (pyenv's), an import
  # check failed on every run and ran apt-get each time (4 s of every `make test`).
  python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
  dpkg-query -W -f='${Status}' python3-pil 2>/dev/null | grep -q "install ok installed" || missing+=(python3-pil)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  # GNU time: the peak memory of `quartz diff` on large images (LargeDiffTests).
  [ -x /usr/bin/time ] || missing+=(time)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install Swift 6.1 or later from https://swift.org/install" >&2
  exit 1
fi
