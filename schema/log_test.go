package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// TestValidateLogWarnings: the reader's warnings about a member named
// twice are findings of their message, with its file, line and kind (of
// the batch member they point into), counted as warnings; the message
// stays valid. An empty log is one invalid message.
func TestValidateLogWarnings(t *testing.T) {
	log := `{"jsonrpc":"2.0","id":1,"id":1,"method":"ping"}` + "\n" +
		`[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"m","method":"m"}]` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping","method":4}` + "\n"
	var got []string
	sum := validate(t, log, func(f Finding) {
		got = append(got, f.Kind.String()+" "+f.Severity.String()+" "+f.Diagnostic.String())
	})
	want := []string{
		`request warning log.jsonl:1: warning: member "id" appears twice in one object: the last one is used (at /id)`,
		`request warning log.jsonl:2: warning: member "method" appears twice in one object: the last one is used (at /1/method)`,
		`invalid warning log.jsonl:3: warning: member "method" appears twice in one object: the last one is used (at /method)`,
		`invalid error log.jsonl:3: "method" must be a string, got 4 (at /method)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sum.Messages != 3 || sum.Valid != 2 || sum.Warnings != 3 {
		t.Errorf("summary %+v, want 3 messages, 2 valid, 3 warnings", sum)
	}

	var empty []Finding
	sum = validate(t, "", func(f Finding) { empty = append(empty, f) })
	if sum.Messages != 1 || sum.Valid != 0 || len(empty) != 1 || empty[0].Severity != diag.Error || empty[0].Line != 0 ||
		!strings.Contains(empty[0].Message, "empty input") {
		t.Errorf("empty log: %+v, %+v", sum, empty)
	}
}

// TestValidateLogEnvelope: a "dir" that is neither c2s nor s2c is an error
// of its record, with its pointer; a member named twice inside an
// envelope's message points into the message, as every finding about the
// message does.
func TestValidateLogEnvelope(t *testing.T) {
	log := `{"dir":"in","msg":{"jsonrpc":"2.0","method":"n"}}` + "\n" +
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}}` + "\n"
	var got []string
	sum := validate(t, log, func(f Finding) {
		got = append(got, f.Kind.String()+" "+f.Diagnostic.String())
	})
	want := []string{
		`notification log.jsonl:1: envelope "dir" must be "c2s" or "s2c", not "in": the message is kept without a direction (at /dir)`,
		`request log.jsonl:2: warning: member "a" appears twice in one object: the last one is used (at /params/a)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sum.Messages != 2 || sum.Valid != 1 || sum.Warnings != 1 {
		t.Errorf("summary %+v, want 2 messages, 1 valid, 1 warning", sum)
	}
}

// validate runs ValidateLog with the JSON-RPC 2.0 rules over log.
func validate(t *testing.T, log string, emit func(Finding)) Summary {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ValidateLog(r, c, "log.jsonl", emit)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestValidateLogPlans: what ValidateLog finds, reading params and result
// undecoded and checking messages on their text by plans, is exactly what
// checking every decoded message with jsonschema alone finds, over the
// corpus and the official MCP schemas (with and without --formats), and a
// log of invalid messages and members named twice.
func TestValidateLogPlans(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "corpus", "mcp-sessions"), "*.jsonl"))
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}
{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text"}],"content":[]}}
{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"x","capabilities":{},"clientInfo":{"name":"c","version":"1","icons":[{"src":"foobar"}]}}}
[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":"half"}},{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":1,"a":2}}]
`), 0o644)
	files = append(files, bad)
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		for _, formats := range []bool{false, true} {
			s, err := (&Compiler{Formats: formats}).CompileFile(shared.Dir(t, "reference", "mcp-schema", version, "schema.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, file := range files {
				what := fmt.Sprintf("%s formats %v %s", version, formats, filepath.Base(file))
				c, _ := NewChecker(s, "")
				if c.lazyMembers() == nil {
					t.Errorf("%s: params and result are decoded", what)
				}
				f, err := os.Open(file)
				if err != nil {
					t.Fatal(err)
				}
				r, err := rpclog.NewReader(f, "f", rpclog.ReaderOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				sumGot, err := ValidateLog(r, c, "f", func(fd Finding) { got = append(got, fd.Diagnostic.String()) })
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				// The same log, every message decoded, jsonschema alone.
				f, _ = os.Open(file)
				r, _ = rpclog.NewReader(f, "f", rpclog.ReaderOptions{})
				plain, _ := NewChecker(s, "")
				var want []string
				var sumWant Summary
				for i := 0; ; i++ {
					rec, err := r.Next()
					if err != nil {
						break
					}
					reportRecord(rec, func() (jsonrpc.Message, []diag.Diagnostic) {
						return plain.Check(rec.Value, rec.Dir, i)
					}, "f", i, &sumWant, func(fd Finding) { want = append(want, fd.Diagnostic.String()) })
				}
				f.Close()
				if strings.Join(got, "\n") != strings.Join(want, "\n") || sumGot.Valid != sumWant.Valid || sumGot.Warnings != sumWant.Warnings {
					t.Errorf("%s: with plans\n%s\n%+v\nwithout\n%s\n%+v", what, strings.Join(got, "\n"), sumGot, strings.Join(want, "\n"), sumWant)
				}
			}
		}
	}
}

// TestObjects: a finding and a summary as validate's JSON output has them,
// compared as JSON values with the objects written out by hand.
func TestObjects(t *testing.T) {
	d := diag.Diagnostic{File: "a.jsonl", Line: 3, Pointer: "/params", Code: -32602, Severity: diag.Error, Message: "bad"}
	withSchema := d
	withSchema.Schema = "schema.json#/$defs/X"
	sum := Summary{Messages: 4, Valid: 3, Warnings: 1, Kinds: map[string]int{"request": 4}, Invalid: map[string]int{"request": 1}}
	tests := []struct {
		name string
		got  map[string]any
		want string
	}{
		{"finding", Finding{Index: 2, Kind: jsonrpc.KindRequest, Diagnostic: d}.Object(),
			`{"file":"a.jsonl","line":3,"index":2,"code":-32602,"kind":"request","severity":"error","message":"bad","pointer":"/params"}`},
		{"finding with a schema", Finding{Index: 0, Kind: jsonrpc.KindResponse, Diagnostic: withSchema}.Object(),
			`{"file":"a.jsonl","line":3,"index":0,"code":-32602,"kind":"response","severity":"error","message":"bad","pointer":"/params","schemaLocation":"schema.json#/$defs/X"}`},
		{"summary", sum.Object(2),
			`{"files":2,"messages":4,"valid":3,"invalid":1,"warnings":1,"kinds":{"request":4},"invalidByKind":{"request":1}}`},
		{"empty summary", Summary{}.Object(0),
			`{"files":0,"messages":0,"valid":0,"invalid":0,"warnings":0,"kinds":{},"invalidByKind":{}}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.got)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tt.want), &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
