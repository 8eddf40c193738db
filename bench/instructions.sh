#!/usr/bin/env bash
# bench/instructions.sh REF [JOB]: the instructions jrpcld executes for one
# job on one core, counted by valgrind's cachegrind, on the commit REF (the
# base) and on the work tree (the head), with the functions whose counts
# moved most.
#
# Why: with both cores busy this VM runs at two speeds, so telling a few
# percent apart in time takes many alternated runs (compare.sh). The count
# of instructions of a run moves by 1-2% from run to run (eight counts of
# one build: 1.471e9-1.505e9 outside the collector), so one run of each
# build tells a change of a few percent. It is not time: a change that saves
# cache misses or traffic between cores (BENCHMARKS.md, "A batch on one
# core") shows in time only, and one that saves instructions still has to
# be timed. The collector's own functions (runtime/mgc*.go,
# runtime/mwbbuf.go) are counted apart: how much it runs depends on timing.
#
# JOB is validate-mcp (validate --schema with the MCP 2025-11-25 schema, the
# default), validate, turtle or turtle-mcp (the MCP block of
# ../shared/reference/ogc-mcp-bblocks). Environment: ICOUNT_N messages in the
# log (default 50000), JRPCLD_SHARED the shared folder (default ../shared).
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ref=${1:?usage: bench/instructions.sh REF [validate-mcp|validate|turtle|turtle-mcp]}
job=${2:-validate-mcp}
shared=${JRPCLD_SHARED:-$root/../shared}
corpus=$shared/corpus/mcp-sessions
N=${ICOUNT_N:-50000}
case $job in
validate-mcp) args=(validate --schema "$shared/reference/mcp-schema/2025-11-25/schema.json") ;;
validate) args=(validate) ;;
turtle) args=(turtle -q -o /dev/null) ;;
turtle-mcp) args=(turtle -q --bblock "$shared/reference/ogc-mcp-bblocks" --id mcp.mcp -o /dev/null) ;;
*)
	echo "instructions: no job $job (validate-mcp, validate, turtle, turtle-mcp)" >&2
	exit 2
	;;
esac
for t in valgrind cg_annotate; do
	command -v "$t" > /dev/null || { echo "instructions: no $t: apt-get install valgrind" >&2; exit 2; }
done
if [ ! -d "$corpus" ]; then
	echo "instructions: no corpus at $corpus: nothing to count" >&2
	exit 0
fi
. bench/devnull.sh # /dev/null must be the device
out=$root/bench/out/instructions
rm -rf "$out"
mkdir -p "$out"

base=$out/base
git worktree add --detach -q "$base" "$ref"
trap 'git worktree remove --force "$base"' EXIT
(cd "$base" && go build -o "$out/jrpcld-base" ./cmd/jrpcld)
go build -o "$out/jrpcld-head" ./cmd/jrpcld
"$out/jrpcld-head" gen -n "$N" -o "$out/log.jsonl" "$corpus"/*.dir.jsonl

# count SIDE: one run of that side's build under cachegrind, its counts by
# function in $out/SIDE.txt ("count file function" lines; a function
# inlined elsewhere has a line per file). valgrind 3.19 cannot decode
# RDTSCP, which Go's runtime runs when a lock is contended: GODEBUG turns
# it off.
count() {
	local side=$1
	# validate exits 1 on the log's invalid messages.
	GODEBUG=cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/$side.cg" \
		"$out/jrpcld-$side" "${args[@]}" "$out/log.jsonl" > /dev/null 2> "$out/$side.err" || true
	if grep -q 'SIGILL\|unhandled instruction' "$out/$side.err"; then
		echo "instructions: valgrind met an instruction it cannot run: see $out/$side.err" >&2
		exit 1
	fi
	cg_annotate --show-percs=no "$out/$side.cg" |
		awk '/^Ir +file:function/ { on = 1; next } on && /^-+$/ { if (n) on = 0; next }
			on && NF >= 2 { gsub(",", "", $1); f = $2; sub(/:.*/, "", f); fn = substr($2, length(f) + 2); print $1, f, fn; n++ }' > "$out/$side.txt"
}
count base
count head

# sums SIDE: "total collector" of the side's counts.
sums() {
	awk '{ t += $1 } $2 ~ /\/runtime\/(mgc[^\/]*|mwbbuf)\.go$/ { g += $1 } END { printf "%d %d\n", t, g }' "$out/$1.txt"
}
read -r bt bg <<< "$(sums base)"
read -r ht hg <<< "$(sums head)"
echo "job: jrpcld ${args[*]} on $N messages, one core (GOMAXPROCS=1)"
echo "base $(git -C "$base" rev-parse --short HEAD), head $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with changes)')"
awk -v bt="$bt" -v bg="$bg" -v ht="$ht" -v hg="$hg" 'BEGIN {
	printf "%-10s %16s %16s %16s\n", "", "all", "collector", "the rest"
	printf "%-10s %16d %16d %16d\n", "base", bt, bg, bt - bg
	printf "%-10s %16d %16d %16d\n", "head", ht, hg, ht - hg
	printf "%-10s %16.3f %16.3f %16.3f\n", "head/base", ht / bt, (bg ? hg / bg : 0), (ht - hg) / (bt - bg)
}'
echo "functions that moved most (base, head, head - base):"
awk 'FNR == NR { b[$3] += $1; next } { h[$3] += $1 } END {
	for (f in b) d[f] = h[f] - b[f]
	for (f in h) d[f] = h[f] - b[f]
	for (f in d) printf "%d %d %d %s\n", (d[f] < 0 ? -d[f] : d[f]), b[f], h[f], f
}' "$out/base.txt" "$out/head.txt" | sort -rn | head -n 15 |
	awk '{ sub(/^github\.com\/jrpcld\/jrpcld\//, "", $4); printf "  %14d %14d %+14d  %s\n", $2, $3, $3 - $2, $4 }'
