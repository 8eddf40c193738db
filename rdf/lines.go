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
	pieces, err := parsePieces(data, syntax, n)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, p := range pieces {
		total += len(p)
	}
	qs := make([]Quad, 0, total)
	for _, p := range pieces {
		qs = append(qs, p...)
	}
	return qs, nil
}

// parsePieces is ParseLines without the last copy: the quads of each
// piece, in document order.
func parsePieces(data []byte, syntax Format, n int) ([][]Quad, error) {
	if syntax != NTriples && syntax != NQuads {
		return nil, fmt.Errorf("rdf: ParseLines reads N-Triples and N-Quads, not %v", syntax)
	}
	n = max(n, 1)
	type piece struct {
		data  []byte
		line  int // lines before the piece
		lines int // line ends in the piece
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
		lines := bytes.Count(data[start:end], []byte{'\n'})
		pieces = append(pieces, piece{data: data[start:end], line: line, lines: lines})
		line += lines
		start = end
	}
	quads := make([][]Quad, len(pieces))
	var wg sync.WaitGroup
	for i := range pieces {
		wg.Add(1)
		go func(p *piece, qs *[]Quad) {
			defer wg.Done()
			// A statement a line, but for blank and comment lines: the
			// slice is not grown.
			*qs, _, p.err = ParseAppend(make([]Quad, 0, p.lines+1), p.data, syntax, "")
		}(&pieces[i], &quads[i])
	}
	wg.Wait()
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
	}
	return quads, nil
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

// readLines is ReadLines with pieces of about size bytes. The piece's
// buffer is reused: the parser copies what it keeps.
func readLines(r io.Reader, syntax Format, size int, each func([]Quad) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	lines := 0
	// Room past size for the end of the last line, which most lines fit.
	buf := make([]byte, size, size+64<<10)
	for {
		buf = buf[:size]
		n, err := io.ReadFull(br, buf)
		buf = buf[:n]
		last := err != nil
		switch {
		case !last:
			rest, rerr := br.ReadSlice('\n')
			for rerr == bufio.ErrBufferFull {
				buf = append(buf, rest...)
				rest, rerr = br.ReadSlice('\n')
			}
			buf = append(buf, rest...)
			if last = rerr == io.EOF; rerr != nil && !last {
				return rerr
			}
		case err != io.EOF && err != io.ErrUnexpectedEOF:
			return err
		}
		pieces, err := parsePieces(buf, syntax, runtime.GOMAXPROCS(0))
		if err != nil {
			var d *diag.Diagnostic
			if errors.As(err, &d) {
				shifted := *d
				shifted.Line += lines
				return &shifted
			}
			return err
		}
		for _, qs := range pieces {
			if len(qs) == 0 {
				continue
			}
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
