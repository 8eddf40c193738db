package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/jsonptr"
)

// scanner reads the JSON text of a recording as a stream: the arrays and
// objects that hold its entries token by token, each entry as one value,
// so that a recording of any length is read in the memory of one entry.
// It knows the line and column of every byte, for its errors: JSON that
// does not parse, or a byte that is not UTF-8 (encoding/json would pass
// such bytes through into messages, and the log they went into could not
// be read). A UTF-8 byte order mark at the start is skipped.
type scanner struct {
	r         *bufio.Reader
	line, col int // of the next byte, from 1; col counts bytes
}

func newScanner(r io.Reader) *scanner {
	s := &scanner{r: bufio.NewReaderSize(r, 64<<10), line: 1, col: 1}
	if b, _ := s.r.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		s.r.Discard(3)
	}
	return s
}

// errorf returns a syntax error at the next byte.
func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d, column %d: not JSON: %s", s.line, s.col, fmt.Sprintf(format, args...))
}

// read reads one byte.
func (s *scanner) read() (byte, error) {
	c, err := s.r.ReadByte()
	if err == io.EOF {
		return 0, s.errorf("the recording ends in the middle of a value")
	}
	if err != nil {
		return 0, err
	}
	if c == '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col++
	}
	return c, nil
}

// peek returns the next byte that is not white space, without reading it;
// 0 at the end of the input.
func (s *scanner) peek() (byte, error) {
	for {
		b, err := s.r.Peek(1)
		if err == io.EOF {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			s.read()
		default:
			return b[0], nil
		}
	}
}

// expect reads the byte c, after white space.
func (s *scanner) expect(c byte, where string) error {
	got, err := s.peek()
	if err != nil {
		return err
	}
	if got != c {
		return s.unexpected(got, where)
	}
	_, err = s.read()
	return err
}

// unexpected is the error for the byte c where something else was wanted.
func (s *scanner) unexpected(c byte, where string) error {
	switch {
	case c == 0:
		return s.errorf("the recording ends %s", where)
	case c >= utf8.RuneSelf:
		b, _ := s.r.Peek(utf8.UTFMax)
		if r, _ := utf8.DecodeRune(b); r == utf8.RuneError {
			return s.notUTF8(c)
		}
		r, _ := utf8.DecodeRune(b)
		return s.errorf("invalid character %q %s", r, where)
	}
	return s.errorf("invalid character %q %s", c, where)
}

func (s *scanner) notUTF8(c byte) error {
	return s.errorf(notUTF8, c)
}

const notUTF8 = "byte %#02x is not UTF-8, which JSON text must be (convert the recording to UTF-8 first, e.g. with iconv)"

// value reads the next value and returns its text, checked: JSON, and
// UTF-8.
func (s *scanner) value() (json.RawMessage, error) {
	c, err := s.peek()
	if err != nil {
		return nil, err
	}
	if c == 0 || c == ',' || c == ']' || c == '}' || c == ':' {
		return nil, s.unexpected(c, "where a value begins")
	}
	line, col := s.line, s.col
	var v []byte
	if c == '"' || c == '[' || c == '{' {
		// To the end of the string, or of the array or object.
		depth, inString, escaped := 0, false, false
		for {
			c, err := s.read()
			if err != nil {
				return nil, err
			}
			v = append(v, c)
			switch {
			case escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			case inString:
			case c == '[' || c == '{':
				depth++
			case c == ']' || c == '}':
				depth--
			}
			if depth <= 0 && !inString {
				break
			}
		}
	} else {
		// A number, true, false or null: to the next delimiter.
		for {
			b, err := s.r.Peek(1)
			if err != nil || bytes.IndexByte([]byte(" \t\r\n,]}:[{\""), b[0]) >= 0 {
				break
			}
			c, _ := s.read()
			v = append(v, c)
		}
	}
	if !utf8.Valid(v) {
		i := 0
		for r, size := utf8.DecodeRune(v); r != utf8.RuneError || size != 1; r, size = utf8.DecodeRune(v[i:]) {
			i += size
		}
		l, cl := at(v[:i], line, col)
		return nil, fmt.Errorf("line %d, column %d: not JSON: "+notUTF8, l, cl, v[i])
	}
	if err := json.Unmarshal(v, new(json.RawMessage)); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && se.Offset > 0 {
			l, cl := at(v[:se.Offset-1], line, col)
			return nil, fmt.Errorf("line %d, column %d: not JSON: %v", l, cl, se)
		}
		return nil, fmt.Errorf("line %d, column %d: not JSON: %v", line, col, err)
	}
	return v, nil
}

// at returns the line and column of the byte after b, which starts at
// line and col.
func at(b []byte, line, col int) (int, int) {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return line + bytes.Count(b, []byte("\n")), len(b) - i
	}
	return line, col + len(b)
}

// open reads the '[' (of an array) or '{' (of an object) that begins the
// next value and reports true; when the value is not that, it reads
// nothing more of it (null, read whole) and reports false.
func (s *scanner) open(c byte) (bool, error) {
	got, err := s.peek()
	if err == nil && got == 0 {
		err = s.unexpected(got, "where a value begins")
	}
	if err != nil || got != c {
		if got == 'n' {
			_, err = s.value()
		}
		return false, err
	}
	_, err = s.read()
	return true, err
}

// array calls each with the index of each element of the array whose '['
// was just read, until its ']': each reads the element (with value).
func (s *scanner) array(each func(i int) error) error {
	for i := 0; ; i++ {
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == ']' {
			_, err := s.read()
			return err
		}
		if i > 0 {
			if c != ',' {
				return s.unexpected(c, "after an array element")
			}
			s.read()
		}
		if err := each(i); err != nil {
			return err
		}
	}
}

// object calls member with the name of each member of the object whose
// '{' was just read, until its '}'; member reads the value. A name given
// twice is a warning at ptr.
func (s *scanner) object(rd *reader, ptr string, member func(name string) error) error {
	seen := map[string]bool{}
	for i := 0; ; i++ {
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == '}' {
			_, err := s.read()
			return err
		}
		if i > 0 {
			if c != ',' {
				return s.unexpected(c, "after an object member")
			}
			s.read()
			if c, err = s.peek(); err != nil {
				return err
			}
		}
		if c != '"' {
			return s.unexpected(c, "where a member name begins")
		}
		v, err := s.value()
		if err != nil {
			return err
		}
		var name string
		json.Unmarshal(v, &name)
		if seen[name] {
			rd.warn(ptr+"/"+jsonptr.Escape(name), "%q is named twice in this object", name)
		}
		seen[name] = true
		if err := s.expect(':', "after a member name"); err != nil {
			return err
		}
		if err := member(name); err != nil {
			return err
		}
	}
}

// end checks that nothing but white space follows the recording's value.
func (s *scanner) end() error {
	c, err := s.peek()
	if err != nil || c == 0 {
		return err
	}
	return s.unexpected(c, "after the recording's value")
}
