#!/usr/bin/env bash
# package.sh OS ARCH DIR [BINARY]: builds jrpcld for OS/ARCH (GOOS, GOARCH)
# and writes DIR/jrpcld_OS_ARCH.tar.gz holding it (jrpcld, jrpcld.exe for
# windows): the asset of a release that action.yml's install step downloads.
# With BINARY, that file is packaged instead of a fresh build (the tests).
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: package.sh OS ARCH DIR [BINARY]" >&2; exit 2; }
os=$1 arch=$2 dir=$3 binary=${4:-}
exe=jrpcld
[ "$os" = windows ] && exe=jrpcld.exe

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
if [ -n "$binary" ]; then
  cp "$binary" "$stage/$exe"
else
  # The version comes from the git tag the module is built at (Go stamps
  # it), which "jrpcld --version" prints.
  CGO_ENABLED=0 GOOS="$os" GOARCH="$arch" go build -trimpath -ldflags=-s -o "$stage/$exe" ./cmd/jrpcld
fi
chmod +x "$stage/$exe"
mkdir -p "$dir"
tar -czf "$dir/jrpcld_${os}_${arch}.tar.gz" -C "$stage" "$exe"
echo "$dir/jrpcld_${os}_${arch}.tar.gz"
