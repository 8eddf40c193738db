package rdf

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/jrpcld/jrpcld/diag"
)

// ParseLines reads N-Triples or N-Quads as Parse does, cut at line ends into
// n pieces that are parsed at once, each on a goroutine of its own: a
// statement never spans lines, and blank node labels are the document's
// whatever the piece. A syntax error is the first in the document, its
// line counted from the document's start.
func ParseLines(data []byte, syntax Format, n int) ([]Quad, error) {
	if syntax != NTriples && syntax != NQuads {
		return nil, fmt.Errorf("rdf: ParseLines reads N-Triples and N-Quads, not %v", syntax)
	}
	n = max(n, 1)
	type piece struct {
		data  []byte
		line  int // lines before the piece
		quads []Quad
		err   error
	}
	var pieces []piece
	line := 0
	for start := 0; start < len(data); {
		end := min(start+len(data)/n+1, len(data))
		if i := bytes.IndexByte(data[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(data)
		}
		pieces = append(pieces, piece{data: data[start:end], line: line})
		line += bytes.Count(data[start:end], []byte{'\n'})
		start = end
	}
	var wg sync.WaitGroup
	for i := range pieces {
		wg.Add(1)
		go func(p *piece) {
			defer wg.Done()
			p.quads, _, p.err = Parse(p.data, syntax, "")
		}(&pieces[i])
	}
	wg.Wait()
	total := 0
	for _, p := range pieces {
		if p.err != nil {
			var se *diag.Diagnostic
			if errors.As(p.err, &se) {
				e := *se
				e.Line += p.line
				return nil, &e
			}
			return nil, p.err
		}
		total += len(p.quads)
	}
	qs := make([]Quad, 0, total)
	for _, p := range pieces {
		qs = append(qs, p.quads...)
	}
	return qs, nil
}
