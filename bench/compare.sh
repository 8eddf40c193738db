#!/usr/bin/env bash
# bench/compare.sh REF: the benchmarks of bench/run.sh, run on the commit REF
# (the base) and on the work tree (the head), alternating run by run in one
# session so that both see the same machine. Prints, for each Go benchmark
# and each timed command, the median with min and max of each side and the
# ratio head/base of the medians (higher msgs/s is better); for a command
# also its CPU seconds and the median over the rounds of base time / head
# time, which a machine whose speed drifts over minutes leaves fairest.
# Everything it measured stays in bench/out/compare/.
#
# Environment: BENCH_N messages in the log the commands run on (default
# 1000000), BENCH_COUNT runs of each (default 5), BENCH_GO the Go benchmarks
# to run (default: the conversion, validation and way-back ones; "none" for
# none), BENCH_CMDS the commands to time among turtle, turtle-1core
# (GOMAXPROCS=1), turtle-mcp (the MCP block of
# ../shared/reference/ogc-mcp-bblocks), ntriples, validate and json
# (default all; "none" for none), JRPCLD_SHARED the shared folder (default
# ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ref=${1:?usage: bench/compare.sh REF}
out=$root/bench/out/compare
rm -rf "$out"
mkdir -p "$out"
shared=${JRPCLD_SHARED:-$root/../shared}
export JRPCLD_SHARED=$shared
corpus=$shared/corpus/mcp-sessions
mcp=$shared/reference/ogc-mcp-bblocks
N=${BENCH_N:-1000000}
COUNT=${BENCH_COUNT:-5}
if [ ! -d "$corpus" ]; then
	echo "bench: no corpus at $corpus: nothing to measure" >&2
	exit 0
fi
. bench/devnull.sh # /dev/null must be the device

# The base as a separate checkout beside the work tree's outputs.
base=$out/base
git worktree add --detach -q "$base" "$ref"
trap 'git worktree remove --force "$base"' EXIT
{
	echo "base: $(git -C "$base" rev-parse --short HEAD)"
	echo "head: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with changes)')"
	echo "go: $(go version)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

(cd "$base" && go build -o "$out/jrpcld-base" ./cmd/jrpcld)
go build -o "$out/jrpcld-head" ./cmd/jrpcld
"$out/jrpcld-head" gen -n "$N" -o "$out/log.jsonl" "$corpus"/*.dir.jsonl
"$out/jrpcld-head" rdf -q --format ntriples -o "$out/log.nt" "$out/log.jsonl"

# pkgof DIR NAME: the package of DIR that holds benchmark NAME (nothing
# when none does, as for BENCH_GO=none).
pkgof() {
	(cd "$1" && grep -rl --include='*_test.go' "^func $2(" . | head -1 | xargs -r dirname) || true
}

benches=${BENCH_GO:-"BenchmarkConvertTurtle BenchmarkConvertTurtleMCP BenchmarkConvertNTriples BenchmarkCompiledToRDF BenchmarkValidate BenchmarkValidateMCP BenchmarkReverse"}
cmds=${BENCH_CMDS:-"turtle turtle-1core turtle-mcp ntriples validate json"}
for i in $(seq "$COUNT"); do
	for side in base head; do
		dir=$root
		[ "$side" = base ] && dir=$base
		for b in $benches; do
			pkg=$(pkgof "$dir" "$b")
			[ -n "$pkg" ] || continue
			(cd "$dir" && go test "$pkg" -run '^$' -bench "^$b\$" -cpu 1,2 -count 1 -benchtime 2s) | grep '^Benchmark' >> "$out/go-$side.txt" || true
		done
		for name in turtle turtle-1core turtle-mcp ntriples validate json; do
			case " $cmds " in *" $name "*) ;; *) continue ;; esac
			procs=$(nproc)
			case $name in
			turtle) cmd="turtle -q -o /dev/null $out/log.jsonl" ;;
			turtle-1core) cmd="turtle -q -o /dev/null $out/log.jsonl" procs=1 ;;
			turtle-mcp) cmd="turtle -q --bblock $mcp --id mcp.mcp -o /dev/null $out/log.jsonl" ;;
			ntriples) cmd="rdf -q --format ntriples -o /dev/null $out/log.jsonl" ;;
			validate) cmd="validate $out/log.jsonl" ;;
			json) cmd="json -o /dev/null $out/log.nt" ;;
			esac
			GOMAXPROCS=$procs /usr/bin/time -f "%e %M %U %S" -o "$out/one.txt" "$out/jrpcld-$side" $cmd > /dev/null 2>&1 || true
			echo "$name $(cat "$out/one.txt")" >> "$out/time-$side.txt"
		done
	done
	echo "round $i of $COUNT done" >&2
done
python3 "$root/bench/compare.py" "$out" "$N" | tee "$out/report.md"
