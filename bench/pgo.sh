#!/usr/bin/env bash
# bench/pgo.sh: writes cmd/jrpcld/default.pgo, the CPU profile the Go
# toolchain uses to optimise jrpcld (profile-guided optimisation: `go build`
# and `go run` of ./cmd/jrpcld pick it up by themselves).
#
# Builds jrpcld without a profile, generates a log from the recorded MCP
# sessions in ../shared/corpus (skips with a message when they are absent),
# and profiles the main jobs with --cpuprofile, each once: on the log,
# turtle with the embedded block and with the MCP block (../shared/
# reference/ogc-mcp-bblocks) and validate with and without the MCP
# 2025-11-25 schema; on its first tenth, stats and json (of its
# N-Triples), the slowest jobs per message, which on the whole log would
# outweigh the others. The profiles are merged into one, so each job
# weighs what its run took. Run it again when the hot code changes much;
# a profile that no longer fits only optimises less.
#
# Environment: PGO_N messages in the log (default 1000000), JRPCLD_SHARED
# the shared folder (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
shared=${JRPCLD_SHARED:-$root/../shared}
corpus=$shared/corpus/mcp-sessions
mcp=$shared/reference/ogc-mcp-bblocks
schema=$shared/reference/mcp-schema/2025-11-25/schema.json
N=${PGO_N:-1000000}
if [ ! -d "$corpus" ]; then
	echo "pgo: no corpus at $corpus: nothing to profile" >&2
	exit 0
fi
for f in "$mcp" "$schema"; do
	[ -e "$f" ] || { echo "pgo: no $f" >&2; exit 2; }
done
. bench/devnull.sh # /dev/null must be the device
out=$root/bench/out/pgo
rm -rf "$out"
mkdir -p "$out"

go build -pgo=off -o "$out/jrpcld" ./cmd/jrpcld
j=$out/jrpcld
"$j" gen -n "$N" -o "$out/log.jsonl" "$corpus"/*.dir.jsonl
head -n "$((N / 10))" "$out/log.jsonl" > "$out/log-tenth.jsonl"
"$j" rdf -q --format ntriples -o "$out/log-tenth.nt" "$out/log-tenth.jsonl"

# profile NAME ARGS...: one run of jrpcld ARGS with its CPU profile in
# NAME.prof. validate exits 1 on the log's invalid messages: only a profile
# not written is a failure.
profile() {
	local name=$1
	shift
	"$j" "$@" --cpuprofile "$out/$name.prof" > /dev/null 2>&1 || true
	[ -s "$out/$name.prof" ] || { echo "pgo: jrpcld $* wrote no profile" >&2; exit 1; }
}
profile turtle turtle -q -o /dev/null "$out/log.jsonl"
profile turtle-mcp turtle -q --bblock "$mcp" --id mcp.mcp -o /dev/null "$out/log.jsonl"
profile validate validate "$out/log.jsonl"
profile validate-mcp validate --schema "$schema" "$out/log.jsonl"
profile stats stats "$out/log-tenth.jsonl"
profile json json -o /dev/null "$out/log-tenth.nt"
go tool pprof -proto "$out"/*.prof > cmd/jrpcld/default.pgo
echo "pgo: wrote cmd/jrpcld/default.pgo ($(wc -c < cmd/jrpcld/default.pgo) bytes) from $(ls "$out"/*.prof | wc -l) profiles" >&2
