package rdf

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
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

// pieceSize is about how much of a document ReadLines parses at once.
const pieceSize = 8 << 20

// ReadLines reads N-Triples or N-Quads from r a piece of about 8 MiB at a
// time, cut at a line end and parsed on every core by ParseLines, and hands
// each piece's quads to each, in document order, so that a document larger
// than memory can be read as a stream. A syntax error stops it, its line
// counted from the document's start; so does an error of each, returned as
// it is.
func ReadLines(r io.Reader, syntax Format, each func([]Quad) error) error {
	return readLines(r, syntax, pieceSize, each)
}

// readLines is ReadLines with pieces of about size bytes.
func readLines(r io.Reader, syntax Format, size int, each func([]Quad) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	lines := 0
	for {
		buf := make([]byte, size)
		n, err := io.ReadFull(br, buf)
		buf = buf[:n]
		last := err != nil
		switch {
		case !last:
			rest, rerr := br.ReadBytes('\n')
			buf = append(buf, rest...)
			if last = rerr == io.EOF; rerr != nil && !last {
				return rerr
			}
		case err != io.EOF && err != io.ErrUnexpectedEOF:
			return err
		}
		qs, err := ParseLines(buf, syntax, runtime.GOMAXPROCS(0))
		if err != nil {
			var d *diag.Diagnostic
			if errors.As(err, &d) {
				shifted := *d
				shifted.Line += lines
				return &shifted
			}
			return err
		}
		if len(qs) > 0 {
			if err := each(qs); err != nil {
				return err
			}
		}
		if last {
			return nil
		}
		lines += bytes.Count(buf, []byte{'\n'})
	}
}
