package rdf_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
)

// TestReadLines: read a piece at a time, a document gives the quads Parse
// gives it whole, in order, whatever the size of the pieces; a syntax
// error names its line in the document, and an error of the callback
// stops the reading.
func TestReadLines(t *testing.T) {
	var doc strings.Builder
	for i := range 50 {
		fmt.Fprintf(&doc, "<http://e/s%d> <http://e/p> \"v%d\" <http://e/g%d> .\n_:b%d <http://e/p> _:b%d .\n", i, i, i%3, i, i+1)
	}
	whole, _, err := rdf.Parse([]byte(doc.String()), rdf.NQuads, "")
	if err != nil {
		t.Fatal(err)
	}
	broken := doc.String() + "<http://e/s> <http://e/p> .\n"
	// A line longer than the reader's 64 KiB buffer, cut by a piece's end.
	long := "<http://e/s> <http://e/p> \"" + strings.Repeat("x", 200<<10) + "\" .\n" + doc.String()
	longWhole, _, err := rdf.Parse([]byte(long), rdf.NQuads, "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, doc string
		size      int
		want      []rdf.Quad
		wantLine  int // of the syntax error; 0: none
	}{
		{"one piece", doc.String(), 1 << 20, whole, 0},
		{"a line a piece", doc.String(), 1, whole, 0},
		{"pieces of 100 bytes", doc.String(), 100, whole, 0},
		{"no final line end", strings.TrimSuffix(doc.String(), "\n"), 100, whole, 0},
		{"empty", "", 100, nil, 0},
		{"a line longer than the buffer", long, 100, longWhole, 0},
		{"error in a later piece", broken, 100, nil, 101},
		{"error in one piece", broken, 1 << 20, nil, 101},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []rdf.Quad
			err := rdf.ReadLinesSized(strings.NewReader(tt.doc), rdf.NQuads, tt.size, func(qs []rdf.Quad) error {
				if len(qs) == 0 {
					t.Error("an empty piece handed on")
				}
				got = append(got, qs...)
				return nil
			})
			if tt.wantLine > 0 {
				var d *diag.Diagnostic
				if !errors.As(err, &d) || d.Line != tt.wantLine {
					t.Fatalf("error %v, want one at line %d", err, tt.wantLine)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %d quads, want %d, or another order", len(got), len(tt.want))
			}
		})
	}
	stop := errors.New("stop")
	calls := 0
	err = rdf.ReadLinesSized(strings.NewReader(doc.String()), rdf.NQuads, 100, func([]rdf.Quad) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Errorf("a callback error: %v after %d calls, want it after 1", err, calls)
	}
}
