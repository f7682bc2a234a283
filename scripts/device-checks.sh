#!/usr/bin/env bash
# The GPU checks on a machine that has a GPU but no Swift (docs/testing.md, "Drivers verified").
#
#   bash scripts/device-checks.sh pack   here: the release quartz and test binary (built with
#                                        `swift build --traits SnapshotTesting -c release
#                                        --build-tests`), their shared libraries but glibc's,
#                                        the fonts fontconfig finds, the benchmark scenes and the
#                                        Lottie files the checks draw, into .dev/bundle.tar.xz
#                                        (some 36 MB; .dev/ is git-ignored; PYTHON: a Python with
#                                        Pillow for the peer scenes, make bench-peers's venv).
#   bash scripts/device-checks.sh run    there, from the repository root with .dev/ beside it:
#                                        unpacks into /tmp/oq and runs `quartz demo`, the suites
#                                        that draw on the GPU, the differential fuzzer's 300
#                                        trees, the peer scenes on both backends and
#                                        lottie_stages.py (rlottie beside, where its wheel is in
#                                        .dev/); each result a file in $OUT (default /tmp/out).
#
# NVIDIA's driver is reached through glvnd's libEGL, carried from here, and the vendor file the
# driver installs (EGL_VENDOR below). The suites find their references by the paths they were
# built at (#filePath), so the repository is linked there; ../shared's Lottie frames travel in
# the bundle.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
pack)
  set -e
  B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
  mkdir -p "$B/lib" "$B/fonts" "$B/etc" "$B/scenes" "$B/shared/lottie/apple" .dev
  install -m 755 .build/release/quartz "$B/quartz"; strip "$B/quartz"
  install -m 755 .build/release/OpenQuartzPackageTests.xctest "$B/tests.xctest"; strip "$B/tests.xctest"
  for l in $( (ldd .build/release/quartz; ldd .build/release/OpenQuartzPackageTests.xctest) | awk '{print $3}' | grep '^/' | sort -u); do
    case $(basename "$l") in libc.so*|libm.so*|libpthread.so*|libresolv.so*|libdl.so*|librt.so*|libgcc_s.so*|libstdc++.so*) continue;; esac
    cp -L "$l" "$B/lib/"
  done
  fc-list -f '%{file}\n' | sort -u | while read -r f; do cp -L "$f" "$B/fonts/"; done
  cp -rL /etc/fonts "$B/etc/fonts"
  sed -i 's#<dir>/usr/share/fonts</dir>#<dir>/tmp/oq/fonts</dir>#; s#<cachedir>[^<]*</cachedir>##g; s#<dir prefix="xdg">fonts</dir>##; s#<dir>/usr/local/share/fonts</dir>##; s#<dir>~/.fonts</dir>##; s#</fontconfig>#<cachedir>/tmp/oq/fc-cache</cachedir></fontconfig>#' "$B/etc/fonts/fonts.conf"
  # The peer scenes (peers.py's documents) and every fourth Lottie file of the corpus with its
  # index entry, and the Apple frames the GPU suites compare with.
  "${PYTHON:-python3}" - "$B" <<'PY'
import json, os, shutil, sys
sys.path.insert(0, "benchmarks/peers")
out = sys.argv[1]
try:
    import peers
    for scene in [peers.layers_scene(n) for n in (100, 1000, 10000)] + [peers.blur_scene(r) for r in (4, 20, 100)]:
        for s in (scene, peers.moving_scene(scene)):
            json.dump(peers.scene_document(s), open(os.path.join(out, "scenes", s["name"] + ".json"), "w"))
except ImportError as error:
    print(f"peer scenes left out ({error}): PYTHON=the peer harness's Python")
import lottie_corpus
shared = os.path.join("..", "shared", "lottie")
names = {name for name, _ in lottie_corpus.corpus(os.path.join("..", "shared"))[::4]}
kept = [s for s in json.load(open(os.path.join(shared, "index.json"))) if s["name"] in names]
for s in kept:
    folder = os.path.join(out, "shared", "lottie", os.path.dirname(s["sample"]))
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(shared, s["sample"]), folder)
json.dump(kept, open(os.path.join(out, "shared", "lottie", "index.json"), "w"))
PY
  rm -rf benchmarks/peers/__pycache__
  cp ../shared/lottie/apple/Issues-issue_1169_shadow_effect*.png "$B/shared/lottie/apple/"
  tar -C "$B" -cf - . | xz -T2 -6 > .dev/bundle.tar.xz
  ls -la .dev/bundle.tar.xz
  ;;
run)
  OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
  start=$SECONDS; lap() { echo "== $1 at $((SECONDS - start)) s" | tee -a "$OUT/times.txt"; }
  mkdir -p /tmp/oq && tar -xJf .dev/bundle.tar.xz -C /tmp/oq
  EGL_VENDOR=${EGL_VENDOR:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
  [ -f "$EGL_VENDOR" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$EGL_VENDOR
  export LD_LIBRARY_PATH=/tmp/oq/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
  export FONTCONFIG_FILE=/tmp/oq/etc/fonts/fonts.conf FONTCONFIG_PATH=/tmp/oq/etc/fonts
  built=$(strings /tmp/oq/tests.xctest | grep -m1 -o '/[^ ]*/Tests/GLBackendTests/' | sed 's#/Tests/GLBackendTests/##')
  if [ -n "$built" ]; then
    if [ "$built" != "$PWD" ]; then mkdir -p "$(dirname "$built")"; ln -sfn "$PWD" "$built"; fi
    [ -e "$(dirname "$built")/shared/lottie" ] || ln -sfn /tmp/oq/shared "$(dirname "$built")/shared"
  fi
  Q=/tmp/oq/quartz
  (nvidia-smi 2>/dev/null | head -12; nproc; uname -a) > "$OUT/machine.txt" 2>&1
  lap setup
  $Q demo -o /tmp/demo > "$OUT/demo.txt" 2>&1; echo "demo rc $?" >> "$OUT/demo.txt"; tail -3 "$OUT/demo.txt"
  lap demo
  ( cd "${built:-$PWD}" && OPENQUARTZ_GL_DEBUG=1 timeout 150 /tmp/oq/tests.xctest --testing-library swift-testing \
      --filter 'GLBackendTests|SceneCatalogTests|ExampleSceneTests|DifferentialFuzzTests|SnapshotStrategyTests' ) > "$OUT/suites.txt" 2>&1
  echo "suites rc $?" >> "$OUT/suites.txt"; grep -E "Test run with|✘" "$OUT/suites.txt" | tail -8
  lap suites
  timeout 60 $Q fuzz-differential --count 300 --seed 1 > "$OUT/fuzz.txt" 2>&1; echo "fuzz rc $?" >> "$OUT/fuzz.txt"; tail -2 "$OUT/fuzz.txt"
  lap fuzz
  for scene in /tmp/oq/scenes/*.json; do
    s=$(basename "$scene" .json)
    for b in gpu cpu; do
      m=""; case $s in *moving) m="--time 0.5 --repeat-step 0.0166667";; esac
      echo "$s $b $($Q render "$scene" -o "/tmp/$s.$b.png" --backend $b --repeats 20 $m --json 2>&1 | tail -1)" >> "$OUT/bench.txt"
    done
  done
  lap bench
  if ls .dev/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --target /tmp/site .dev/*.whl && export PYTHONPATH=/tmp/site
  fi
  for b in gpu cpu; do
    PYTHONUNBUFFERED=1 timeout 70 python3 benchmarks/peers/lottie_stages.py --quartz $Q --shared /tmp/oq/shared \
      --backend $b --every 1 > "$OUT/lottie-$b.txt" 2>&1
    tail -3 "$OUT/lottie-$b.txt"; lap "lottie $b"
  done
  ;;
*) echo "usage: bash scripts/device-checks.sh pack|run" >&2; exit 2 ;;
esac
