package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the command lines may be,
// from its first line to its closing brace: a command's work belongs in
// the packages below it, and its runner in a few short steps.
const maxFuncLines = 80

// longFuncs returns each function and function literal of the non-test
// files in dir longer than max lines, as "file:line name (N lines)".
func longFuncs(dir string, max int) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var long []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			what := "a function literal"
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if fn.Body == nil {
					return true
				}
				what = fn.Name.Name
			case *ast.FuncLit:
			default:
				return true
			}
			start, end := fset.Position(n.Pos()), fset.Position(n.End())
			if lines := end.Line - start.Line + 1; lines > max {
				long = append(long, fmt.Sprintf("%s:%d %s (%d lines)", filepath.Base(name), start.Line, what, lines))
			}
			return true
		})
	}
	return long, nil
}

// TestFunctionLength: no function of jrpcld (its main package and the
// packages of its commands under internal/) or jrpcld-beam (its main
// package and its pipeline) is longer than maxFuncLines.
func TestFunctionLength(t *testing.T) {
	commands, err := filepath.Glob(filepath.Join("internal", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(commands) == 0 {
		t.Fatal("no package under internal/: the test would miss the commands")
	}
	for _, dir := range append([]string{".", "../jrpcld-beam", "../jrpcld-beam/pipeline"}, commands...) {
		long, err := longFuncs(dir, maxFuncLines)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range long {
			t.Errorf("%s: %s: longer than %d lines: split it, or move its work to the package it belongs to", dir, l, maxFuncLines)
		}
	}
}

// TestLongFuncs: longFuncs finds a function past the limit, a function
// literal inside a short-enough function, and nothing at the limit.
func TestLongFuncs(t *testing.T) {
	dir := t.TempDir()
	body := func(n int) string { return strings.Repeat("\t_ = 0\n", n) }
	// A function of n lines in all has n-2 lines of body.
	src := "package p\n\n" +
		"func atLimit() {\n" + body(8) + "}\n\n" +
		"func past() {\n" + body(9) + "}\n\n" +
		"func outer() {\n\tf := func() {\n" + body(9) + "\t}\n\t_ = f\n}\n"
	write(t, filepath.Join(dir, "p.go"), src)
	write(t, filepath.Join(dir, "p_test.go"), "package p\n\nfunc long() {\n"+body(50)+"}\n")
	got, err := longFuncs(dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"p.go:14 past (11 lines)", "p.go:26 outer (14 lines)", "p.go:27 a function literal (11 lines)"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("longFuncs = %q, want %q", got, want)
	}
}
