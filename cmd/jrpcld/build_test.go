package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/internal/testkit/bomb"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// fixtureImport is the import of register/testdata/fixture.
const fixtureImport = "https://example.org/elsewhere/register.json"

// fixtureImportRegister is a register.json for it, as "jrpcld fetch" would
// keep it: it lists the block fx.remote refers to, without its files.
const fixtureImportRegister = `{"name": "Elsewhere", "baseURL": "https://example.org/elsewhere/", "bblocks": [{"itemIdentifier": "ogc.geo.features.feature", "name": "Feature"}]}`

// cacheRegister points jrpcld's cache at a new folder (XDG_CACHE_HOME) and
// puts there, as "jrpcld fetch u" would, a copy of the register at u made
// of files (by path below the copy); none when files is nil.
func cacheRegister(t *testing.T, u string, files map[string]string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if files == nil {
		return
	}
	st, err := regcache.Stage(u)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(st.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, p, data)
	}
	if _, err := st.Commit(u); err != nil {
		t.Fatal(err)
	}
}

func TestBuildCommand(t *testing.T) {
	fixture := filepath.Join("..", "..", "register", "testdata", "fixture")
	tmp := t.TempDir()
	cacheRegister(t, fixtureImport, map[string]string{"register.json": fixtureImportRegister})
	for _, d := range []string{"noconfig/_sources", "dangling/_sources"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("gone.yaml", filepath.Join(tmp, "dangling", "bblocks-config.yaml")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"help", []string{"build", "-h"}, cli.ExitOK, "Without SOURCES it builds the embedded JSON-RPC 2.0 block", ""},
		{"two sources", []string{"build", "a", "b"}, cli.ExitUsage, "", "one SOURCES folder at most"},
		{"no such tree", []string{"build", filepath.Join(tmp, "nope"), "-o", filepath.Join(tmp, "x")}, cli.ExitUsage, "", "not a building-block source tree"},
		{"no configuration", []string{"build", filepath.Join(tmp, "noconfig"), "-o", filepath.Join(tmp, "x")}, cli.ExitUsage, "",
			filepath.Join(tmp, "noconfig", "bblocks-config.yaml") + " does not exist; give the folder that holds bblocks-config.yaml and _sources/"},
		{"dangling configuration", []string{"build", filepath.Join(tmp, "dangling"), "-o", filepath.Join(tmp, "x")}, cli.ExitUsage, "",
			filepath.Join(tmp, "dangling", "bblocks-config.yaml") + " is a symbolic link to gone.yaml, which does not exist: make the link lead"},
		{"bad date", []string{"build", fixture, "-o", filepath.Join(tmp, "d"), "--date", "tomorrow"}, cli.ExitUsage, "", `date "tomorrow" is not YYYY-MM-DD`},
		{"unknown filter", []string{"build", fixture, "-o", filepath.Join(tmp, "f"), "--filter", "fx.nope"}, cli.ExitUsage, "", `unknown building block "fx.nope"`},
		{"embedded block", []string{"build", "-o", filepath.Join(tmp, "default")}, cli.ExitOK,
			"  passed jrpcld.json-rpc: examples 37/37, tests 10/10\n", ""},
		{"fixture fails", []string{"build", fixture, "-o", filepath.Join(tmp, "fixture")}, cli.ExitInvalid,
			"Fixture register: 3 blocks built into " + filepath.Join(tmp, "fixture") + "\n" +
				"  FAILED fx.point: examples 1/2, tests 2/4\n" +
				"  passed fx.labelled-point: examples 2/2, tests 2/2\n" +
				"  FAILED fx.remote: examples 0/0, tests 0/0\n",
			"fx.point: error: test tests/wrongly-valid-fail.json: Test was expected to fail but it did not."},
		{"filter passes", []string{"build", fixture, "-o", filepath.Join(tmp, "filtered"), "--filter", "fx.labelled-point"}, cli.ExitOK,
			"  passed fx.labelled-point: examples 2/2, tests 2/2\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jrpcld(t, "", tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant %d, %q, %q", code, out, errOut, tt.code, tt.out, tt.err)
			}
			if strings.Contains(errOut, "panic") {
				t.Errorf("panic: %s", errOut)
			}
		})
	}
	// -q: the verdicts and the register's errors, here its import with no
	// copy in an empty cache.
	t.Run("quiet", func(t *testing.T) {
		t.Setenv("XDG_CACHE_HOME", t.TempDir())
		code, out, errOut := jrpcld(t, "", "build", fixture, "-o", filepath.Join(tmp, "quiet"), "-q")
		if code != cli.ExitInvalid || !strings.Contains(out, "  FAILED fx.point: examples 1/2, tests 2/4\n") ||
			!strings.Contains(errOut, `jrpcld build: error: bblocks-config.yaml: import "https://example.org/elsewhere/register.json" has no local copy`) {
			t.Errorf("-q: exit %d\nstdout %q\nstderr %q", code, out, errOut)
		}
	})
	// --quiet=all: the errors and the verdicts, no warning.
	code, out, errOut := jrpcld(t, "", "build", fixture, "-o", filepath.Join(tmp, "silent"), "--quiet=all")
	if code != cli.ExitInvalid || strings.Contains(errOut, "warning") || !strings.Contains(errOut, "fx.point: error: ") || !strings.Contains(out, "FAILED fx.point") {
		t.Errorf("--quiet=all: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	// The import is read from the cache, and copied where the viewer
	// reads it.
	sum := sha256.Sum256([]byte(fixtureImport))
	if got, err := os.ReadFile(filepath.Join(tmp, "fixture", "annotated", "_cache", hex.EncodeToString(sum[:]))); err != nil || string(got) != fixtureImportRegister {
		t.Errorf("annotated/_cache: %q, %v; want the cached register.json", got, err)
	}
	for _, f := range []string{"index.html", "register.json", "bblock/jrpcld.json-rpc.html", "tests/json-rpc/_report.json"} {
		if _, err := os.Stat(filepath.Join(tmp, "default", f)); err != nil {
			t.Errorf("embedded block build: %v", err)
		}
	}
}

// TestBuildOGCCommand is the "done when": the published register
// builds with every example passing.
func TestBuildOGCCommand(t *testing.T) {
	src := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	// The main OGC register, which it imports, as the published build
	// cached it.
	sum := sha256.Sum256([]byte(bblock.DefaultImport))
	main, err := os.ReadFile(shared.Dir(t, "reference", "ogc-published", "full-builds", "ogc-mcp-2025-09", "build", "annotated", "_cache", hex.EncodeToString(sum[:])))
	if err != nil {
		t.Fatal(err)
	}
	want := "  passed mcp.json-rpc: examples 3/3, tests 0/0\n  passed mcp.mcp: examples 20/20, tests 0/0\n"
	for _, tt := range []struct {
		name   string
		cached map[string]string
		code   int
		err    string
	}{
		{"import fetched", map[string]string{"register.json": string(main)}, cli.ExitOK, ""},
		{"import not fetched", nil, cli.ExitInvalid, `jrpcld build: error: bblocks-config.yaml: import "default" has no local copy: register.json lists it, and the viewer reads it from annotated/_cache, which this build cannot write; its register is fetched into jrpcld's cache with "jrpcld fetch ` + bblock.DefaultImport + `" or mapped to a local copy with --import default=DIR, then build again (at /imports/0)` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cacheRegister(t, bblock.DefaultImport, tt.cached)
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := jrpcld(t, "", "build", src, "-o", out)
			if code != tt.code || !strings.HasSuffix(stdout, want) || !strings.Contains(stderr, tt.err) {
				t.Errorf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, stderr)
			}
			if strings.Contains(stderr, "is not resolved") {
				t.Errorf("the import is also warned about:\n%s", stderr)
			}
			_, err := os.Stat(filepath.Join(out, "annotated", "_cache", hex.EncodeToString(sum[:])))
			if (err == nil) != (tt.cached != nil) {
				t.Errorf("annotated/_cache holds the import: %v, want %v", err == nil, tt.cached != nil)
			}
		})
	}
}

// TestBuildNamesCannotForgeLines (issue 23, item 19): a line break or an
// escape sequence in the name of a _sources folder (so in a block id, a
// file name and the messages naming them) is shown escaped: every line build
// prints on standard error is one of its own, and nothing acts on the
// terminal.
func TestBuildNamesCannotForgeLines(t *testing.T) {
	src := t.TempDir()
	const meta = `{"name": "X", "status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`
	folder := "x\njrpcld build: all blocks passed\x1b[2J"
	if err := os.MkdirAll(filepath.Join(src, "_sources", folder), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(src, "bblocks-config.yaml"), "identifier-prefix: t.\nimports: []\n")
	write(t, filepath.Join(src, "_sources", folder, "bblock.json"), meta)
	write(t, filepath.Join(src, "_sources", folder, "schema.yaml"), "type: object\n")
	// An example that fails, so that errors naming the block are printed.
	write(t, filepath.Join(src, "_sources", folder, "examples.yaml"), "- title: bad\n  snippets:\n    - language: json\n      code: '[1'\n")
	code, out, errOut := jrpcld(t, "", "build", src, "-o", filepath.Join(t.TempDir(), "out"))
	if code != cli.ExitInvalid {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, cli.ExitInvalid, errOut)
	}
	for _, stream := range []struct{ name, text, prefix string }{{"stderr", errOut, "jrpcld build: "}, {"stdout", out, ""}} {
		for _, line := range strings.Split(strings.TrimSuffix(stream.text, "\n"), "\n") {
			if !strings.HasPrefix(line, stream.prefix) || strings.HasPrefix(line, "jrpcld build: all blocks passed") {
				t.Errorf("%s has a line that is not build's own: %q", stream.name, line)
			}
			for _, r := range line {
				if termsafe.Escape(string(r)) != string(r) {
					t.Errorf("%s holds a raw %U: %q", stream.name, r, line)
					break
				}
			}
		}
	}
	if !strings.Contains(errOut, `t.x\njrpcld build: all blocks passed\x1b[2J: error:`) {
		t.Errorf("stderr does not show the id escaped:\n%s", errOut)
	}
}

// TestBuildMap (issue 21, item 2): --map URL=FILE reads a schema bblock.json
// names by URL from the local file; without it the block fails with an
// error naming the URL and the flag; a --map that is not URL=FILE, or
// whose file does not exist, is a usage error.
func TestBuildMap(t *testing.T) {
	src := t.TempDir()
	const url = "https://schemas.example.org/thing.yaml"
	write(t, filepath.Join(src, "bblocks-config.yaml"), "identifier-prefix: t.\nimports: []\n")
	if err := os.MkdirAll(filepath.Join(src, "_sources", "thing"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(src, "_sources", "thing", "bblock.json"), `{"name": "X", "status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0", "schema": "`+url+`"}`)
	write(t, filepath.Join(src, "_sources", "thing", "examples.yaml"), "- title: one\n  snippets:\n    - language: json\n      code: '{\"a\": 1}'\n")
	local := filepath.Join(t.TempDir(), "thing.yaml")
	write(t, local, "type: object\nproperties:\n  a:\n    type: integer\n")

	code, out, errOut := jrpcld(t, "", "build", src, "-o", filepath.Join(t.TempDir(), "out"), "--map", url+"="+local)
	if code != cli.ExitOK || !strings.Contains(out, "passed t.thing: examples 1/1") {
		t.Errorf("with --map: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = jrpcld(t, "", "build", src, "-o", filepath.Join(t.TempDir(), "out"))
	if code != cli.ExitInvalid || !strings.Contains(errOut, "--map "+url+"=FILE") {
		t.Errorf("without --map: exit %d, want %d and an error naming --map:\n%s", code, cli.ExitInvalid, errOut)
	}
	for _, bad := range []string{url, "thing.yaml=" + local, url + "=" + local + ".missing"} {
		if code, _, errOut := jrpcld(t, "", "build", src, "-o", filepath.Join(t.TempDir(), "out"), "--map", bad); code != cli.ExitUsage {
			t.Errorf("--map %s: exit %d, want %d:\n%s", bad, code, cli.ExitUsage, errOut)
		}
	}
}

// TestBuildTransformMemory (issue 37, item 8): a transform and an uplift
// step that would take gigabytes are stopped at --transform-memory, each
// reported once as failed with the limit and the flag that raises it, and
// no Go stack trace; the build goes on: the transform beside them gives
// its output. A limit below 64 MiB is a usage error.
func TestBuildTransformMemory(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{
		"bblocks-config.yaml":             "name: Hostile\nidentifier-prefix: h.\nimports: []\n",
		"_sources/b/bblock.json":          `{"name": "B", "abstract": "B", "status": "under-development", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`,
		"_sources/b/schema.yaml":          "type: object\n",
		"_sources/b/context.jsonld":       `{"@context": {"name": "http://example.org/name"}}`,
		"_sources/b/examples.yaml":        "examples:\n  - title: One\n    snippets:\n      - language: json\n        code: '{\"name\": \"Erin\"}'\n",
		"_sources/b/transforms.yaml":      "transforms:\n  - id: bomb\n    type: jq\n    code: '" + bomb.JQ + "'\n  - id: upper\n    type: jq\n    code: 'with_entries(.key |= ascii_upcase)'\n",
		"_sources/b/semantic-uplift.yaml": "additionalSteps:\n  - type: jq\n    code: '" + bomb.JQ + "'\n",
	}
	for name, data := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := jrpcld(t, "", "build", src, "-o", out, "--transform-memory", "64")
	const stopped = "stopped: past the memory limit of 64 MiB (--transform-memory to raise it)"
	for _, want := range []string{
		`jrpcld build: h.b: warning: transforms.yaml: transform "bomb" (jq) failed on example 1 snippet 1: ` + stopped + "\n",
		"jrpcld build: h.b: error: example 1 snippet 1 (One): pre-uplift jq step from inline code: " + stopped + "\n",
	} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("stderr does not say once %q:\n%s", want, stderr)
		}
	}
	if code != cli.ExitInvalid || !strings.Contains(stdout, "FAILED h.b: examples 0/1") {
		t.Errorf("exit %d, stdout %q; want %d and the example failed by its step", code, stdout, cli.ExitInvalid)
	}
	if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "runtime.") {
		t.Errorf("a Go stack trace:\n%s", stderr)
	}
	if got, err := os.ReadFile(filepath.Join(out, "tests", "b", "transforms", "example_1_1.upper.json")); err != nil || string(got) != "{\n  \"NAME\": \"Erin\"\n}" {
		t.Errorf("upper's output: %q, %v", got, err)
	}

	code, _, stderr = jrpcld(t, "", "build", src, "-o", out, "--transform-memory", "10")
	if code != cli.ExitUsage || !strings.Contains(stderr, "--transform-memory 10: want MiB from 64") {
		t.Errorf("--transform-memory 10: exit %d, %s", code, stderr)
	}
}
