package main

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
