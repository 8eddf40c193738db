package results

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/rdf"
)

// Writer writes the rows of a SELECT result in one format, buffered: the
// head when made, each row on Write, the tail on Close.
type Writer struct {
	w    *bufio.Writer
	f    Format
	vars []string
	n    int // rows written
	err  error
	buf  []byte
}

// NewWriter starts a result with the variables vars (names without '?')
// and writes its head to w.
func NewWriter(w io.Writer, f Format, vars []string) (*Writer, error) {
	if f < JSON || f > TSV {
		return nil, &FormatError{Name: f.String()}
	}
	wr := &Writer{w: bufio.NewWriter(w), f: f, vars: vars}
	b := wr.buf[:0]
	switch f {
	case JSON:
		b = append(b, `{"head":{"vars":[`...)
		for i, v := range vars {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v)
		}
		b = append(b, "]},\"results\":{\"bindings\":[\n"...)
	case XML:
		b = append(b, xmlHead...)
		for _, v := range vars {
			b = append(b, `<variable name="`...)
			b = appendXMLText(b, v, true)
			b = append(b, "\"/>\n"...)
		}
		b = append(b, "</head>\n<results>\n"...)
	case CSV:
		for i, v := range vars {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCSVField(b, v)
		}
		b = append(b, "\r\n"...)
	case TSV:
		for i, v := range vars {
			if i > 0 {
				b = append(b, '\t')
			}
			b = append(b, '?')
			b = append(b, v...)
		}
		b = append(b, '\n')
	}
	wr.buf = b
	_, wr.err = wr.w.Write(b)
	return wr, wr.err
}

const xmlHead = `<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
<head>
`

// Write writes one row: row[i] is the value of the i-th variable, the
// zero Term when it is unbound. A term the format cannot hold (text XML
// 1.0 forbids, a malformed term) is an error naming it.
func (w *Writer) Write(row []rdf.Term) error {
	if w.err != nil {
		return w.err
	}
	if len(row) != len(w.vars) {
		w.err = &TermError{Msg: "a row of " + strconv.Itoa(len(row)) + " values for " + strconv.Itoa(len(w.vars)) + " variables"}
		return w.err
	}
	b := w.buf[:0]
	var err error
	switch w.f {
	case JSON:
		b, err = w.appendJSONRow(b, row)
	case XML:
		b, err = w.appendXMLRow(b, row)
	case CSV:
		for i, t := range row {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCSVTerm(b, t)
		}
		b = append(b, "\r\n"...)
	case TSV:
		for i, t := range row {
			if i > 0 {
				b = append(b, '\t')
			}
			if b, err = appendTSVTerm(b, t); err != nil {
				break
			}
		}
		b = append(b, '\n')
	}
	if err != nil {
		w.err = err
		return err
	}
	w.buf = b
	w.n++
	_, w.err = w.w.Write(b)
	return w.err
}

// Close writes the tail of the result and flushes it.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	switch w.f {
	case JSON:
		w.w.WriteString("]}}\n")
	case XML:
		w.w.WriteString("</results>\n</sparql>\n")
	}
	w.err = w.w.Flush()
	return w.err
}

// WriteBoolean writes the answer of an ASK query in JSON or XML. CSV and
// TSV have no form for it: asking for one is an error.
func WriteBoolean(w io.Writer, f Format, b bool) error {
	v := strconv.FormatBool(b)
	var err error
	switch f {
	case JSON:
		_, err = io.WriteString(w, `{"head":{},"boolean":`+v+"}\n")
	case XML:
		_, err = io.WriteString(w, xmlHead+"</head>\n<boolean>"+v+"</boolean>\n</sparql>\n")
	default:
		return &FormatError{Name: f.String(), Boolean: true}
	}
	return err
}

func (w *Writer) appendJSONRow(b []byte, row []rdf.Term) ([]byte, error) {
	if w.n > 0 {
		b = append(b, ",\n"...)
	}
	b = append(b, '{')
	first := true
	for i, t := range row {
		if t == (rdf.Term{}) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, w.vars[i])
		b = append(b, `:{"type":`...)
		switch t.Kind {
		case rdf.IRI:
			b = append(b, `"uri","value":`...)
			b = appendJSONString(b, t.Value)
		case rdf.Blank:
			b = append(b, `"bnode","value":`...)
			b = appendJSONString(b, t.Value)
		default:
			lex, err := lexical(t)
			if err != nil {
				return b, err
			}
			b = append(b, `"literal","value":`...)
			b = appendJSONString(b, lex)
			switch {
			case t.Lang != "":
				b = append(b, `,"xml:lang":`...)
				b = appendJSONString(b, t.Lang)
			case t.Datatype != "" && t.Datatype != rdf.XSDString:
				b = append(b, `,"datatype":`...)
				b = appendJSONString(b, t.Datatype)
			}
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

func (w *Writer) appendXMLRow(b []byte, row []rdf.Term) ([]byte, error) {
	b = append(b, "<result>"...)
	for i, t := range row {
		if t == (rdf.Term{}) {
			continue
		}
		b = append(b, `<binding name="`...)
		b = appendXMLText(b, w.vars[i], true)
		b = append(b, `">`...)
		var text string
		switch t.Kind {
		case rdf.IRI:
			b, text = append(b, "<uri>"...), t.Value
		case rdf.Blank:
			b, text = append(b, "<bnode>"...), t.Value
		default:
			lex, err := lexical(t)
			if err != nil {
				return b, err
			}
			b, text = append(b, "<literal"...), lex
			switch {
			case t.Lang != "":
				b = append(b, ` xml:lang="`...)
				b = appendXMLText(b, t.Lang, true)
				b = append(b, '"')
			case t.Datatype != "" && t.Datatype != rdf.XSDString:
				b = append(b, ` datatype="`...)
				b = appendXMLText(b, t.Datatype, true)
				b = append(b, '"')
			}
			b = append(b, '>')
		}
		if !xmlChars(text) {
			return b, &TermError{Term: t, Msg: "holds a character XML 1.0 cannot carry"}
		}
		b = appendXMLText(b, text, false)
		switch t.Kind {
		case rdf.IRI:
			b = append(b, "</uri>"...)
		case rdf.Blank:
			b = append(b, "</bnode>"...)
		default:
			b = append(b, "</literal>"...)
		}
		b = append(b, "</binding>"...)
	}
	return append(b, "</result>\n"...), nil
}

// lexical returns a literal's lexical form, unescaped when the term is
// Escaped (as N-Triples writes it).
func lexical(t rdf.Term) (string, error) {
	if !t.Escaped {
		if !utf8.ValidString(t.Value) {
			return "", &TermError{Term: t, Msg: "is not valid UTF-8"}
		}
		return t.Value, nil
	}
	qs, _, err := rdf.Parse([]byte(`<x:s> <x:p> "`+t.Value+`" .`), rdf.NTriples, "")
	if err != nil || len(qs) != 1 {
		return "", &TermError{Term: t, Msg: "has a malformed escaped lexical form"}
	}
	return qs[0].O.Value, nil
}

func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			b = append(b, `\u`...)
			b = append(b, "0000"[len(strconv.FormatInt(int64(r), 16)):]...)
			b = strconv.AppendInt(b, int64(r), 16)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// xmlChars reports whether s holds only characters XML 1.0 allows.
func xmlChars(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0xD800 && r <= 0xDFFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError {
			return false
		}
	}
	return true
}

func appendXMLText(b []byte, s string, attr bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			b = append(b, "&lt;"...)
		case c == '>':
			b = append(b, "&gt;"...)
		case c == '&':
			b = append(b, "&amp;"...)
		case c == '"' && attr:
			b = append(b, "&quot;"...)
		case c == '\r':
			b = append(b, "&#13;"...)
		case (c == '\n' || c == '\t') && attr:
			b = append(b, "&#"...)
			b = strconv.AppendInt(b, int64(c), 10)
			b = append(b, ';')
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendCSVTerm appends a term as CSV writes it: the IRI, "_:" and the
// label, or the lexical form alone.
func appendCSVTerm(b []byte, t rdf.Term) []byte {
	switch {
	case t == (rdf.Term{}):
		return b
	case t.Kind == rdf.Blank:
		return appendCSVField(b, "_:"+t.Value)
	case t.Kind == rdf.Literal:
		lex, err := lexical(t)
		if err != nil {
			lex = t.Value
		}
		return appendCSVField(b, lex)
	}
	return appendCSVField(b, t.Value)
}

func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\",\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// appendTSVTerm appends a term in the Turtle form TSV uses: <iri>, _:label,
// a quoted literal with its tag or datatype, or a bare number or boolean
// where Turtle writes one so.
func appendTSVTerm(b []byte, t rdf.Term) ([]byte, error) {
	switch {
	case t == (rdf.Term{}):
		return b, nil
	case t.Kind == rdf.IRI:
		if strings.ContainsAny(t.Value, "<>\"{}|^`\\\t\n\r ") {
			return b, &TermError{Term: t, Msg: "is not an IRI TSV can write"}
		}
		b = append(b, '<')
		b = append(b, t.Value...)
		return append(b, '>'), nil
	case t.Kind == rdf.Blank:
		b = append(b, "_:"...)
		return append(b, t.Value...), nil
	}
	lex, err := lexical(t)
	if err != nil {
		return b, err
	}
	if t.Lang == "" && bareLiteral(lex, t.Datatype) {
		return append(b, lex...), nil
	}
	b = append(b, '"')
	for _, r := range lex {
		switch r {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	b = append(b, '"')
	switch {
	case t.Lang != "":
		b = append(b, '@')
		b = append(b, t.Lang...)
	case t.Datatype != "" && t.Datatype != rdf.XSDString:
		b = append(b, "^^<"...)
		b = append(b, t.Datatype...)
		b = append(b, '>')
	}
	return b, nil
}

// bareLiteral reports whether Turtle writes the literal lex^^dt without
// quotes: an integer, decimal or double in Turtle's own syntax for it, or
// a boolean true or false.
func bareLiteral(lex, dt string) bool {
	switch dt {
	case rdf.XSDBoolean:
		return lex == "true" || lex == "false"
	case rdf.XSDInteger:
		return turtleNumber(lex) == 'i'
	case rdf.XSDDecimal:
		return turtleNumber(lex) == 'd'
	case rdf.XSDDouble:
		return turtleNumber(lex) == 'e'
	}
	return false
}

// turtleNumber returns 'i', 'd' or 'e' when s is a Turtle INTEGER, DECIMAL
// or DOUBLE, else 0.
func turtleNumber(s string) byte {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	digits := func() int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		d := n
		s = s[n:]
		return d
	}
	whole := digits()
	kind := byte('i')
	if s != "" && s[0] == '.' {
		s = s[1:]
		frac := digits()
		if whole == 0 && frac == 0 {
			return 0
		}
		kind = 'd'
		if frac == 0 && (s == "" || s[0] != 'e' && s[0] != 'E') {
			return 0
		}
	} else if whole == 0 {
		return 0
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if digits() == 0 {
			return 0
		}
		kind = 'e'
	}
	if s != "" {
		return 0
	}
	return kind
}
