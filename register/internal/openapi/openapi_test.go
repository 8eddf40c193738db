package openapi

import (
	"errors"
	"strings"
	"testing"
)

// TestResolve: references rewritten (x-bblocks-ref in the $ref's place),
// comments and flow style dropped, keys in order and a number kept a
// number, JSON written as YAML; each output worked out by hand.
func TestResolve(t *testing.T) {
	ref := func(r string) (string, error) {
		if r == "bad" {
			return "", errors.New("cannot resolve bad")
		}
		return "out/" + r, nil
	}
	tests := []struct {
		name, in, want, version string
		errs                    []string // in the problems, in order
	}{
		{"refs", "openapi: 3.0.3 # a comment\npaths: {/a: {$ref: a.yaml}}\nb:\n  x-bblocks-ref: bblocks://x\n  $ref: old.yaml\n",
			"openapi: 3.0.3\npaths:\n  /a:\n    $ref: out/a.yaml\nb:\n  $ref: out/bblocks://x\n", "3.0.3", nil},
		{"keys in order, a number stays one", "z: 1\nresponses:\n  200: {description: ok}\na: [x, y]\n",
			"z: 1\nresponses:\n  200:\n    description: ok\na:\n  - x\n  - y\n", "", nil},
		{"JSON", `{"openapi": "3.1.0", "c": {"$ref": "c.json"}}`, "openapi: 3.1.0\nc:\n  $ref: out/c.json\n", "3.1.0", nil},
		{"a ref that fails", "a:\n  $ref: bad\nb:\n  $ref: bad\n", "", "", []string{"api.yaml line 2: cannot resolve bad", "api.yaml line 4: cannot resolve bad"}},
		{"not YAML", "a: [", "", "", []string{"api.yaml: not YAML (nor JSON)"}},
		{"not an object", "- a\n", "", "", []string{"api.yaml: not an OpenAPI document (an object)"}},
		{"deep, within the bound", "a: " + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + "\n", "a:\n  " + strings.Repeat("- ", maxDepth-2) + "[]\n", "", nil},
		{"too deep in a mapping", "a: " + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "\n", "", "",
			[]string{"api.yaml line 1: nested more than 512 deep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, version, errs := Resolve("api.yaml", "out/openapi.yaml", []byte(tt.in), ref)
			if len(errs) != len(tt.errs) {
				t.Fatalf("problems %v, want %d", errs, len(tt.errs))
			}
			for i, e := range errs {
				if !strings.HasPrefix(e.Error(), tt.errs[i]) {
					t.Errorf("problem %d: %q, want %q", i+1, e, tt.errs[i])
				}
			}
			if string(got) != tt.want || version != tt.version {
				t.Errorf("got %q (version %q), want %q (version %q)", got, version, tt.want, tt.version)
			}
		})
	}
}
