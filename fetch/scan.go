package fetch

import (
	"bufio"
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// The files of a register are read as a stream, for the few strings a
// fetch needs (the links of register.json, the references of a schema or
// a context), so that the memory a fetch takes does not grow with their
// size: only the strings asked for are kept, and the names of the members
// that lead to them.

// maxKey is the longest member name (as written, escapes and all) a scan
// keeps: the names it looks for are short, a longer one is none of them.
const maxKey = 64

// maxLink is the longest string a scan keeps for its caller (as written):
// no URL a register holds is near it.
const maxLink = 4 << 10

// maxNesting is the deepest nesting a scan reads, as encoding/json.
const maxNesting = 10000

// frame is one level of the path to a value: an array, or an object and
// the name of its current member ("" for a name longer than maxKey).
type frame struct {
	array bool
	key   string
}

// visitor is what a scan tells of the document it reads.
type visitor interface {
	// opened is told of each array or object as it begins: path ends
	// with its frame.
	opened(path []frame)
	// wants says whether the string at path is to be kept.
	wants(path []frame) bool
	// found is given each string kept, unescaped.
	found(path []frame, s string) error
}

// scanner reads one JSON document as a stream.
type scanner struct {
	r    *bufio.Reader
	off  int64 // bytes read
	path []frame
	v    visitor
}

// What a scanner expects next.
const (
	expValue        = iota
	expValueOrClose // the first value of an array, or its end
	expName
	expNameOrClose // the first member of an object, or its end
	expColon
	expCommaOrClose
	expEnd // the document's value is read
)

// scanJSON reads the JSON document r holds and tells v of it. Its error
// wraps errNotJSON, with the offset, for a text that is not JSON; it is
// found's, or one naming a string kept that is longer than maxLink.
// Numbers are checked only for the characters they may hold.
func scanJSON(r io.Reader, v visitor) error {
	s := &scanner{r: bufio.NewReaderSize(r, 64<<10), v: v}
	expect := expValue
	for {
		c, err := s.byteAfterSpace()
		if err == io.EOF && expect == expEnd {
			return nil
		}
		if err == io.EOF {
			return s.bad("the end of the text")
		}
		if err != nil {
			return err
		}
		switch expect {
		case expValue, expValueOrClose:
			if expect == expValueOrClose && c == ']' {
				expect = s.pop()
				break
			}
			expect, err = s.value(c)
		case expName, expNameOrClose:
			if expect == expNameOrClose && c == '}' {
				expect = s.pop()
				break
			}
			expect, err = s.name(c)
		case expColon:
			if c != ':' {
				return s.bad("no colon after a member name")
			}
			expect = expValue
		case expCommaOrClose:
			top := s.path[len(s.path)-1]
			switch {
			case c == ',' && top.array:
				expect = expValue
			case c == ',':
				expect = expName
			case c == ']' && top.array || c == '}' && !top.array:
				expect = s.pop()
			default:
				return s.bad("no comma or end after a value")
			}
		case expEnd:
			return s.bad("data after the document")
		}
		if err != nil {
			return err
		}
	}
}

func (s *scanner) bad(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errNotJSON, what, s.off)
}

// byteAfterSpace returns the next byte that is not white space.
func (s *scanner) byteAfterSpace() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		s.off++
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// pop ends an array or object, and says what comes after it.
func (s *scanner) pop() int {
	s.path = s.path[:len(s.path)-1]
	return s.afterValue()
}

func (s *scanner) afterValue() int {
	if len(s.path) == 0 {
		return expEnd
	}
	return expCommaOrClose
}

// value reads the value that begins with c (an array or object only
// begun), and says what comes next.
func (s *scanner) value(c byte) (int, error) {
	switch {
	case c == '{' || c == '[':
		if len(s.path) >= maxNesting {
			return 0, s.bad(fmt.Sprintf("nesting deeper than %d", maxNesting))
		}
		s.path = append(s.path, frame{array: c == '['})
		s.v.opened(s.path)
		if c == '[' {
			return expValueOrClose, nil
		}
		return expNameOrClose, nil
	case c == '"':
		keep := s.v.wants(s.path)
		text, err := s.str(keep, maxLink)
		if err != nil || !keep {
			return s.afterValue(), err
		}
		if text == nil {
			return 0, fmt.Errorf("a string longer than %d bytes where a link was looked for, at byte %d: not followed", maxLink, s.off)
		}
		str, ok := jsonparse.AppendString(nil, text)
		if !ok {
			return 0, s.bad("a bad string")
		}
		return s.afterValue(), s.v.found(s.path, string(str))
	case c == 't' || c == 'f' || c == 'n' || c == '-' || c >= '0' && c <= '9':
		return s.afterValue(), s.word(c)
	}
	return 0, s.bad(jsonparse.QuoteChar(c))
}

// word reads the literal or number that begins with c.
func (s *scanner) word(c byte) error {
	word := []byte{c}
	for {
		b, err := s.r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if jsonparse.EndsToken(b) {
			s.r.UnreadByte()
			break
		}
		s.off++
		if len(word) > 5 && c >= 'a' {
			return s.bad("a bad literal")
		}
		if c < 'a' && !(b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E') {
			return s.bad("a bad number")
		}
		word = append(word[:min(len(word), 6)], b)
	}
	if w := string(word); c >= 'a' && w != "true" && w != "false" && w != "null" {
		return s.bad("a bad literal")
	}
	return nil
}

// name reads the name of an object's member, which begins with c.
func (s *scanner) name(c byte) (int, error) {
	if c != '"' {
		return 0, s.bad("no member name")
	}
	text, err := s.str(true, maxKey)
	if err != nil {
		return 0, err
	}
	key := ""
	if text != nil {
		k, ok := jsonparse.AppendString(nil, text)
		if !ok {
			return 0, s.bad("a bad member name")
		}
		key = string(k)
	}
	s.path[len(s.path)-1].key = key
	return expColon, nil
}

// str reads a string whose opening quote is read. When keep, it returns
// its text, quotes included, or nil when that is longer than max.
func (s *scanner) str(keep bool, max int) ([]byte, error) {
	var text []byte
	if keep {
		text = []byte{'"'}
	}
	odd := false // what was read ends in an odd run of backslashes
	for {
		chunk, err := s.r.ReadSlice('"')
		s.off += int64(len(chunk))
		if text != nil {
			if len(text)+len(chunk) > max {
				text = nil
			} else {
				text = append(text, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			odd = endsOdd(chunk, odd)
		case err == io.EOF:
			return nil, s.bad("a string that does not end")
		case err != nil:
			return nil, err
		case !endsOdd(chunk[:len(chunk)-1], odd):
			return text, nil // the closing quote
		default:
			odd = false // an escaped quote
		}
	}
}

// endsOdd reports whether b ends in an odd run of backslashes, given that
// what came before it did when odd.
func endsOdd(b []byte, odd bool) bool {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	if n == len(b) {
		return odd != (n%2 == 1)
	}
	return n%2 == 1
}
