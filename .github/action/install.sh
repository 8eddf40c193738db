#!/usr/bin/env bash
# Installs the jrpcld binary of a release of jrpcld for the runner's system,
# after checking it against the release's checksums.txt, and puts its
# folder on the job's PATH. Run by action.yml; its inputs come as
# environment variables:
#   JRPCLD_VERSION  the release tag (v1.2.3), or "latest"; empty: the tag
#                   the action was used at (uses: jrpcld/jrpcld@v1.2.3), else
#                   the latest release
# and what the runner sets: RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH,
# GITHUB_SERVER_URL, GITHUB_ACTION_REPOSITORY, GITHUB_ACTION_REF.
set -euo pipefail

fail() {
  echo "::error title=jrpcld install::$*" >&2
  exit 1
}

case "${RUNNER_OS:-$(uname -s)}" in
  Linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) fail "no jrpcld release for the system ${RUNNER_OS:-$(uname -s)} (releases are built for Linux, macOS and Windows)" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | aarch64 | arm64) arch=arm64 ;;
  *) fail "no jrpcld release for the processor ${RUNNER_ARCH:-$(uname -m)} (releases are built for amd64 and arm64)" ;;
esac

version="${JRPCLD_VERSION:-}"
if [ -z "$version" ]; then
  case "${GITHUB_ACTION_REF:-}" in
    v[0-9]*) version="$GITHUB_ACTION_REF" ;;
    *) version=latest ;;
  esac
fi
repo="${GITHUB_ACTION_REPOSITORY:-jrpcld/jrpcld}"
[ -n "$repo" ] || repo=jrpcld/jrpcld
server="${GITHUB_SERVER_URL:-https://github.com}"
if [ "$version" = latest ]; then
  base="$server/$repo/releases/latest/download"
else
  base="$server/$repo/releases/download/$version"
fi

asset="jrpcld_${os}_${arch}.tar.gz"
dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/jrpcld-$version-$os-$arch"
rm -rf "$dir"
mkdir -p "$dir/bin"
echo "jrpcld: downloading $asset of release $version from $server/$repo"
curl -fsSL --retry 3 -o "$dir/$asset" "$base/$asset" ||
  fail "could not download $base/$asset: is $version a release of $repo with a build for $os/$arch?"
curl -fsSL --retry 3 -o "$dir/checksums.txt" "$base/checksums.txt" ||
  fail "could not download $base/checksums.txt"

want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$dir/checksums.txt")
[ -n "$want" ] || fail "checksums.txt of release $version names no $asset"
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$dir/$asset" | awk '{ print $1 }')
else
  got=$(shasum -a 256 "$dir/$asset" | awk '{ print $1 }')
fi
[ "$got" = "$want" ] || fail "$asset has SHA-256 $got, but checksums.txt of release $version says $want: not installed"

tar -xzf "$dir/$asset" -C "$dir/bin"
exe="$dir/bin/jrpcld"
[ "$os" = windows ] && exe="$exe.exe"
[ -f "$exe" ] || fail "$asset holds no $(basename "$exe")"
chmod +x "$exe"
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dir/bin" >> "$GITHUB_PATH"
fi
"$exe" --version
