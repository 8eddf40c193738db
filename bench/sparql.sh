#!/usr/bin/env bash
# bench/sparql.sh: jrpcld query against Oxigraph (npm, in node) and Apache
# Jena's ARQ (Debian's libapache-jena-java) on the SPARQL pack
# (examples/queries/*.rq) over the graph of a generated log; the
# BENCHMARKS.md section "SPARQL".
#
# Builds jrpcld, generates a log with `jrpcld gen` from the recorded MCP
# sessions of ../shared/corpus and examples/session.jsonl, turns it into
# N-Triples with `jrpcld rdf` (the default graph, which every engine
# loads alike), then, for each query, after a warm-up of each engine, runs
# in turns, BENCH_COUNT times, each engine in a process of its own that
# loads the N-Triples and runs the query (what a user does with one file):
#   jrpcld query --query Q --format json log.nt
#   node bench/sparql-oxigraph.js log.nt Q
#   java arq.arq --data log.nt --query Q --results json
# each under /usr/bin/time (wall, user and system CPU, peak RSS), stopped
# past BENCH_TIMEOUT seconds: an engine stopped in the warm-up is not run
# again on that query, and is reported as stopped. It checks that the
# engines give the same rows (numbers compared by value), and prints per
# query and for the queries every engine ran the medians with min-max,
# and the ratios.
#
# Environment: BENCH_N messages (default 20000), BENCH_TIMEOUT seconds
# (default 300), BENCH_COUNT turns
# (default 3), BENCH_QUERIES the queries (default all of
# examples/queries), JRPCLD_SHARED the shared folder (default ../shared),
# NODE_PATH where the npm package oxigraph is (default
# ~/.cache/jrpcld/npm/node_modules, where .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/bench/out/sparql
mkdir -p "$out"
shared=${JRPCLD_SHARED:-$root/../shared}
corpus=$shared/corpus/mcp-sessions
N=${BENCH_N:-20000}
TIMEOUT=${BENCH_TIMEOUT:-300}
COUNT=${BENCH_COUNT:-3}
export NODE_PATH=${NODE_PATH:-${XDG_CACHE_HOME:-$HOME/.cache}/jrpcld/npm/node_modules}
queries=${BENCH_QUERIES:-$(ls examples/queries/*.rq)}

if [ ! -d "$corpus" ]; then
	echo "bench: no corpus at $corpus: nothing to measure" >&2
	exit 0
fi
if ! command -v node >/dev/null || [ ! -d "$NODE_PATH/oxigraph" ]; then
	echo "bench: node or the npm package oxigraph missing (.ci/run installs it into $NODE_PATH)" >&2
	exit 1
fi
# Jena's class path, as jsonrpc/stats' Jena test and the README build it.
J=/usr/share/java
jenafix=$out/jena-fix
if [ ! -d "$jenafix/xerces" ]; then
	mkdir -p "$jenafix/xerces"
	(cd "$jenafix" && unzip -qo "$J/jena-core.jar" 'org/apache/jena/ext/xerces/*' && cp -r org/apache/jena/ext/xerces/. xerces/)
fi
JENA="$jenafix:$(ls $J/jena-*.jar $J/{commons-cli,commons-codec,commons-compress,commons-csv,commons-io,commons-lang3,dexx.collection,gson,guava,httpclient,httpcore,jackson-core,jackson-databind,jackson-annotations,jsonld-java,jakarta.json-api,protobuf,thrift,titanium-json-ld,slf4j-api,slf4j-nop}.jar | paste -sd:)"
rm -f "$out"/time-*.txt "$out"/rows-*.json "$out"/stopped-* "$out/stderr.txt"

go build -o "$out/jrpcld" ./cmd/jrpcld
"$out/jrpcld" gen -q -n "$N" -o "$out/log.jsonl" "$corpus"/*-stdio.jsonl examples/session.jsonl
"$out/jrpcld" rdf -q --format ntriples --base http://example.com/bench -o "$out/log.nt" "$out/log.jsonl"
triples=$(wc -l < "$out/log.nt")

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "go: $(go version)"
	echo "node: $(node --version); oxigraph $(node -p "require('$NODE_PATH/oxigraph/package.json').version")"
	echo "java: $(java -version 2>&1 | head -1); jena $(ls $J/jena-core-*.jar 2>/dev/null | head -1 | sed 's/.*jena-core-//; s/.jar//')"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
	echo "log: $N messages, $(du -m "$out/log.jsonl" | cut -f1) MB; N-Triples: $triples triples, $(du -m "$out/log.nt" | cut -f1) MB"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/env.txt"
cat "$out/env.txt" >&2

# run ENGINE QUERY ROUND CMD...: times CMD, keeping its JSON results; a
# run stopped past the timeout leaves a file stopped-ENGINE-QUERY, and the
# later rounds of that engine on that query are not run.
run() {
	local engine=$1 q=$2 round=$3
	shift 3
	[ -e "$out/stopped-$engine-$q" ] && return 0
	if ! /usr/bin/time -f "%e %U %S %M" -o "$out/time-$engine-$q-$round.txt" timeout -k 10 "$TIMEOUT" "$@" \
		> "$out/rows-$engine-$q-$round.json" 2>> "$out/stderr.txt"; then
		echo "$engine stopped on $q after $TIMEOUT s (or failed: see $out/stderr.txt)" >&2
		touch "$out/stopped-$engine-$q"
	fi
}
for query in $queries; do
	q=$(basename "$query" .rq)
	for round in $(seq 0 "$COUNT"); do # round 0 is the warm-up
		echo "== $q, turn $round of $COUNT" >&2
		run jrpcld "$q" "$round" "$out/jrpcld" query --query "$query" --format json "$out/log.nt"
		run oxigraph "$q" "$round" node --max-old-space-size=12000 bench/sparql-oxigraph.js "$out/log.nt" "$query"
		run jena "$q" "$round" java -Xmx12g -cp "$JENA" arq.arq --data "$out/log.nt" --query "$query" --results json
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/env.txt"

python3 bench/sparql-report.py "$out" "$COUNT" "$TIMEOUT" $queries
