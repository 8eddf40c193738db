package wire_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/rdf"
)

// onlyReader hides every method of a reader but Read: it cannot seek.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestWriteJSONL: whatever the layout and whether the input can seek, the
// messages come back the same; the stream is used where it can be, and a
// syntax error is a problem, not an error.
func TestWriteJSONL(t *testing.T) {
	ctx := toolchaintest.DefaultContext(t)
	d := wire.NewDecoder(ctx)
	logs := map[string]string{"http://example.com/a": sequenceLog(), "http://example.com/b": sequenceLog()}
	nq := convertWith(t, ctx, rdf.NQuads, logs)
	// The same statements in reverse order: not laid out as jrpcld writes
	// logs, so they must be read whole.
	lines := strings.Split(strings.TrimSpace(string(nq)), "\n")
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	reversed := []byte(strings.Join(lines, "\n") + "\n")
	var want bytes.Buffer
	res, err := d.WriteJSONL(&want, bytes.NewReader(nq), rdf.NQuads, wire.JSONLOptions{Envelope: true})
	if err != nil || len(res.Problems) > 0 || !res.Found || res.Whole != "" || strings.Count(want.String(), "\n") != 2*strings.Count(sequenceLog(), "\n") {
		t.Fatalf("streamed: %v %+v\n%s", err, res, want.String())
	}
	for _, c := range []struct {
		name  string
		in    io.Reader
		f     rdf.Format
		whole bool
	}{
		{"stream, cannot seek", onlyReader{bytes.NewReader(nq)}, rdf.NQuads, false},
		{"whole, seeks back", bytes.NewReader(reversed), rdf.NQuads, true},
		{"whole, from a copy", onlyReader{bytes.NewReader(reversed)}, rdf.NQuads, true},
		{"JSON-LD", bytes.NewReader(convertWith(t, ctx, rdf.JSONLD, logs)), rdf.JSONLD, false},
	} {
		var got bytes.Buffer
		res, err := d.WriteJSONL(&got, c.in, c.f, wire.JSONLOptions{Envelope: true})
		if err != nil || len(res.Problems) > 0 || !res.Found {
			t.Errorf("%s: %v %+v", c.name, err, res)
			continue
		}
		if (res.Whole != "") != c.whole {
			t.Errorf("%s: read whole because %q, want whole %v", c.name, res.Whole, c.whole)
		}
		if c.f == rdf.JSONLD {
			if got.Len() != want.Len() {
				t.Errorf("%s: %d bytes, want %d", c.name, got.Len(), want.Len())
			}
			continue
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got.String(), want.String())
		}
	}
	// One log of two, by its IRI; a log that is not there.
	var one bytes.Buffer
	res, err = d.WriteJSONL(&one, bytes.NewReader(reversed), rdf.NQuads, wire.JSONLOptions{Graph: "http://example.com/b"})
	if err != nil || !res.Found || strings.Count(one.String(), "\n") != strings.Count(sequenceLog(), "\n") {
		t.Errorf("one graph: %v %+v\n%s", err, res, one.String())
	}
	res, err = d.WriteJSONL(io.Discard, bytes.NewReader(nq), rdf.NQuads, wire.JSONLOptions{Graph: "http://example.com/c"})
	if err != nil || res.Found {
		t.Errorf("a missing graph: %v %+v", err, res)
	}
	// A syntax error: nothing written, a problem with its place.
	var none bytes.Buffer
	res, err = d.WriteJSONL(&none, strings.NewReader("<http://e/s> <http://e/p> .\n"), rdf.NTriples, wire.JSONLOptions{})
	if err != nil || len(res.Problems) != 1 || res.Problems[0].Line != 1 || none.Len() != 0 {
		t.Errorf("syntax error: %v %+v %q", err, res, none.String())
	}
}
