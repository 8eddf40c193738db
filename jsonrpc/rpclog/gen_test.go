package rpclog

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

// TestGenerator: a generated log has the template's mix, only valid
// messages, fresh ids per cycle, and the same pairing as the template.
func TestGenerator(t *testing.T) {
	data, err := os.ReadFile("../../examples/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewReader(bytes.NewReader(data), "session", ReaderOptions{})
	g, err := NewGenerator(r)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	const n = 13 * 40
	if err := g.Generate(&out, n); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(out.String(), "\n"); lines != n {
		t.Fatalf("%d lines, want %d", lines, n)
	}
	gr, _ := NewReader(bytes.NewReader(out.Bytes()), "gen", ReaderOptions{})
	tr := jsonrpc.NewTracker[int](0)
	valid := 0
	for {
		rec, err := gr.Next()
		if err != nil {
			break
		}
		m := jsonrpc.Classify(rec.Value)
		if !m.Valid() || len(m.AllDiagnostics()) > 0 {
			t.Errorf("line %d: %v", rec.Line, m.AllDiagnostics())
			continue
		}
		valid++
		switch m.Kind {
		case jsonrpc.KindRequest:
			tr.Request(rec.Dir, m.ID, rec.Line)
		case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
			if _, ok := tr.Answer(rec.Dir, m.ID); !ok {
				t.Errorf("line %d: a response to no open request", rec.Line)
			}
		}
	}
	if valid != n {
		t.Fatalf("%d valid of %d", valid, n)
	}
	// The template leaves one request (the ping) unanswered and answers the
	// rest; every cycle must do the same, so ids did not collide.
	if open := tr.Open(); len(open) != 40 {
		t.Errorf("%d open requests, want one per cycle (40)", len(open))
	}
	// Timestamps grow from cycle to cycle.
	if !strings.Contains(out.String(), `"ts":"2026-11-20T09:00:04.000Z"`) {
		t.Errorf("the second cycle does not start after the first:\n%.600s", out.String()[len(data):])
	}
}

// TestGeneratorBytes: the bytes of a message an envelope held, which are
// no JSON text, are a template too: each cycle writes them again, exactly,
// with the cycle's time; a line that is not JSON is still left out.
func TestGeneratorBytes(t *testing.T) {
	const latin1 = "caf\xe9 au lait"
	in := `{"dir":"s2c","ts":"2026-01-01T00:00:00.000Z","bytes":"` + base64.StdEncoding.EncodeToString([]byte(latin1)) + `"}` + "\n" +
		"not JSON\n" +
		`{"dir":"c2s","ts":"2026-01-01T00:00:01.000Z","msg":{"jsonrpc":"2.0","method":"m"}}` + "\n"
	r, _ := NewReader(strings.NewReader(in), "t", ReaderOptions{})
	g, err := NewGenerator(r)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := g.Generate(&out, 4); err != nil {
		t.Fatal(err)
	}
	gr, _ := NewReader(&out, "gen", ReaderOptions{})
	var got []string
	for {
		rec, err := gr.Next()
		if err != nil {
			break
		}
		got = append(got, fmt.Sprintf("%v %s %s %q", rec.Bytes, rec.Dir, rec.TS, rec.Raw))
	}
	want := []string{
		`true s2c 2026-01-01T00:00:00.000Z "caf\xe9 au lait"`,
		`false c2s 2026-01-01T00:00:01.000Z "{\"jsonrpc\":\"2.0\",\"method\":\"m\"}"`,
		`true s2c 2026-01-01T00:00:02.000Z "caf\xe9 au lait"`,
		`false c2s 2026-01-01T00:00:03.000Z "{\"jsonrpc\":\"2.0\",\"method\":\"m\"}"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("generated:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
