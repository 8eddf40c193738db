package gsp

import (
	"bytes"
	"io"
	"os"

	"github.com/jrpcld/jrpcld/rdf"
)

// spool holds the body of an upload: in memory up to a limit, then in a
// temporary file, so that it can be sent with its length, and sent again.
type spool struct {
	mem   []byte
	limit int64
	dir   string
	file  *os.File
	size  int64

	// statements counts the lines of a line-based format that hold a
	// statement (not blank, not a comment); -1 for other formats.
	statements int64
	lines      bool
	content    bool // the current line has something but white space
	comment    bool // the current line's first character is '#'
}

// spool writes the graph into a new spool.
func (c *Client) spool(format rdf.Format, write func(io.Writer) error) (*spool, error) {
	s := &spool{limit: c.MemoryLimit, dir: c.TempDir, statements: -1}
	if s.limit <= 0 {
		s.limit = DefaultMemoryLimit
	}
	if format == rdf.NTriples || format == rdf.NQuads {
		s.lines, s.statements = true, 0
	}
	if err := write(s); err != nil {
		s.close()
		return nil, err
	}
	if s.lines && s.content && !s.comment {
		s.statements++ // a last line without a line break
	}
	return s, nil
}

// Write adds p to the body.
func (s *spool) Write(p []byte) (int, error) {
	if s.lines {
		s.count(p)
	}
	if s.file == nil && s.size+int64(len(p)) > s.limit {
		f, err := os.CreateTemp(s.dir, "jrpcld-upload-*")
		if err != nil {
			return 0, err
		}
		// Removed at once where the system allows it: the file lives until
		// it is closed, and nothing is left behind whatever happens.
		os.Remove(f.Name())
		s.file = f
		if _, err := f.Write(s.mem); err != nil {
			return 0, err
		}
		s.mem = nil
	}
	s.size += int64(len(p))
	if s.file != nil {
		return s.file.Write(p)
	}
	s.mem = append(s.mem, p...)
	return len(p), nil
}

// count counts the statements that end in p.
func (s *spool) count(p []byte) {
	for _, b := range p {
		switch {
		case b == '\n' || b == '\r':
			if s.content && !s.comment {
				s.statements++
			}
			s.content, s.comment = false, false
		case b == ' ' || b == '\t':
		case !s.content:
			s.content, s.comment = true, b == '#'
		}
	}
}

// reader returns a reader of the whole body, from its start.
func (s *spool) reader() io.Reader {
	if s.file != nil {
		return io.NewSectionReader(s.file, 0, s.size)
	}
	return bytes.NewReader(s.mem)
}

// close releases the body; the temporary file, if any, is removed.
func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
	s.mem = nil
}
