package main

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestREADMEImports: the list of imports in the README's architecture
// section is what the code imports, package by package, and names every
// package of the module outside internal/.
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
		if strings.HasPrefix(rel, ".") && rel != "." || strings.HasPrefix(rel, "internal") || strings.Contains(rel, "testdata") || strings.HasPrefix(rel, "bench") {
			if rel != "." {
				return filepath.SkipDir
			}
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go package here
		}
		found[rel] = true
		var want []string
		for _, imp := range pkg.Imports {
			if p, ok := strings.CutPrefix(imp, module); ok && !strings.HasPrefix(p, "internal/") {
				want = append(want, p)
			}
		}
		slices.Sort(want)
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
	root := newRoot(&env{})
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
