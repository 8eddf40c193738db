#!/usr/bin/env bash
# bench/shacl.sh: jrpcld shacl against shacl-engine (npm), the fastest
# JavaScript SHACL engine, on the graph of a generated log of about a
# million triples with the shapes of examples/shapes/jsonrpc.ttl; the
# BENCHMARKS.md section "SHACL".
#
# Builds jrpcld, generates a log with `jrpcld gen` from the recorded MCP
# sessions of ../shared/corpus and examples/session.jsonl (whose unanswered
# ping gives a result per cycle), turns it into N-Triples with `jrpcld rdf`,
# then, after a warm-up of each, runs in turns, BENCH_COUNT times:
#   jrpcld shacl on the N-Triples,
#   node bench/shacl-engine.mjs on the same N-Triples (N3.js, rdf-ext),
#   jrpcld shacl on the log itself (converted on the fly),
# each under /usr/bin/time (wall, user and system CPU, peak RSS). It checks
# that both engines give the same sh:conforms and number of results, and
# prints medians with min-max, and the ratios of each turn. pySHACL, the
# tool chain's engine, cannot be installed here (no PyPI): it is not run.
#
# Environment: BENCH_N messages (default 120000, about 1.1M triples),
# BENCH_COUNT turns (default 3), JRPCLD_SHARED the shared folder (default
# ../shared). shacl-engine comes from ~/.cache/jrpcld/shacl-npm, where
# .ci/run installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/bench/out/shacl
mkdir -p "$out"
shared=${JRPCLD_SHARED:-$root/../shared}
corpus=$shared/corpus/mcp-sessions
N=${BENCH_N:-120000}
COUNT=${BENCH_COUNT:-3}
modules=${XDG_CACHE_HOME:-$HOME/.cache}/jrpcld/shacl-npm/node_modules
shapes=$root/examples/shapes/jsonrpc.ttl

if [ ! -d "$corpus" ]; then
	echo "bench: no corpus at $corpus: nothing to measure" >&2
	exit 0
fi
if ! command -v node >/dev/null || [ ! -d "$modules/shacl-engine" ]; then
	echo "bench: node or shacl-engine missing (.ci/run installs it into $modules)" >&2
	exit 1
fi
rm -f "$out"/time-*.txt "$out"/result-*.txt

go build -o "$out/jrpcld" ./cmd/jrpcld
"$out/jrpcld" gen -q -n "$N" -o "$out/log.jsonl" "$corpus"/*.dir.jsonl examples/session.jsonl
"$out/jrpcld" rdf -q --format ntriples --base http://example.com/bench -o "$out/log.nt" "$out/log.jsonl"
triples=$(wc -l < "$out/log.nt")

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "go: $(go version)"
	echo "node: $(node --version); shacl-engine $(node -p "require('$modules/shacl-engine/package.json').version")"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
	echo "log: $N messages, $(du -m "$out/log.jsonl" | cut -f1) MB; N-Triples: $triples triples, $(du -m "$out/log.nt" | cut -f1) MB"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/env.txt"
cat "$out/env.txt" >&2

# run NAME ROUND CMD...: times CMD, keeping its output's last line.
run() {
	local name=$1 round=$2
	shift 2
	/usr/bin/time -f "%e %U %S %M" -o "$out/time-$name-$round.txt" "$@" > "$out/stdout.txt"
	tail -n 1 "$out/stdout.txt" > "$out/result-$name-$round.txt"
}
go_nt() { run jrpcld "$1" "$out/jrpcld" shacl --format json --shapes "$shapes" "$out/log.nt" || [ $? = 1 ]; }
go_log() { run jrpcld-log "$1" "$out/jrpcld" shacl --format json --shapes "$shapes" --base http://example.com/bench "$out/log.jsonl" || [ $? = 1 ]; }
js_nt() { NODE_PATH=$modules run shacl-engine "$1" node --max-old-space-size=12000 bench/shacl-engine.mjs "$shapes" "$out/log.nt"; }

echo "== warm-up" >&2
go_nt 0
js_nt 0
for i in $(seq 1 "$COUNT"); do
	echo "== turn $i of $COUNT" >&2
	go_nt "$i"
	js_nt "$i"
	go_log "$i"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/env.txt"

python3 - "$out" "$COUNT" <<'EOF'
import json, statistics, sys
out, count = sys.argv[1], int(sys.argv[2])
def times(name):
    rows = []
    for i in range(1, count + 1):
        wall, user, sys_, rss = open(f"{out}/time-{name}-{i}.txt").read().split()[-4:]
        rows.append((float(wall), float(user) + float(sys_), int(rss) / 1024))
    return rows
def result(name, i):
    line = open(f"{out}/result-{name}-{i}.txt").read()
    d = json.loads(line)
    d = d.get("summary", d)
    return d["conforms"], d["results"]
for i in range(0, count + 1):
    if result("jrpcld", i) != result("shacl-engine", i):
        sys.exit(f"bench: the reports differ: jrpcld {result('jrpcld', i)}, shacl-engine {result('shacl-engine', i)}")
conforms, results = result("jrpcld", 1)
print(open(f"{out}/env.txt").read().strip())
print(f"reports: sh:conforms {str(conforms).lower()}, {results} results (the same in both engines, every turn)")
print()
print("| engine | wall s | CPU s (user+sys) | peak RSS MiB |")
print("| --- | --- | --- | --- |")
def cell(xs):
    return f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"
for name, label in [("jrpcld", "jrpcld shacl, N-Triples"), ("shacl-engine", "shacl-engine 1.1.2 (node), N-Triples"), ("jrpcld-log", "jrpcld shacl, the log (converted on the fly)")]:
    rows = times(name)
    print(f"| {label} | {cell([r[0] for r in rows])} | {cell([r[1] for r in rows])} | {cell([r[2] for r in rows])} |")
go, js = times("jrpcld"), times("shacl-engine")
print()
print("ratios shacl-engine / jrpcld, turn by turn (wall; CPU; memory): " + "; ".join(
    f"{j[0]/g[0]:.1f}x, {j[1]/g[1]:.1f}x, {j[2]/g[2]:.1f}x" for g, j in zip(go, js)))
EOF
