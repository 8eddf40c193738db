package main

import (
	"crypto/sha256"
	"encoding/hex"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestREADMEImports: the list of imports in the README's architecture
// section is what the code imports, package by package, and names every
// package of the module outside internal/ folders.
func TestREADMEImports(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	i := strings.Index(section, "## Architecture")
	if i < 0 {
		t.Fatal("README has no Architecture section")
	}
	line := regexp.MustCompile(`(?m)^([a-z/]+):[ \t]*(.*)$`)
	listed := map[string][]string{}
	for _, m := range line.FindAllStringSubmatch(section[i:], -1) {
		listed[m[1]] = strings.Fields(m[2])
	}
	const module = "github.com/jrpcld/jrpcld/"
	found := map[string]bool{}
	err = filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".") && rel != "." || slices.Contains(strings.Split(rel, "/"), "internal") || strings.Contains(rel, "testdata") || strings.HasPrefix(rel, "bench") {
			if rel != "." {
				return filepath.SkipDir
			}
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
			return filepath.SkipDir // a module of its own, such as cmd/jrpcld-beam
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go package here
		}
		found[rel] = true
		imports := pkg.Imports
		if rel == "cmd/jrpcld" {
			// jrpcld's commands live in packages under its internal/
			// folder: what they import, jrpcld imports.
			imports = append(imports, commandImports(t, path)...)
		}
		var want []string
		for _, imp := range imports {
			if p, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(strings.Split(p, "/"), "internal") {
				want = append(want, p)
			}
		}
		slices.Sort(want)
		want = slices.Compact(want)
		got, ok := listed[rel]
		switch {
		case !ok:
			t.Errorf("README does not list package %s (imports %v)", rel, want)
		case !slices.Equal(got, want):
			t.Errorf("README lists %s as importing %v; it imports %v", rel, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range listed {
		if !found[p] {
			t.Errorf("README lists %s, which is not a package of the module", p)
		}
	}
}

// commandImports returns the imports of the packages under dir/internal.
func commandImports(t *testing.T, dir string) []string {
	var imports []string
	err := filepath.WalkDir(filepath.Join(dir, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if pkg, err := build.ImportDir(path, 0); err == nil {
			imports = append(imports, pkg.Imports...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return imports
}

// TestREADMECommands: the README's command table lists every command of
// the command tree (help too), each with the synopsis its help prints,
// and every flag the README names (outside other programs' command lines)
// is a flag of some command.
func TestREADMECommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	root := newRoot(&cli.Env{})
	root.InitDefaultHelpCmd()
	want := map[string]string{} // name -> synopsis, as the table writes it
	flags := map[string]bool{"help": true, "version": true, "name": true}
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() && c.Name() != "help" {
			continue
		}
		want[c.Name()] = "jrpcld " + strings.ReplaceAll(c.Use, "|", `\|`)
		c.Flags().VisitAll(func(f *pflag.Flag) { flags[f.Name] = true })
	}
	row := regexp.MustCompile("(?m)^\\| `(jrpcld ([a-z]+)[^`]*)` \\|")
	got := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(readme, -1) {
		if _, dup := got[m[2]]; dup {
			t.Errorf("README's table lists %s twice", m[2])
		}
		got[m[2]] = m[1]
	}
	for name, syn := range want {
		switch g, ok := got[name]; {
		case !ok:
			t.Errorf("README's command table leaves out %s (%s)", name, syn)
		case g != syn:
			t.Errorf("README's table gives\n\t%s\nthe command's help\n\t%s", g, syn)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("README's table lists %s, which is no command", name)
		}
	}
	fence := false
	flag := regexp.MustCompile(`(^|[\s\x60(\[])--([a-z][a-z-]*)`)
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence && !strings.Contains(line, "jrpcld") {
			continue // another program's command line
		}
		for _, m := range flag.FindAllStringSubmatch(line, -1) {
			if !flags[m[2]] {
				t.Errorf("README names --%s, which no command has: %s", m[2], line)
			}
		}
	}
	// The synopses elsewhere in the README say what the table says.
	if strings.Contains(readme, "`jrpcld stats LOG...`") || strings.Contains(readme, "`jrpcld serve DIR`") {
		t.Error("README gives a synopsis that disagrees with the command's help")
	}
}

// TestREADMERuns runs the README's commands as written, in-process, from
// the repository's root: each "$ jrpcld ..." line of a console block must
// print what follows it; each jrpcld command of a sh block (pipes
// included) must succeed. Files a command writes with -o go to a temporary
// folder; what needs a machine's own set-up is left out: installing
// (go install, apt-get), serving (serve runs until interrupted) and the
// Java lines, whose queries stats' SPARQL tests run through the same
// classes.
func TestREADMERuns(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		if os.Getenv("JRPCLD_SHARED") != "" {
			t.Fatalf("no %s, and JRPCLD_SHARED is set", shared)
		}
		t.Skipf("no %s: the README's commands use it", shared)
	}
	tmp := t.TempDir()
	readmeFetched(t, shared)
	t.Chdir("../..")
	lines := strings.Split(string(readme), "\n")
	var block string // the language of the fenced block we are in, or ""
	ran := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			if block == "" {
				block = strings.TrimPrefix(l, "```")
				if block == "" {
					block = "text"
				}
			} else {
				block = ""
			}
			continue
		}
		switch {
		case block == "console" && strings.HasPrefix(l, "$ jrpcld "):
			var want []string
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") && !strings.HasPrefix(lines[i+1], "```") {
				i++
				want = append(want, lines[i])
			}
			_, out, errOut := runREADMELine(t, strings.TrimPrefix(l, "$ "), tmp)
			if got := strings.TrimSuffix(out+errOut, "\n"); got != strings.Join(want, "\n") {
				t.Errorf("README line %d: %s\nprints\n%s\nthe README shows\n%s", i+1, l, got, strings.Join(want, "\n"))
			}
			ran++
		case block == "sh" && strings.HasPrefix(l, "jrpcld fetch "):
			if !strings.Contains(l, bblock.DefaultImport) {
				t.Errorf("README line %d: %s: the test has no copy of what it fetches (readmeFetched)", i+1, l)
			}
		case block == "sh" && readmeRunnable(l):
			if code, _, errOut := runREADMELine(t, l, tmp); code != cli.ExitOK {
				t.Errorf("README line %d: %s: exit %d: %s", i+1, l, code, errOut)
			}
			ran++
		}
	}
	if ran < 5 {
		t.Errorf("ran %d of the README's commands: the test no longer finds them", ran)
	}
}

// readmeRunnable tells whether a line of a sh block is a jrpcld command
// this test runs.
func readmeRunnable(l string) bool {
	l = strings.TrimSpace(l)
	return (strings.HasPrefix(l, "jrpcld ") || strings.HasPrefix(l, "go run ./cmd/jrpcld ")) &&
		!strings.HasPrefix(l, "jrpcld serve") && !strings.HasPrefix(l, "jrpcld fetch ")
}

// readmeFetched puts into a new cache of registers, in place of the
// README's "jrpcld fetch URL" lines (the tests use no network), the
// registers those lines fetch, from the copies of them ../shared holds:
// the main OGC register, as the MCP register's published build cached it.
func readmeFetched(t *testing.T, shared string) {
	t.Helper()
	sum := sha256.Sum256([]byte(bblock.DefaultImport))
	main, err := os.ReadFile(filepath.Join(shared, "reference", "ogc-published", "full-builds", "ogc-mcp-2025-09", "build", "annotated", "_cache", hex.EncodeToString(sum[:])))
	if err != nil {
		t.Fatal(err)
	}
	cacheRegister(t, bblock.DefaultImport, map[string]string{"register.json": string(main)})
}

// runREADMELine runs one command line of the README, "a | b" included: the
// part before a comment, jrpcld (or go run ./cmd/jrpcld) in-process, each
// -o FILE written below tmp. It returns the last command's exit status and
// output, and the standard error of all.
func runREADMELine(t *testing.T, line, tmp string) (int, string, string) {
	t.Helper()
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	stdin, errs := "", ""
	code := cli.ExitOK
	for _, part := range strings.Split(line, " | ") {
		args := strings.Fields(part)
		switch {
		case len(args) > 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/jrpcld":
			args = args[3:]
		case len(args) > 1 && args[0] == "jrpcld":
			args = args[1:]
		default:
			t.Fatalf("README: %q is not a jrpcld command", part)
		}
		for k := range args {
			if k > 0 && args[k-1] == "-o" {
				args[k] = filepath.Join(tmp, args[k])
			}
		}
		var out, errOut strings.Builder
		code = run(args, &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
		stdin, errs = out.String(), errs+errOut.String()
	}
	return code, stdin, errs
}
