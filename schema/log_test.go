package schema

import (
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rpclog"
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
