package register

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
)

// TestShellQuote reads each quoted word back through /bin/sh: the shell,
// not this package, says what the word is.
func TestShellQuote(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to read the words back")
	}
	for _, s := range []string{"plain/dir-1.x", "", "two words", "it's", `a"b`, "$HOME", "a\\b", "x;rm -rf y", "tab\there", "new\nline", "*", "~user", "https://e.example/r=dir"} {
		q := shellQuote(s)
		out, err := exec.Command(sh, "-c", "printf %s "+q).Output()
		if err != nil {
			t.Errorf("shellQuote(%q) = %s: sh: %v", s, q, err)
			continue
		}
		if string(out) != s {
			t.Errorf("shellQuote(%q) = %s, which sh reads as %q", s, q, out)
		}
	}
}

// TestOntologyCommand checks the command the undeclared-IRI warning names:
// it names the source tree and the block, with the imports and context
// files the build was given, so that it checks what the build checked; the
// embedded block alone needs none of them.
func TestOntologyCommand(t *testing.T) {
	const aURL = "https://a.example/reg/"
	regA, err := bblock.LoadRegister(importedTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	outA, _ := buildReg(t, regA, Options{BaseURL: aURL})
	im, err := bblock.LoadImports([]bblock.ImportMap{{URL: aURL, Dir: outA}})
	if err != nil {
		t.Fatal(err)
	}
	def, err := DefaultRegister()
	if err != nil {
		t.Fatal(err)
	}
	block := &bblock.Block{ID: "b.visit"}
	tests := []struct {
		name string
		reg  *bblock.Register
		opts Options
		want string
		page string // on the pages, when it differs
	}{
		{"embedded block", def, Options{}, `"jrpcld ontology --check"`, ""},
		{"source tree", &bblock.Register{Dir: "regs/my reg"}, Options{},
			`"jrpcld ontology --check --bblock 'regs/my reg' --id b.visit"`, ""},
		{"absolute source tree", &bblock.Register{Dir: "/home/me/reg"}, Options{},
			`"jrpcld ontology --check --bblock /home/me/reg --id b.visit"`, `"jrpcld ontology --check --bblock SOURCES --id b.visit"`},
		{"imports and contexts", &bblock.Register{Dir: "src", Imports: im},
			Options{Contexts: &ldctx.Options{Files: map[string]string{"https://z.example/c.jsonld": "z.jsonld", "https://a.example/c.jsonld": "a b.jsonld"}}},
			`"jrpcld ontology --check --bblock src --id b.visit --import ` + aURL + `=` + shellQuote(outA) +
				` --context-map 'https://a.example/c.jsonld=a b.jsonld' --context-map https://z.example/c.jsonld=z.jsonld"`,
			`"jrpcld ontology --check --bblock src --id b.visit --import ` + aURL + `=DIR` +
				` --context-map 'https://a.example/c.jsonld=a b.jsonld' --context-map https://z.example/c.jsonld=z.jsonld"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bd := &builder{reg: tc.reg, opts: tc.opts}
			if got := bd.ontologyCommand(block, false); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if tc.page == "" {
				tc.page = tc.want
			}
			if got := bd.ontologyCommand(block, true); got != tc.page {
				t.Errorf("page: got  %s\nwant %s", got, tc.page)
			}
		})
	}
	iris := strings.Fields("a b c d e f g h")
	if w := undeclaredWarning(iris, `"X"`); !strings.HasSuffix(w, `a, b, c, d, e, f and 2 more ("X" lists them)`) {
		t.Errorf("warning %q does not name six IRIs and the command", w)
	}
}
