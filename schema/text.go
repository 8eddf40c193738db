package schema

// Reading JSON text in place. The plans (plan.go) check a message on the
// text the log reader read, which it has checked already: these functions
// find the extent of values, the members of objects and the elements of
// arrays without decoding them. They never trust the text blindly: on
// anything that is not JSON they report failure (ok false), never panic.

import (
	"bytes"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// index knows where values end in the text of a message, as the log
// reader noted it (rpclog.Record.Lens): the functions below jump over the
// values it knows instead of scanning them. The zero index knows none.
type index struct {
	text []byte   // the message's text
	lens []uint16 // its Lens: as long as text, or nil
}

// extent returns the length of the string, array or object whose text
// starts at b[i], when x knows it, else 0. b must be part of x.text for
// x to know anything of it: any other text is scanned.
func (x *index) extent(b []byte, i int) int {
	if x.lens == nil || i >= len(b) {
		return 0
	}
	// b shares the end of its array with x.text: the offset follows
	// from their capacities, and the address says whether it is right.
	off := cap(x.text) - cap(b) + i
	if off < 0 || off >= len(x.lens) || &x.text[off] != &b[i] {
		return 0
	}
	n := int(x.lens[off])
	if n > len(b)-i {
		return 0
	}
	return n
}

// valueEnd returns the offset just past the JSON value that starts at
// b[i] (i at its first byte, not at white space).
func (x *index) valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	if n := x.extent(b, i); n > 0 {
		return i + n, true
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, ok := x.stringEnd(b, i)
				if !ok {
					return end, false
				}
				i = end
				continue
			case '{', '[':
				if n := x.extent(b, i); n > 0 && depth > 0 {
					i += n
					continue
				}
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	start := i
	for i < len(b) && !jsonparse.EndsToken(b[i]) {
		i++
	}
	return i, i > start
}

// stringEnd is the function stringEnd, at once for a string x knows.
func (x *index) stringEnd(b []byte, i int) (int, bool) {
	if n := x.extent(b, i); n > 0 {
		return i + n, true
	}
	return stringEnd(b, i)
}

// stringEnd returns the offset just past the string whose opening quote
// is at b[i].
func stringEnd(b []byte, i int) (int, bool) {
	start := i
	for j := i + 1; j <= len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b), false
		}
		q := j + k
		// The quote ends the string unless an odd number of backslashes
		// escapes it.
		n := 0
		for p := q - 1; p > start && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
	return len(b), false
}

// members calls f with the raw name (without its quotes, escapes as
// written) and the value text of each member of the object text b, in
// order, until f returns false. It reports whether b was read to its end.
func (x *index) members(b []byte, f func(name, value []byte) bool) bool {
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	i := jsonparse.SkipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end, ok := x.stringEnd(b, i)
		if !ok {
			return false
		}
		name := b[i+1 : end-1]
		i = jsonparse.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = jsonparse.SkipSpace(b, i+1)
		vend, ok := x.valueEnd(b, i)
		if !ok {
			return false
		}
		if !f(name, b[i:vend]) {
			return true
		}
		i = jsonparse.SkipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = jsonparse.SkipSpace(b, i+1)
	}
	return false
}

// elements calls f with the index and text of each element of the array
// text b, in order, until f returns false. It reports whether b was read
// to its end.
func (x *index) elements(b []byte, f func(i int, value []byte) bool) bool {
	if len(b) < 2 || b[0] != '[' {
		return false
	}
	i := jsonparse.SkipSpace(b, 1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for n := 0; i < len(b); n++ {
		vend, ok := x.valueEnd(b, i)
		if !ok {
			return false
		}
		if !f(n, b[i:vend]) {
			return true
		}
		i = jsonparse.SkipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		if b[i] == ']' {
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = jsonparse.SkipSpace(b, i+1)
	}
	return false
}

// member returns the text of the member name of the object text b (the
// last one, as decoding keeps), or nil.
func (x *index) member(b []byte, name string) []byte {
	var found []byte
	x.members(b, func(n, v []byte) bool {
		if string(n) == name {
			found = v
		}
		return true
	})
	return found
}

// element returns the text of element i of the array text b, or nil.
func (x *index) element(b []byte, i int) []byte {
	var found []byte
	x.elements(b, func(n int, v []byte) bool {
		if n == i {
			found = v
			return false
		}
		return true
	})
	return found
}

// unquote returns the content of a string's text as written between its
// quotes (raw), unescaped: raw itself when it holds no escape, else the
// decoded string appended to buf[:0]. ok is false for an escape that is not
// JSON's.
func unquote(raw, buf []byte) ([]byte, bool) {
	i := 0
	for i < len(raw) && raw[i] != '\\' {
		i++
	}
	if i == len(raw) {
		return raw, true
	}
	out := append(buf[:0], raw[:i]...)
	for i < len(raw) {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return nil, false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			out = append(out, raw[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, err := jsonparse.Hex4(raw, i+2)
			if err != nil {
				return nil, false
			}
			i += 6
			if r >= 0xD800 && r < 0xDC00 {
				// A high surrogate must be followed by a low one.
				if i+1 >= len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
					return nil, false
				}
				lo, err := jsonparse.Hex4(raw, i+2)
				if err != nil || lo < 0xDC00 || lo >= 0xE000 {
					return nil, false
				}
				r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
				i += 6
			} else if r >= 0xDC00 && r < 0xE000 {
				return nil, false
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return nil, false
		}
		i += 2
	}
	return out, true
}
