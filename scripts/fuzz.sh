#!/usr/bin/env bash
# Builds the fuzz targets in Fuzz/ with libFuzzer and the address sanitizer, runs each one for a
# bounded time from its seed corpus, and prints each target's executions per second and corpus
# size. Exits 1 if any target crashed, hung, ran out of memory or leaked.
#
#   FUZZ_SECONDS=60   seconds per target
#   FUZZ_TARGETS="scene json"   the targets to run (default: all of them)
#   FUZZ_RSS_MB=2048  the memory limit per target; an input that needs more is a defect
#   FUZZ_TIMEOUT=10   seconds one input may take; a slower one is a defect
#
# Inputs a run finds interesting go to Fuzz/.run/<target>/corpus/ and crashing inputs to
# Fuzz/.run/<target>/ (both ignored by git), so later runs start from where earlier ones stopped.
# Replay one input with `Fuzz/.build/release/fuzz-<target> FILE`.
set -uo pipefail

SWIFT=${SWIFT:-swift}
seconds=${FUZZ_SECONDS:-60}
rss_mb=${FUZZ_RSS_MB:-2048}
timeout=${FUZZ_TIMEOUT:-10}
all_targets="scene staticmap script json journey gpx geocoder photos route polyline stroke image gtfs realtime pmtiles expiry"
read -r -a targets <<< "${FUZZ_TARGETS:-$all_targets}"

root=$(cd "$(dirname "$0")/.." && pwd)
fuzz="$root/Fuzz"
run="$fuzz/.run"
bin="$fuzz/.build/release"

# The longest input each target is given: a little over its largest seed.
max_len() {
  case $1 in
    scene | script | json | route) echo 4096 ;;
    polyline | expiry) echo 1024 ;;
    image) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

# The readers that take XML or JSON, told apart by content, get both dictionaries, joined
# into the target's run folder (libFuzzer takes one -dict).
dictionary() {
  case $1 in
    image) echo "$fuzz/Dictionaries/image.dict" ;;
    scene | staticmap | script | json) echo "$fuzz/Dictionaries/json.dict" ;;
    gpx) echo "$fuzz/Dictionaries/xml.dict" ;;
    stroke) echo "$fuzz/Dictionaries/stroke.dict" ;;
    polyline) echo "$fuzz/Dictionaries/polyline.dict" ;;
    pmtiles) echo "$fuzz/Dictionaries/pmtiles.dict" ;;
    expiry) echo "$fuzz/Dictionaries/expiry.dict" ;;
    *)
      cat "$fuzz/Dictionaries/xml.dict" "$fuzz/Dictionaries/json.dict" > "$run/$1/both.dict"
      echo "$run/$1/both.dict" ;;
  esac
}

for target in "${targets[@]}"; do
  if [[ " $all_targets " != *" $target "* ]]; then
    echo "fuzz: unknown target '$target'; the targets are: $all_targets" >&2
    exit 2
  fi
done

# libFuzzer and the sanitizers' runtimes come with the Swift toolchain, not from Debian.
command -v "$SWIFT" > /dev/null || { echo "fuzz: $SWIFT not found; Swift 6 must be on the path" >&2; exit 1; }
swift_path=$(readlink -f "$(command -v "$SWIFT")")
toolchain=$(dirname "$(dirname "$swift_path")")
if [ -z "$(find "$toolchain/lib" -name 'libclang_rt.fuzzer-*.a' -print -quit 2>/dev/null)" ]; then
  echo "fuzz: the Swift toolchain in $toolchain has no libFuzzer runtime (libclang_rt.fuzzer);" \
    "install a swift.org toolchain for Linux" >&2
  exit 1
fi

# SwiftPM's --sanitize options instrument the C targets and leave libFuzzer's main alone, but
# they pass swiftc two -sanitize flags, of which swiftc keeps only the last, so the Swift code
# got coverage or ASan, never both; the -Xswiftc flag comes after them and asks for both.
# libpng, libjpeg-turbo, libwebp and libxml2 are Debian's builds and are not instrumented, so
# their insides give the fuzzer no coverage.
echo "Building the fuzz targets (release, libFuzzer and address sanitizer) in Fuzz/.build"
# gold warns once per target that it cannot export an ASan-internal symbol; that is harmless.
"$SWIFT" build -c release --package-path "$fuzz" --scratch-path "$fuzz/.build" \
  --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address 2>&1 |
  grep -v "Cannot export local symbol '__asan_extra_spill_area'"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1

# Symbolised stack traces in sanitizer reports.
symbolizer="$(dirname "$swift_path")/llvm-symbolizer"
if [ -x "$symbolizer" ]; then export ASAN_SYMBOLIZER_PATH="$symbolizer"; fi

summary=()
failed=0
for target in "${targets[@]}"; do
  dir="$run/$target"
  mkdir -p "$dir/corpus"
  log="$dir/last-run.log"
  echo "Fuzzing $target for ${seconds}s (log: ${log#"$root"/})"
  touch "$dir/.started"
  started=$(date +%s)
  "$bin/fuzz-$target" "$dir/corpus" "$fuzz/Corpus/$target" \
    -max_total_time="$seconds" -max_len="$(max_len "$target")" -rss_limit_mb="$rss_mb" \
    -timeout="$timeout" -dict="$(dictionary "$target")" -artifact_prefix="$dir/" \
    -print_final_stats=1 > "$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - started ))

  # libFuzzer's last status line reads "#N DONE cov: C ft: F corp: 123/45Kb ... exec/s: E rss: R".
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  runs=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | awk '{print $2}')
  speed=$(grep -oE '^stat::average_exec_per_sec: [0-9]+' "$log" | awk '{print $2}')
  [ -n "$speed" ] || speed=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<< "$last")
  corpus=$(sed -nE 's/.*corp: ([0-9]+\/[0-9]+[KM]?b).*/\1/p' <<< "$last")
  findings=$(find "$dir" -maxdepth 1 -newer "$dir/.started" -type f \
    \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)

  if grep -q "Is the code instrumented for coverage?" "$log"; then
    result="FAILED (not instrumented for coverage)"
    failed=1
  elif [ "$status" -eq 0 ] && [ -z "$findings" ]; then
    result="ok"
  else
    result="FAILED (exit $status)"
    failed=1
    echo "  $target failed; the end of its log:"
    grep -E 'ERROR|SUMMARY|Fatal error|Test unit written|==[0-9]+==' "$log" | head -n 20 | sed 's/^/    /'
    for file in $findings; do echo "  input: ${file#"$root"/}"; done
  fi
  summary+=("$(printf '%-13s %8s exec/s  corp: %-12s %6s runs  %4ss  %s' \
    "$target" "${speed:-?}" "${corpus:-?}" "${runs:-?}" "$elapsed" "$result")")
done

echo
echo "Fuzzing summary (corp: inputs/bytes at the end):"
printf '  %s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target failed; each failing input is kept beside its corpus in Fuzz/.run/" >&2
  exit 1
fi
