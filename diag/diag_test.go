package diag

import (
	"errors"
	"fmt"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Message: "m"}, "m"},
		{Diagnostic{File: "a.jsonl", Message: "m"}, "a.jsonl: m"},
		{Diagnostic{File: "a.jsonl", Line: 3, Message: "m"}, "a.jsonl:3: m"},
		{Diagnostic{File: "a.jsonl", Line: 3, Column: 7, Message: "m"}, "a.jsonl:3:7: m"},
		{Diagnostic{File: "a.jsonl", Column: 7, Message: "m"}, "a.jsonl: m"},
		{Diagnostic{Line: 2, Column: 5, Message: "m"}, "2:5: m"},
		{Diagnostic{File: "g.ttl", Node: "http://x/#c2s-1", Message: "m"}, "g.ttl: <http://x/#c2s-1>: m"},
		{Diagnostic{File: "g.ttl", Node: "_:b0", Message: "m"}, "g.ttl: _:b0: m"},
		{Diagnostic{File: "a.jsonl", Line: 1, Pointer: "/params/x", Message: "m"}, "a.jsonl:1: m (at /params/x)"},
		{Diagnostic{File: "a.jsonl", Line: 1, Severity: Warning, Message: "m"}, "a.jsonl:1: warning: m"},
		{Diagnostic{Severity: Warning, Node: "_:b", Message: "m"}, "warning: _:b: m"},
		// What the input holds is escaped: no control or bidirectional
		// character reaches a terminal raw, and the diagnostic stays one line.
		{Diagnostic{File: "a\x1b[2J.jsonl", Line: 1, Message: "unknown method \"x\x1b[31m\r\nforged\"", Pointer: "/params/\u202ex"},
			`a\x1b[2J.jsonl:1: unknown method "x\x1b[31m\r\nforged" (at /params/\u202ex)`},
		{Diagnostic{File: "g.ttl", Node: "http://x/\u2066#m\u0085", Message: "m"}, `g.ttl: <http://x/\u2066#m\u0085>: m`},
		{Diagnostic{Node: "_:b\n", Message: "m\x7f"}, `_:b\n: m\x7f`},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("%+v: String() = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestAsError(t *testing.T) {
	var err error = &Diagnostic{File: "f", Line: 1, Code: -32700, Message: "not JSON"}
	err = fmt.Errorf("reading: %w", err)
	var d *Diagnostic
	if !errors.As(err, &d) || d.Code != -32700 {
		t.Fatalf("errors.As did not find the diagnostic in %v", err)
	}
	if err.Error() != "reading: f:1: not JSON" {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestSeverityString(t *testing.T) {
	if Error.String() != "error" || Warning.String() != "warning" || Severity(9).String() != "Severity(9)" {
		t.Errorf("got %q %q %q", Error, Warning, Severity(9))
	}
}
