#!/bin/sh
# bench/build.sh: jrpcld build on one core, on the registers the OGC tool
# chain's timings are known for (issue 21: 5.4 s for the OGC tutorial
# register, 148 s for the 114-block CWL register, its own code run whole
# and offline), as the differential test builds them (the tool chain's
# layout, SHACL and transforms as jrpcld runs them). Prints, per register,
# the medians (min-max) of the wall time and of the CPU time (user + system)
# of the runs, and the ratio to the tool chain's time. On a busy machine the
# wall time counts the waits for the core; the CPU time does not.
#
#   JRPCLD_SHARED=/work/shared bench/build.sh [RUNS]   (default 5 runs, after one warm-up)
set -eu
runs=${1:-5}
shared=${JRPCLD_SHARED:-$(dirname "$0")/../../shared}
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/jrpcld
go build -o "$bin" ./cmd/jrpcld
out=$(mktemp -d)
trap 'rm -rf "$out" "$(dirname "$bin")"' EXIT
one() { # NAME SOURCES BASEURL
	taskset -c 0 /usr/bin/time -f '%e %U %S' -o "$out/time" "$bin" build "$2" -o "$out/$1" \
		--base-url "$3" --build-path build --relative-base file:///github/workspace/ \
		--date 2000-01-01 >/dev/null 2>&1 || true
	tail -n 1 "$out/time"
}
for reg in "tutorial|$shared/reference/ogc-published/bblocks-tutorial/src|https://ogc-oracle.invalid/register/|5.4" \
	"cwl|$shared/reference/ogc-registers-2/ogcincubator+bblocks-cwl/src|https://ogcincubator.github.io/bblocks-cwl/|148"; do
	name=${reg%%|*}; rest=${reg#*|}; src=${rest%%|*}; rest=${rest#*|}; base=${rest%%|*}; toolchain=${rest#*|}
	one "$name" "$src" "$base" >/dev/null # warm-up
	: >"$out/$name.times"
	i=0
	while [ "$i" -lt "$runs" ]; do
		one "$name" "$src" "$base" >>"$out/$name.times"
		i=$((i + 1))
	done
	sort -n "$out/$name.times" | awk -v n="$name" -v tc="$toolchain" '
		{ wall[NR] = $1; user[NR] = $2 + $3 }
		END {
			m = int((NR + 1) / 2)
			# user times sorted separately for their median
			for (i = 1; i <= NR; i++) u[i] = user[i]
			for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (u[j] < u[i]) { t = u[i]; u[i] = u[j]; u[j] = t }
			printf "%-9s CPU median %.2f s (%.2f-%.2f), wall median %.2f s (%.2f-%.2f), %d runs on one core; the tool chain %s s: %.0fx by CPU time, %.0fx by wall time\n",
				n, u[m], u[1], u[NR], wall[m], wall[1], wall[NR], NR, tc, tc / u[m], tc / wall[m]
		}'
done
