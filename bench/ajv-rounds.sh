#!/usr/bin/env bash
# bench/ajv-rounds.sh: validate --schema beside ajv, round after round.
#
# After bench/run.sh (it needs bench/out/jrpcld, bench/out/log.jsonl and
# bench/out/log-ajv.jsonl, and ajv under bench/node_modules): each round
# times `jrpcld validate --schema` on the 1M-message log, then ajv with
# JSON.parse in its loop on the first 100,000 messages (dispatched by
# method for the MCP schema), for the MCP 2025-11-25 schema and for the
# JSON-RPC block's schema. A second look at the ratios run.sh prints, with
# more rounds and nothing else in between. Prints one line a round, then
# medians with min-max and the ratio of the medians.
#
# Environment: ROUNDS (default 5), AJV_SECONDS (default 5), JRPCLD_SHARED.
set -euo pipefail
cd "$(dirname "$0")"
shared=${JRPCLD_SHARED:-../../shared}
mcp=$shared/reference/mcp-schema/2025-11-25/schema.json
rpc=../bblock/jsonrpc/schema.yaml
rounds=${ROUNDS:-5}
secs=${AJV_SECONDS:-5}
n=$(wc -l < out/log.jsonl)
for f in out/jrpcld out/log.jsonl out/log-ajv.jsonl "$mcp"; do
	[ -e "$f" ] || { echo "ajv-rounds: no $f (run bench/run.sh first)" >&2; exit 2; }
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
jr() { # SCHEMA: msgs/s of jrpcld validate on the large log
	/usr/bin/time -o out/rounds-time.txt -f '%e' out/jrpcld validate --schema "$1" out/log.jsonl > /dev/null 2>&1 || true
	awk -v n="$n" 'END { printf "%.0f", n / $1 }' out/rounds-time.txt
}
ajv() { # SCHEMA FLAGS...: msgs/s of ajv with JSON.parse in its loop
	local s=$1
	shift
	node ajv-bench.js "$s" "$secs" "$@" --parse out/log-ajv.jsonl 2> /dev/null | sed -n 's/.*"msgsPerSec":\([0-9]*\).*/\1/p'
}
: > out/rounds.txt
for i in $(seq "$rounds"); do
	line="$(jr "$mcp") $(ajv "$mcp" --dispatch) $(jr "$rpc") $(ajv "$rpc")"
	echo "$line" >> out/rounds.txt
	echo "round $i: jrpcld MCP, ajv MCP, jrpcld JSON-RPC, ajv JSON-RPC (msgs/s): $line"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - out/rounds.txt <<'PY'
import statistics, sys
cols = list(zip(*[list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]))
for name, a, b in (("MCP 2025-11-25", cols[0], cols[1]), ("JSON-RPC block", cols[2], cols[3])):
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name}: jrpcld {ma:,.0f} ({min(a):,.0f}-{max(a):,.0f}), ajv+JSON.parse {mb:,.0f} ({min(b):,.0f}-{max(b):,.0f}), "
          f"ratio {ma/mb:.2f}x ({min(a)/max(b):.2f}-{max(a)/min(b):.2f})")
PY
