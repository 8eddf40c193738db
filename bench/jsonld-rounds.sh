#!/usr/bin/env bash
# bench/jsonld-rounds.sh: the conversions beside jsonld.js, round after round.
#
# After bench/run.sh (it needs bench/out/jrpcld, log.jsonl, log100k.nt,
# context.json, mcp-context.json and corpus.nt, and jsonld under
# bench/node_modules): each round times, one right after the other,
#   - `jrpcld turtle` on the 1M-message log, jsonld.js toRDF with the
#     context cached on the recorded sessions the log cycles, and
#     `jrpcld turtle` again;
#   - the same with the MCP block's context (`--bblock ... --id mcp.mcp`);
#   - `jrpcld json` on the N-Triples of the first 100,000 messages,
#     jsonld.js fromRDF + compact, cached, on the sessions' N-Triples, and
#     `jrpcld json` again.
# The machine's speed drifts over minutes (jsonld.js has run at 23,000 and
# at 37,000 messages/s in one run, jrpcld at 1.7 s and 2.1 s), so each
# round's ratio is jsonld.js's speed against the mean of the two jrpcld
# runs around it, seconds apart. Prints one line a round, then medians with
# min-max, the ratio of the medians and the median of the rounds' ratios.
#
# Environment: ROUNDS (default 5), JS_SECONDS (default 10), JRPCLD_SHARED.
set -euo pipefail
cd "$(dirname "$0")"
. ./devnull.sh # /dev/null must be the device
shared=${JRPCLD_SHARED:-../../shared}
corpus=$shared/corpus/mcp-sessions
mcp=$shared/reference/ogc-mcp-bblocks
rounds=${ROUNDS:-5}
secs=${JS_SECONDS:-10}
for f in out/jrpcld out/log.jsonl out/log100k.nt out/context.json out/mcp-context.json out/corpus.nt node_modules/jsonld "$mcp"; do
	[ -e "$f" ] || { echo "jsonld-rounds: no $f (run bench/run.sh first)" >&2; exit 2; }
done
n=$(wc -l < out/log.jsonl)
logs=("$corpus/everything-stdio.jsonl" "$corpus/filesystem-stdio.jsonl" "$corpus/memory-stdio.jsonl")
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
jr() { # MESSAGES ARGS...: msgs/s of one jrpcld command
	local m=$1
	shift
	/usr/bin/time -o out/rounds-time.txt -f '%e' out/jrpcld "$@" > /dev/null 2>&1
	awk -v n="$m" 'END { printf "%.0f", n / $1 }' out/rounds-time.txt
}
js() { # ARGS...: msgs/s of jsonld.js, the context cached
	node jsonld-bench.js --cached "$@" 2> /dev/null | sed -n 's/.*"cached":{[^}]*"msgsPerSec":\([0-9.]*\).*/\1/p'
}
: > out/jsonld-rounds.txt
for i in $(seq "$rounds"); do
	t=(turtle -q -o /dev/null out/log.jsonl)
	m=(turtle -q --bblock "$mcp" --id mcp.mcp -o /dev/null out/log.jsonl)
	j=(json -o /dev/null out/log100k.nt)
	line="$(jr "$n" "${t[@]}") $(js out/context.json "$secs" "${logs[@]}") $(jr "$n" "${t[@]}")"
	line="$line $(jr "$n" "${m[@]}") $(js out/mcp-context.json "$secs" "${logs[@]}") $(jr "$n" "${m[@]}")"
	line="$line $(jr 100000 "${j[@]}") $(js --from-rdf out/context.json "$secs" out/corpus.nt) $(jr 100000 "${j[@]}")"
	echo "$line" >> out/jsonld-rounds.txt
	echo "round $i: turtle, jsonld.js, turtle; the same with the MCP block; json, jsonld.js back, json (msgs/s): $line"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - out/jsonld-rounds.txt <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
cols = list(zip(*rows))
for k, name in enumerate(("turtle, embedded block", "turtle, MCP block", "json (RDF -> wire)")):
    a = [(x + y) / 2 for x, y in zip(cols[3 * k], cols[3 * k + 2])]
    b = cols[3 * k + 1]
    ma, mb = statistics.median(a), statistics.median(b)
    per = [x / y for x, y in zip(a, b)]
    print(f"{name}: jrpcld {ma:,.0f} ({min(a):,.0f}-{max(a):,.0f}), jsonld.js {mb:,.0f} ({min(b):,.0f}-{max(b):,.0f}), "
          f"ratio of medians {ma/mb:.2f}x; per round {statistics.median(per):.2f}x ({min(per):.2f}-{max(per):.2f})")
PY
