#!/usr/bin/env bash
# bench/run.sh: the measurements of BENCHMARKS.md, in one run.
#
# Builds jrpcld, generates logs from the recorded MCP sessions in
# ../shared/corpus (skips with a message when they are absent), runs the Go
# benchmarks on one and two cores, times the commands on a large log with
# their peak memory, and converts the same messages with jsonld.js when node
# is there (installing the npm package jsonld into bench/node_modules when
# npm can; without it, that part is skipped). Prints a table of medians and
# ratios; everything it measured stays in bench/out/.
#
# Environment: BENCH_N messages in the large log (default 1000000),
# BENCH_BIG messages in the ~1 GB log (default 1600000; 0 skips it),
# BENCH_COUNT runs of each Go benchmark and command (default 5),
# BENCH_JS_SECONDS seconds of jsonld.js (default 20),
# JRPCLD_SHARED the shared folder (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/bench/out
mkdir -p "$out"
shared=${JRPCLD_SHARED:-$root/../shared}
corpus=$shared/corpus/mcp-sessions
N=${BENCH_N:-1000000}
BIG=${BENCH_BIG:-1600000}
COUNT=${BENCH_COUNT:-5}
JS_SECONDS=${BENCH_JS_SECONDS:-20}

if [ ! -d "$corpus" ]; then
	echo "bench: no corpus at $corpus: nothing to measure" >&2
	exit 0
fi

log() { echo "== $*" >&2; }

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "go: $(go version)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
	echo "memory: $(free -m | awk '/Mem:/ {print $2 " MiB"}')"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

log "build"
go build -o "$out/jrpcld" ./cmd/jrpcld
jrpcld=$out/jrpcld

log "generate $N messages"
"$jrpcld" gen -n "$N" -o "$out/log.jsonl" "$corpus"/*.dir.jsonl
if [ "$BIG" -gt 0 ]; then
	log "generate $BIG messages (the ~1 GB log)"
	"$jrpcld" gen -n "$BIG" -o "$out/big.jsonl" "$corpus"/*.dir.jsonl
fi
"$jrpcld" context > "$out/context.json"

log "go benchmarks (-count $COUNT)"
go test ./convert ./schema -run '^$' -bench 'Benchmark(Validate|ValidateMCP|ConvertTurtle|ConvertTurtleMCP|ConvertNTriples|JSONGoldToRDF|JSONGoldToRDFMCP|CompiledToRDF)$' \
	-cpu 1,2 -count "$COUNT" -benchtime 2s > "$out/go-convert.txt"
go test ./wire -run '^$' -bench 'BenchmarkReverse' -cpu 1,2 -count "$COUNT" > "$out/go-reverse.txt"
go test ./register -run '^$' -bench BuildOGC -benchtime 20x -count "$COUNT" > "$out/go-register.txt" || true
go test ./stats -run '^$' -bench . -benchtime 5x -count "$COUNT" > "$out/go-stats.txt" || true

# timed NAME COMMAND...: runs the command COUNT times, keeping the wall time,
# peak RSS and user and system CPU time of each run.
timed() {
	local name=$1
	shift
	: > "$out/time-$name.txt"
	for _ in $(seq "$COUNT"); do
		/usr/bin/time -f "%e %M %U %S" -o "$out/time-one.txt" "$@" > /dev/null 2> "$out/stderr-$name.txt" || true
		cat "$out/time-one.txt" >> "$out/time-$name.txt"
	done
}

log "commands on $N messages"
timed validate "$jrpcld" validate "$out/log.jsonl"
timed turtle "$jrpcld" turtle -q -o /dev/null "$out/log.jsonl"
timed ntriples "$jrpcld" rdf -q --format ntriples -o /dev/null "$out/log.jsonl"
timed turtle-1core env GOMAXPROCS=1 "$jrpcld" turtle -q -o /dev/null "$out/log.jsonl"
timed validate-1core env GOMAXPROCS=1 "$jrpcld" validate "$out/log.jsonl"
# The way back, on the N-Triples of the first 100,000 messages and of all.
head -n 100000 "$out/log.jsonl" > "$out/log100k.jsonl"
"$jrpcld" rdf -q --format ntriples -o "$out/log100k.nt" "$out/log100k.jsonl"
timed json "$jrpcld" json -o /dev/null "$out/log100k.nt"
"$jrpcld" rdf -q --format ntriples -o "$out/log.nt" "$out/log.jsonl"
timed json-all "$jrpcld" json -o /dev/null "$out/log.nt"
rm -f "$out/log.nt"
# The MCP block's context (params and results mapped into nodes), when the
# reference register is there.
mcp=$shared/reference/ogc-mcp-bblocks
if [ -d "$mcp" ]; then
	"$jrpcld" context --bblock "$mcp" --id mcp.mcp > "$out/mcp-context.json" 2> /dev/null
	timed turtle-mcp "$jrpcld" turtle -q --bblock "$mcp" --id mcp.mcp -o /dev/null "$out/log.jsonl"
fi
if [ "$BIG" -gt 0 ]; then
	log "commands on the ~1 GB log ($BIG messages)"
	timed big-turtle "$jrpcld" turtle -q -o /dev/null "$out/big.jsonl"
	timed big-validate "$jrpcld" validate "$out/big.jsonl"
	timed big-stats "$jrpcld" stats "$out/big.jsonl"
	# stats on the graphs of the 1 GB log, read back as a stream.
	"$jrpcld" rdf -q --format nquads -o "$out/big.nq" "$out/big.jsonl"
	timed big-stats-nq "$jrpcld" stats "$out/big.nq"
	rm -f "$out/big.nq"
	"$jrpcld" turtle -q -o "$out/big.ttl" "$out/big.jsonl"
	timed big-stats-ttl "$jrpcld" stats "$out/big.ttl"
	rm -f "$out/big.ttl"
fi

js=skipped
if command -v node > /dev/null; then
	if [ ! -d "$root/bench/node_modules/jsonld" ] && command -v npm > /dev/null; then
		log "npm install jsonld"
		(cd "$root/bench" && npm install --no-save --no-audit --no-fund jsonld > /dev/null 2>&1) || true
	fi
	if [ -d "$root/bench/node_modules/jsonld" ]; then
		log "jsonld.js, ${JS_SECONDS}s each way"
		(cd "$root/bench" && node jsonld-bench.js "$out/context.json" "$JS_SECONDS" \
			"$corpus/everything-stdio.jsonl" "$corpus/filesystem-stdio.jsonl" "$corpus/memory-stdio.jsonl") > "$out/jsonld-js.txt"
		js=$out/jsonld-js.txt
		if [ -s "$out/mcp-context.json" ]; then
			log "jsonld.js with the MCP block's context, ${JS_SECONDS}s each way"
			(cd "$root/bench" && node jsonld-bench.js "$out/mcp-context.json" "$JS_SECONDS" \
				"$corpus/everything-stdio.jsonl" "$corpus/filesystem-stdio.jsonl" "$corpus/memory-stdio.jsonl") > "$out/jsonld-js-mcp.txt"
		fi
	fi
fi
[ "$js" = skipped ] && echo "bench: no node or no npm package jsonld: jsonld.js skipped" >&2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

python3 "$root/bench/report.py" "$out" "$N" "$BIG" | tee "$out/report.md"
