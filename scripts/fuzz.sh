#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/, libFuzzer + address sanitizer, optimized) and runs each for
# FUZZ_SECONDS (default 60) on its corpus: the checked-in seeds (fuzz/corpus/<target>/) and what
# earlier runs found (out/fuzz/corpus/<target>/, kept between runs). A crash, a leak, a hang over
# 30 s or an input using over 2 GiB stops that target and leaves the input in out/fuzz/; the
# script then fails, naming it, with the trap's message and the frames in our sources. Under CI
# the seed is fixed (FUZZ_SEED, default 1) so a finding reproduces along the same path in a clean
# clone; elsewhere each run explores from a new one. Usage: scripts/fuzz.sh [target ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=("$@")
all_targets=(FuzzSceneDocument FuzzImageDecoder FuzzPathRaster FuzzLayerTree FuzzShardManifest FuzzBenchReport FuzzLottieDocument)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
scratch="$PWD/.build/fuzz"
# lld: gold fails on the sanitizer objects (an internal error in its DWARF reader).
flags=(-c release --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
# The Swift runtime's own crash handler would read memory ASan guards and hide the real report.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp
# SwiftPM keeps its build plan for a path dependency and misses source files added to it since.
rm -f "$scratch/release.yaml"
# Every target at once when all run (one build plan, the targets' own modules and links side by
# side), else each named one.
if [ ${#targets[@]} -eq ${#all_targets[@]} ]; then
  (cd fuzz && swift build "${flags[@]}" 2>&1 | grep -vE "Cannot export local symbol" | tail -3)
else
  for target in "${targets[@]}"; do
    (cd fuzz && swift build "${flags[@]}" --product "$target" 2>&1 | grep -vE "Cannot export local symbol" | tail -3)
  done
fi
bin=$(cd fuzz && swift build "${flags[@]}" --show-bin-path)
failed=()
seed=()
if [ -n "${FUZZ_SEED:-}" ]; then seed=(-seed="$FUZZ_SEED"); elif [ -n "${CI:-}" ]; then seed=(-seed=1); fi
# The two small parsers (a shard manifest, a bench report: a dozen fields each) reach their whole
# coverage in seconds (171 and 911 edges within 15 s), so they run a quarter of the time, at least 5 s.
small_seconds=$(( seconds / 4 > 5 ? seconds / 4 : 5 ))
for target in "${targets[@]}"; do
  mkdir -p "out/fuzz/corpus/$target" "out/fuzz/artifacts/$target"
  target_seconds=$seconds
  case "$target" in FuzzShardManifest|FuzzBenchReport) target_seconds=$small_seconds ;; esac
  echo "== $target: ${target_seconds} s"
  # Leak checking stays on: a decoder that leaks per call is a bug a long-running server meets.
  if ! "$bin/$target" "${seed[@]}" -max_total_time="$target_seconds" -timeout=30 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="out/fuzz/artifacts/$target/" \
      "out/fuzz/corpus/$target" "fuzz/corpus/$target" > "out/fuzz/$target.log" 2>&1; then
    failed+=("$target")
    grep -E "ERROR|SUMMARY|Test unit written|Fatal error|==[0-9]+==|Swift runtime failure" "out/fuzz/$target.log" | head -20 || true
    grep -E "^ +#[0-9]+ .* $PWD/(Sources|fuzz)/" "out/fuzz/$target.log" | head -8 | sed -E 's/ in \$s[^ ]* / in /' || true
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov:" "out/fuzz/$target.log" | tail -3 || true
done
if [ ${#failed[@]} -gt 0 ]; then
  # Last, where a log's tail shows it: what each failure was and the input itself (gzip, base64,
  # when that is short), so a finding on a machine whose files are gone can be replayed here:
  # echo ... | base64 -d | gunzip > input; "$bin/<target>" input.
  for target in "${failed[@]}"; do
    grep -m1 -E "==[0-9]+== ?ERROR|^ERROR: libFuzzer|Fatal error|Swift runtime failure" "out/fuzz/$target.log" | cut -c1-200 || true
    grep -m1 -E "Direct leak of|^SUMMARY" "out/fuzz/$target.log" | cut -c1-200 || true
    for input in "out/fuzz/artifacts/$target"/*; do
      [ -f "$input" ] || continue
      packed=$(gzip -9nc "$input" | base64 -w0)
      if [ ${#packed} -le 2400 ]; then echo "$target input ($(stat -c %s "$input") bytes; gzip, base64): $packed"
      else echo "$target input: $input ($(stat -c %s "$input") bytes, ${#packed} packed: too long to print)"; fi
    done
  done
  echo "fuzz: ${failed[*]} found a failing input (out/fuzz/artifacts/; logs in out/fuzz/*.log)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each (the two small parsers ${small_seconds} s) without a failure"
