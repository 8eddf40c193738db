package store

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/rdf"
)

// Normalize returns the form of t the store keeps: an Escaped lexical form
// unescaped, a literal's empty datatype as xsd:string, a tagged literal's
// as rdf:langString and its language tag in lower case (tags are
// case-insensitive). Terms equal in RDF normalize to one value.
func Normalize(t rdf.Term) rdf.Term {
	if t.Kind != rdf.Literal {
		return t
	}
	if t.Escaped {
		t.Value, t.Escaped = unescape(t.Value), false
	}
	switch {
	case t.Lang != "":
		t.Datatype = rdf.RDFLangString
		t.Lang = strings.ToLower(t.Lang)
	case t.Datatype == "":
		t.Datatype = rdf.XSDString
	}
	return t
}

// unescape decodes the escapes N-Triples writes in a string: \t \b \n \r
// \f \" \' \\ and \uXXXX, \UXXXXXXXX. A malformed escape is kept as text.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		e := s[i+1]
		if r, ok := echars[e]; ok {
			b.WriteByte(r)
			i++
			continue
		}
		n := map[byte]int{'u': 4, 'U': 8}[e]
		if n > 0 && i+2+n <= len(s) {
			if v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
				i += 1 + n
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

var echars = map[byte]byte{'t': '\t', 'b': '\b', 'n': '\n', 'r': '\r', 'f': '\f', '"': '"', '\'': '\'', '\\': '\\'}
