#!/usr/bin/env bash
# bench/chain.sh: how `jrpcld build` grows with a register whose blocks
# refer to one another (issue 23, item 17).
#
# Generates, under bench/out/chain/, registers of N blocks where block I's
# schema $refs block I+1's and its bblock.json depends on it (a chain), the
# same closed into a cycle, and registers of N blocks where block I's
# bblock.json extends block I+1 (an extends chain, issue 37), and the same
# N blocks with no link at all (flat, the baseline); builds each BENCH_COUNT
# times (default 3) with the jrpcld built from this tree, and prints for each
# the median CPU time (user + system, with min-max), the median wall time,
# the median peak memory (maximum resident set) and the size of the output.
# Environment: CHAIN_SIZES (default "100 200 400"), CYCLE_SIZES (default
# "151 301"), EXTENDS_SIZES (default "250 1000"), FLAT_SIZES (default
# "1000"), BENCH_COUNT, JRPCLD_BIN (a jrpcld to measure instead of this
# tree's, e.g. an older build to compare with). A size list may be empty
# ("") to skip that kind.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/bench/out/chain
mkdir -p "$out"
bin=${JRPCLD_BIN:-$out/jrpcld}
[[ -n ${JRPCLD_BIN:-} ]] || go build -o "$bin" ./cmd/jrpcld
count=${BENCH_COUNT:-3}

# gen DIR N cycle|chain|extends|flat
gen() {
	local dir=$1 n=$2 kind=$3 i j dep ref d
	rm -rf "$dir"
	mkdir -p "$dir/_sources"
	printf 'name: chain\nidentifier-prefix: c.\nimports: []\n' >"$dir/bblocks-config.yaml"
	for ((i = 0; i < n; i++)); do
		j=$((i + 1))
		dep="" ref="  - type: object"
		if [[ $kind == extends ]] && ((j < n)); then
			dep="\"extends\": \"c.b$j\","
		elif [[ $kind == chain || $kind == cycle ]] && { ((j < n)) || [[ $kind == cycle ]]; }; then
			((j == n)) && j=0
			dep="\"dependsOn\": [\"c.b$j\"],"
			ref="  - \$ref: ../b$j/schema.yaml"
		fi
		d=$dir/_sources/b$i
		mkdir -p "$d"
		printf '{"name": "B%d", %s "status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}\n' "$i" "$dep" >"$d/bblock.json"
		printf 'type: object\nproperties:\n  p%d:\n    type: string\nallOf:\n%s\n' "$i" "$ref" >"$d/schema.yaml"
		printf '{"@context": {"p%d": "http://example.com/p%d"}}\n' "$i" "$i" >"$d/context.jsonld"
		printf -- '- title: one\n  snippets:\n    - language: json\n      code: |\n        {"p%d": "x"}\n' "$i" >"$d/examples.yaml"
	done
}

# run NAME: builds $out/NAME $count times; prints the medians.
run() {
	local name=$1 k times=() walls=() mems=()
	for ((k = 0; k < count; k++)); do
		rm -rf "$out/$name.out"
		/usr/bin/time -f '%U %S %e %M' -o "$out/$name.time" "$bin" build "$out/$name" -o "$out/$name.out" >/dev/null 2>&1 || true
		# the last line: a failed build (exit 1) adds one before it
		read -r u s e m < <(tail -n 1 "$out/$name.time")
		times+=("$(echo "$u + $s" | bc)")
		walls+=("$e")
		mems+=("$m")
	done
	printf '%-12s cpu %s s  wall %s s  peak %s KB  output %s\n' "$name" "$(stat3 "${times[@]}")" \
		"$(stat3 "${walls[@]}")" "$(stat3 "${mems[@]}")" "$(du -sh "$out/$name.out" | cut -f1)"
}

# stat3 V...: the median of the values and their range, "MED (MIN-MAX)".
stat3() {
	local sorted
	sorted=$(printf '%s\n' "$@" | sort -g)
	printf '%s (%s-%s)' "$(sed -n "$((($# + 1) / 2))p" <<<"$sorted")" "$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")"
}

for n in ${CHAIN_SIZES-100 200 400}; do
	gen "$out/chain$n" "$n" chain
	run "chain$n"
done
for n in ${CYCLE_SIZES-151 301}; do
	gen "$out/cycle$n" "$n" cycle
	run "cycle$n"
done
for n in ${EXTENDS_SIZES-250 1000}; do
	gen "$out/extends$n" "$n" extends
	run "extends$n"
done
for n in ${FLAT_SIZES-1000}; do
	gen "$out/flat$n" "$n" flat
	run "flat$n"
done
