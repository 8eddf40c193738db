#!/usr/bin/env bash
# bench/compare.sh REF: the benchmarks of bench/run.sh, run on the commit REF
# (the base) and on the work tree (the head), alternating run by run in one
# session so that both see the same machine. Prints, for each Go benchmark
# and each timed command, the median with min and max of each side and the
# ratio head/base of the medians (higher msgs/s is better). Everything it
# measured stays in bench/out/compare/.
#
# Environment: BENCH_N messages in the log the commands run on (default
# 1000000), BENCH_COUNT runs of each (default 5), BENCH_GO the Go benchmarks
# to run (default: the conversion, validation and way-back ones), BENCH_CMDS
# the commands to time among turtle, ntriples, validate and json (default
# all; "none" for none), JRPCLD_SHARED the shared folder (default ../shared).
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
N=${BENCH_N:-1000000}
COUNT=${BENCH_COUNT:-5}
if [ ! -d "$corpus" ]; then
	echo "bench: no corpus at $corpus: nothing to measure" >&2
	exit 0
fi

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

# pkgof DIR NAME: the package of DIR that holds benchmark NAME.
pkgof() {
	(cd "$1" && grep -rl --include='*_test.go' "^func $2(" . | head -1 | xargs -r dirname)
}

benches=${BENCH_GO:-"BenchmarkConvertTurtle BenchmarkConvertTurtleMCP BenchmarkConvertNTriples BenchmarkCompiledToRDF BenchmarkValidate BenchmarkValidateMCP BenchmarkReverse"}
cmds=${BENCH_CMDS:-"turtle ntriples validate json"}
for i in $(seq "$COUNT"); do
	for side in base head; do
		dir=$root
		[ "$side" = base ] && dir=$base
		for b in $benches; do
			pkg=$(pkgof "$dir" "$b")
			[ -n "$pkg" ] || continue
			(cd "$dir" && go test "$pkg" -run '^$' -bench "^$b\$" -cpu 1,2 -count 1 -benchtime 2s) | grep '^Benchmark' >> "$out/go-$side.txt" || true
		done
		for cmd in "turtle -q -o /dev/null $out/log.jsonl" "rdf -q --format ntriples -o /dev/null $out/log.jsonl" \
			"validate $out/log.jsonl" "json -o /dev/null $out/log.nt"; do
			name=${cmd%% *}
			[ "$name" = rdf ] && name=ntriples
			case " $cmds " in *" $name "*) ;; *) continue ;; esac
			/usr/bin/time -f "%e %M %U %S" -o "$out/one.txt" "$out/jrpcld-$side" $cmd > /dev/null 2>&1 || true
			echo "$name $(cat "$out/one.txt")" >> "$out/time-$side.txt"
		done
	done
	echo "round $i of $COUNT done" >&2
done
python3 "$root/bench/compare.py" "$out" "$N" | tee "$out/report.md"
