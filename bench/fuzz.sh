#!/usr/bin/env bash
# bench/fuzz.sh [TARGET...]: the random search that CI does not run. Each
# fuzz target of the module (or only those named, e.g. FuzzHostile) runs for
# FUZZ_TIME (default 10m) on top of its committed seed corpus. CI runs only
# the committed seeds (go test ./... does), so that a run of the gate never
# depends on chance; what a search here finds is fixed and its input kept as
# a seed in the package's testdata/fuzz/TARGET/ (go test writes it there).
#
# A duration can end with Go's fuzz coordinator failing with "context
# deadline exceeded" (a race in its shutdown, seen with go1.26); such a run
# is reported as "ended by the coordinator", not as a find. Finds are listed
# at the end with the file each left; the exit status is 1 if there was one.
set -uo pipefail
cd "$(dirname "$0")/.."
time=${FUZZ_TIME:-10m}
out=bench/out/fuzz
mkdir -p "$out"

targets=$(grep -rH --include='*_test.go' '^func Fuzz[A-Za-z0-9]*(' . |
  sed 's/^\(.*\)\/[^/]*_test.go:func \(Fuzz[A-Za-z0-9]*\)(.*/\1 \2/' | sort -u)
if [ $# -gt 0 ]; then
  want=" $* "
  targets=$(echo "$targets" | while read -r pkg target; do
    case "$want" in *" $target "*) echo "$pkg $target" ;; esac
  done)
fi
[ -n "$targets" ] || { echo "fuzz.sh: no fuzz target named $*" >&2; exit 2; }

finds=0
while read -r pkg target; do
  log=$out/$target.log
  if go test -run XXX -fuzz "^$target\$" -fuzztime "$time" "$pkg" >"$log" 2>&1; then
    echo "ok    $target ($pkg, $time)"
  elif grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written to' "$log"; then
    echo "ok    $target ($pkg, $time; ended by the coordinator)"
  else
    finds=$((finds + 1))
    echo "FOUND $target ($pkg): $(grep -m1 'Failing input written to' "$log" || echo "see $log")"
  fi
done <<<"$targets"
[ "$finds" -eq 0 ]
