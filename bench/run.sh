#!/usr/bin/env bash
# bench/run.sh: the measurements of BENCHMARKS.md, in one run.
#
# Builds jrpcld, generates logs from the recorded MCP sessions in
# ../shared/corpus (skips with a message when they are absent), runs the Go
# benchmarks on one and two cores, times the commands on a large log with
# their peak memory, and, when node is there, measures the peers of issue 14
# on the same messages: jsonld.js (toRDF, and fromRDF + compact for the way
# back) and ajv (with and without ajv-formats) validating with the same
# schemas as `jrpcld validate --schema`. The npm packages jsonld, ajv,
# ajv-formats and yaml are installed into bench/node_modules when npm can;
# without node or them, those parts are skipped, and the script says so.
# Prints tables of medians (with min-max) and ratios; everything it measured
# stays in bench/out/.
#
# Environment: BENCH_N messages in the large log (default 1000000),
# BENCH_BIG messages in the ~1 GB log (default 1600000; 0 skips it),
# BENCH_COUNT runs of each Go benchmark and command (default 5),
# BENCH_JS_SECONDS seconds of each jsonld.js way (default 20),
# BENCH_JS_COUNT runs of each jsonld.js measure (default BENCH_COUNT),
# BENCH_AJV_N messages ajv validates: the first ones of the large log
# (default 100000), BENCH_AJV_SECONDS seconds of each ajv run (default 5),
# JRPCLD_SHARED the shared folder (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/devnull.sh # /dev/null must be the device
root=$PWD
out=$root/bench/out
mkdir -p "$out"
shared=${JRPCLD_SHARED:-$root/../shared}
corpus=$shared/corpus/mcp-sessions
N=${BENCH_N:-1000000}
BIG=${BENCH_BIG:-1600000}
COUNT=${BENCH_COUNT:-5}
JS_SECONDS=${BENCH_JS_SECONDS:-20}
JS_COUNT=${BENCH_JS_COUNT:-$COUNT}
AJV_N=${BENCH_AJV_N:-100000}
AJV_SECONDS=${BENCH_AJV_SECONDS:-5}

if [ ! -d "$corpus" ]; then
	echo "bench: no corpus at $corpus: nothing to measure" >&2
	exit 0
fi

log() { echo "== $*" >&2; }
# What an earlier run measured must not show in this run's report.
rm -f "$out"/time-*.txt "$out"/ajv-*.txt "$out"/verdicts-*.json "$out"/findings-*.jsonl "$out"/jsonld-js*.txt
# skip WHAT: says what was not measured and why, now and in the report.
: > "$out/skipped.txt"
skip() {
	echo "bench: skipped: $*" >&2
	echo "$*" >> "$out/skipped.txt"
}

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
go test ./convert/wire -run '^$' -bench 'BenchmarkReverse' -cpu 1,2 -count "$COUNT" > "$out/go-reverse.txt"
go test ./register -run '^$' -bench BuildOGC -benchtime 20x -count "$COUNT" > "$out/go-register.txt" || true
go test ./jsonrpc/stats -run '^$' -bench . -benchtime 5x -count "$COUNT" > "$out/go-stats.txt" || true

# time_once NAME COMMAND...: runs the command once, adding its wall time,
# peak RSS and user and system CPU time to time-NAME.txt (only the last line
# of time's output: the first says so when the command exits non-zero, as
# validate does for a log with invalid messages).
time_once() {
	local name=$1
	shift
	/usr/bin/time -f "%e %M %U %S" -o "$out/time-one.txt" "$@" > /dev/null 2> "$out/stderr-$name.txt" || true
	tail -n 1 "$out/time-one.txt" >> "$out/time-$name.txt"
}

# timed NAME COMMAND...: runs the command COUNT times (time_once).
timed() {
	local name=$1
	shift
	: > "$out/time-$name.txt"
	for _ in $(seq "$COUNT"); do
		time_once "$name" "$@"
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

# The node peers. npm installs the four packages in one command: an
# "npm install --no-save" removes the packages an earlier one installed
# without saving (none is in a package.json), so they are always named
# together. yaml reads the embedded block's schema.yaml for ajv.
node_ok=false
if command -v node > /dev/null; then
	node_ok=true
	missing=""
	for p in jsonld ajv ajv-formats yaml; do
		[ -d "$root/bench/node_modules/$p" ] || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		if command -v npm > /dev/null; then
			log "npm install jsonld ajv ajv-formats yaml (missing:$missing)"
			(cd "$root/bench" && npm install --no-save --no-audit --no-fund jsonld ajv ajv-formats yaml > "$out/npm.txt" 2>&1) ||
				echo "bench: npm install failed (offline?), see $out/npm.txt" >&2
		else
			echo "bench: no npm to install:$missing" >&2
		fi
	fi
else
	skip "node is not installed: no jsonld.js, no ajv"
fi
have() { $node_ok && [ -d "$root/bench/node_modules/$1" ]; }
if $node_ok; then
	versions="node $(node --version)"
	for p in jsonld ajv ajv-formats; do
		have "$p" && versions="$versions, $p $(cd "$root/bench" && node -p "require('$p/package.json').version")"
	done
	echo "peers: $versions" | tee -a "$out/machine.txt" >&2
fi

# Validation with a schema, jrpcld beside ajv (issue 14): the MCP schema
# 2025-11-25 (jrpcld dispatches each message to its method's definition;
# ajv-bench.js --dispatch does the same with ajv) and the embedded JSON-RPC
# block's schema, given as a file (with the embedded block itself, jrpcld
# applies its rules, which say exactly what that schema says, and skips the
# validator). jrpcld validates the whole large log, reading and decoding it
# on every core; ajv the first AJV_N messages of the same log, parsed
# before its timed loop, over and over for AJV_SECONDS after a warm-up
# pass, on one core (node validates on one thread). The jrpcld runs and the
# ajv runs alternate, round by round, so that both see the same machine.
# ajv-formats asserts "format"; jrpcld does with --formats, which the runs
# beside ajv with ajv-formats use.
mcpschema=$shared/reference/mcp-schema/2025-11-25/schema.json
rpcschema=$root/bblock/jsonrpc/schema.yaml
formats=false
case "$("$jrpcld" validate --help 2>&1 || true)" in
*--formats*) formats=true ;;
*) skip "jrpcld validate --formats: this jrpcld has no such flag" ;;
esac
head -n "$AJV_N" "$out/log.jsonl" > "$out/log-ajv.jsonl"
ajv_ok=false
if have ajv && have ajv-formats && have yaml; then
	ajv_ok=true
elif $node_ok; then
	skip "ajv: the npm packages ajv, ajv-formats and yaml are not in bench/node_modules"
fi
[ -f "$mcpschema" ] || skip "the MCP schema: no $mcpschema"
# The ajv runs: NAME SCHEMA FLAGS.
ajv_runs=()
if [ -f "$mcpschema" ]; then
	ajv_runs+=("ajv-mcp|$mcpschema|--dispatch"
		"ajv-mcp-formats|$mcpschema|--dispatch --formats"
		"ajv-mcp-parse|$mcpschema|--dispatch --parse"
		"ajv-mcp-formats-parse|$mcpschema|--dispatch --formats --parse"
		"ajv-mcp-nodispatch|$mcpschema|--definition JSONRPCMessage"
		"ajv-mcp-nodispatch-formats|$mcpschema|--definition JSONRPCMessage --formats")
fi
ajv_runs+=("ajv-rpc|$rpcschema|" "ajv-rpc-parse|$rpcschema|--parse")
log "validate --schema beside ajv, $COUNT rounds (ajv: first $(wc -l < "$out/log-ajv.jsonl") messages, ${AJV_SECONDS}s a run)"
# One warm-up run of each jrpcld command, untimed.
[ -f "$mcpschema" ] && { "$jrpcld" validate --schema "$mcpschema" "$out/log.jsonl" > /dev/null 2>&1 || true; }
[ -f "$mcpschema" ] && $formats && { "$jrpcld" validate --schema "$mcpschema" --formats "$out/log.jsonl" > /dev/null 2>&1 || true; }
"$jrpcld" validate --schema "$rpcschema" "$out/log.jsonl" > /dev/null 2>&1 || true
for r in "${ajv_runs[@]}"; do : > "$out/${r%%|*}.txt"; done
for round in $(seq "$COUNT"); do
	[ -f "$mcpschema" ] && time_once validate-mcp "$jrpcld" validate --schema "$mcpschema" "$out/log.jsonl"
	[ -f "$mcpschema" ] && time_once validate-mcp-1core env GOMAXPROCS=1 "$jrpcld" validate --schema "$mcpschema" "$out/log.jsonl"
	[ -f "$mcpschema" ] && $formats && time_once validate-mcp-formats "$jrpcld" validate --schema "$mcpschema" --formats "$out/log.jsonl"
	time_once validate-rpcschema "$jrpcld" validate --schema "$rpcschema" "$out/log.jsonl"
	$ajv_ok || continue
	for r in "${ajv_runs[@]}"; do
		IFS='|' read -r name schema flags <<< "$r"
		verdicts=()
		[ "$round" = 1 ] && verdicts=(--verdicts "$out/verdicts-$name.json")
		# shellcheck disable=SC2086 # flags are words
		(cd "$root/bench" && node ajv-bench.js "$schema" "$AJV_SECONDS" $flags "${verdicts[@]}" "$out/log-ajv.jsonl") \
			>> "$out/$name.txt" 2> "$out/stderr-$name.txt" || echo "bench: $name failed, see $out/stderr-$name.txt" >&2
	done
done
# jrpcld's verdicts on the messages ajv validated, to compare with ajv's.
if $ajv_ok; then
	[ -f "$mcpschema" ] && { "$jrpcld" validate --schema "$mcpschema" --format json --max-errors 1000000000 "$out/log-ajv.jsonl" > "$out/findings-mcp.jsonl" 2> /dev/null || true; }
	[ -f "$mcpschema" ] && $formats && { "$jrpcld" validate --schema "$mcpschema" --formats --format json --max-errors 1000000000 "$out/log-ajv.jsonl" > "$out/findings-mcp-formats.jsonl" 2> /dev/null || true; }
	"$jrpcld" validate --schema "$rpcschema" --format json --max-errors 1000000000 "$out/log-ajv.jsonl" > "$out/findings-rpcschema.jsonl" 2> /dev/null || true
fi

# jsonld.js: JS_COUNT runs of each measure, one JSON line each.
if have jsonld; then
	logs=("$corpus/everything-stdio.jsonl" "$corpus/filesystem-stdio.jsonl" "$corpus/memory-stdio.jsonl")
	# The way back reads the N-Triples of the recorded sessions, as jrpcld
	# writes them (the generated log cycles these sessions).
	"$jrpcld" rdf -q --format ntriples -o "$out/corpus.nt" "$corpus"/*.dir.jsonl
	: > "$out/jsonld-js.txt"
	: > "$out/jsonld-js-mcp.txt"
	: > "$out/jsonld-js-back.txt"
	log "jsonld.js, $JS_COUNT runs of ${JS_SECONDS}s each way: toRDF (embedded block, MCP block) and fromRDF + compact"
	for _ in $(seq "$JS_COUNT"); do
		(cd "$root/bench" && node jsonld-bench.js "$out/context.json" "$JS_SECONDS" "${logs[@]}") >> "$out/jsonld-js.txt" ||
			echo "bench: jsonld.js toRDF failed" >&2
		if [ -s "$out/mcp-context.json" ]; then
			(cd "$root/bench" && node jsonld-bench.js "$out/mcp-context.json" "$JS_SECONDS" "${logs[@]}") >> "$out/jsonld-js-mcp.txt" ||
				echo "bench: jsonld.js toRDF with the MCP block failed" >&2
		fi
		(cd "$root/bench" && node jsonld-bench.js --from-rdf "$out/context.json" "$JS_SECONDS" "$out/corpus.nt") >> "$out/jsonld-js-back.txt" ||
			echo "bench: jsonld.js fromRDF + compact failed" >&2
	done
	[ -s "$out/mcp-context.json" ] || skip "jsonld.js with the MCP block: no $mcp"
elif $node_ok; then
	skip "jsonld.js: the npm package jsonld is not in bench/node_modules"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

python3 "$root/bench/report.py" "$out" "$N" "$BIG" | tee "$out/report.md"
