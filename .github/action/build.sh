#!/usr/bin/env bash
# Runs "jrpcld build" on the register in the current folder (the checked-out
# repository: bblocks-config.yaml and _sources/) as the OGC building-block
# GitHub Action (opengeospatial/bblocks-postprocess) builds it, into the same
# tree. Run by action.yml; the Action's inputs come as environment variables
# INPUT_<NAME> (empty for the default), the runner's as GITHUB_*:
#   register_file        build/register.json: its folder is the output folder
#   annotated_path, generated_docs_path, test_outputs_path
#                        ANNOTATED, generateddocs and tests below that folder,
#                        where jrpcld writes them; another value is refused
#   items_dir, config_file
#                        _sources and bblocks-config.yaml, where jrpcld reads
#                        them; another value is refused
#   base_url             the URL the repository is published at
#   github_base_url      the URL its files are browsed at (.../blob/BRANCH/)
#   fail_on_error        "true": a block that fails validation fails the step
#   clean                "true": the output folder is removed first
#   fetch                registers to fetch first, one URL a line: each is
#                        "jrpcld fetch URL", then "--import URL"
#   args                 more flags for jrpcld build, one a line
# JRPCLD names the program (default: jrpcld on the PATH).
set -euo pipefail

fail() {
  echo "::error title=jrpcld build::$*" >&2
  exit 2
}

# norm drops a leading "./" and trailing slashes.
norm() {
  local p="${1#./}"
  while [ "${p%/}" != "$p" ]; do p="${p%/}"; done
  printf '%s' "$p"
}

register_file=$(norm "${INPUT_REGISTER_FILE:-build/register.json}")
[ "$(basename "$register_file")" = register.json ] ||
  fail "register_file $register_file: jrpcld writes register.json into its output folder; name a file register.json in the folder to build into"
out=$(dirname "$register_file")
case "$out" in
  . | /* | .. | ../*) fail "register_file $register_file: the output folder must be a folder inside the repository (build/register.json, the default)" ;;
esac

# same NAME VALUE WANT refuses an input that names another place than the
# one jrpcld reads or writes.
same() {
  local value
  value=$(norm "$2")
  [ -z "$value" ] || [ "$value" = "$3" ] ||
    fail "$1 $2: jrpcld uses $3 (with register_file $register_file); leave $1 at its default"
}
same annotated_path "${INPUT_ANNOTATED_PATH:-}" "$out/annotated"
same generated_docs_path "${INPUT_GENERATED_DOCS_PATH:-}" "$out/generateddocs"
same test_outputs_path "${INPUT_TEST_OUTPUTS_PATH:-}" "$out/tests"
same items_dir "${INPUT_ITEMS_DIR:-}" _sources
same config_file "${INPUT_CONFIG_FILE:-}" bblocks-config.yaml

server="${GITHUB_SERVER_URL:-https://github.com}"
repository="${GITHUB_REPOSITORY:-}"
base_url="${INPUT_BASE_URL:-}"
if [ -z "$base_url" ] && [ -n "$repository" ]; then
  base_url="https://raw.githubusercontent.com/$repository/${GITHUB_REF_NAME:-main}/"
fi
github_base_url="${INPUT_GITHUB_BASE_URL:-}"
if [ -z "$github_base_url" ] && [ -n "$repository" ]; then
  github_base_url="$server/$repository/blob/${GITHUB_REF_NAME:-main}/"
fi

# The repository is the output: the build goes into $out, the pages
# (index.html, bblock/) beside _sources/, as the OGC Action publishes it.
args=(build . -o . --build-path "$out")
[ -z "$base_url" ] || args+=(--base-url "$base_url")
[ -z "$repository" ] || args+=(--git-repository "$server/$repository")
[ -z "$github_base_url" ] || args+=(--github-base-url "$github_base_url")
# The tool chain takes a block's last change from git; so does jrpcld,
# from the date of the last commit (none outside a git work tree).
if commit_date=$(git log -1 --format=%cs -- . 2>/dev/null) && [ -n "$commit_date" ]; then
  args+=(--commit-date "$commit_date")
fi
fetch=()
while IFS= read -r line; do
  line="${line#"${line%%[![:space:]]*}"}"
  line="${line%"${line##*[![:space:]]}"}"
  [ -z "$line" ] || fetch+=("$line")
done <<< "${INPUT_FETCH:-}"
for u in ${fetch[@]+"${fetch[@]}"}; do
  args+=(--import "$u")
done
while IFS= read -r line; do
  [ -z "$line" ] || args+=("$line")
done <<< "${INPUT_ARGS:-}"

case "${INPUT_CLEAN:-true}" in
  true) rm -rf -- "$out" ;;
  false) ;;
  *) fail "clean ${INPUT_CLEAN}: want true or false" ;;
esac
case "${INPUT_FAIL_ON_ERROR:-false}" in
  true | false) ;;
  *) fail "fail_on_error ${INPUT_FAIL_ON_ERROR}: want true or false" ;;
esac

if [ ${#fetch[@]} -gt 0 ]; then
  echo "jrpcld fetch ${fetch[*]}"
  "${JRPCLD:-jrpcld}" fetch "${fetch[@]}"
fi
echo "jrpcld ${args[*]}"
status=0
"${JRPCLD:-jrpcld}" "${args[@]}" || status=$?
case "$status" in
  0) ;;
  1)
    if [ "${INPUT_FAIL_ON_ERROR:-false}" = true ]; then
      echo "::error title=jrpcld build::some building blocks failed validation (fail_on_error is true)" >&2
      exit 1
    fi
    echo "::warning title=jrpcld build::some building blocks failed validation; the register is built (fail_on_error is false)" >&2
    ;;
  *) exit "$status" ;;
esac
