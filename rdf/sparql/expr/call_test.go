package expr

import (
	"errors"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
)

// callCase is a call and its expected result: a term as tm reads it, or
// errWant.
type callCase struct {
	name string
	args []string
	want string
}

func runCalls(t *testing.T, env *Env, cases []callCase) {
	t.Helper()
	for _, c := range cases {
		got, err := Call(c.name, tms(t, c.args), env)
		check(t, c.name+"("+strings.Join(c.args, ", ")+")", got, err, c.want)
	}
}

func TestCallStrings(t *testing.T) {
	// The examples of section 17.4.3 and, where marked, of XPath
	// Functions and Operators.
	runCalls(t, nil, []callCase{
		{"STRLEN", []string{`"chat"`}, `4`},
		{"STRLEN", []string{`"chat"@en`}, `4`},
		{"STRLEN", []string{`"chat"^^xsd:string`}, `4`},
		{"STRLEN", []string{`"食べ物"`}, `3`}, // characters, not bytes
		{"STRLEN", []string{`"𝄞"`}, `1`},   // beyond the BMP
		{"STRLEN", []string{`1`}, errWant},
		{"SUBSTR", []string{`"foobar"`, `4`}, `"bar"`},
		{"SUBSTR", []string{`"foobar"@en`, `4`}, `"bar"@en`},
		{"SUBSTR", []string{`"foobar"^^xsd:string`, `4`}, `"bar"^^xsd:string`},
		{"SUBSTR", []string{`"foobar"`, `4`, `1`}, `"b"`},
		{"SUBSTR", []string{`"foobar"@en`, `4`, `1`}, `"b"@en`},
		{"SUBSTR", []string{`"motor car"`, `6`}, `" car"`},     // XPath
		{"SUBSTR", []string{`"metadata"`, `4`, `3`}, `"ada"`},  // XPath
		{"SUBSTR", []string{`"12345"`, `1.5`, `2.6`}, `"234"`}, // XPath
		{"SUBSTR", []string{`"12345"`, `0`, `3`}, `"12"`},      // XPath
		{"SUBSTR", []string{`"12345"`, `5`, `-3`}, `""`},       // XPath
		{"SUBSTR", []string{`"12345"`, `-3`, `5`}, `"1"`},      // XPath
		{"SUBSTR", []string{`"12345"`, `"NaN"^^xsd:double`, `3`}, `""`},
		{"SUBSTR", []string{`"12345"`, `-42`, `"INF"^^xsd:double`}, `"12345"`},
		{"SUBSTR", []string{`"12345"`, `"-INF"^^xsd:double`, `"INF"^^xsd:double`}, `""`},
		{"SUBSTR", []string{`"𝄞ab"`, `2`}, `"ab"`},
		{"SUBSTR", []string{`"foobar"`, `"4"`}, errWant},
		{"SUBSTR", []string{`ex:foobar`, `4`}, errWant},
		{"UCASE", []string{`"foo"`}, `"FOO"`},
		{"UCASE", []string{`"foo"@en`}, `"FOO"@en`},
		{"UCASE", []string{`"foo"^^xsd:string`}, `"FOO"^^xsd:string`},
		{"LCASE", []string{`"BAR"`}, `"bar"`},
		{"LCASE", []string{`"BAR"@en`}, `"bar"@en`},
		{"LCASE", []string{`ex:BAR`}, errWant},
		{"STRSTARTS", []string{`"foobar"`, `"foo"`}, `true`},
		{"STRSTARTS", []string{`"foobar"@en`, `"foo"@en`}, `true`},
		{"STRSTARTS", []string{`"foobar"^^xsd:string`, `"foo"^^xsd:string`}, `true`},
		{"STRSTARTS", []string{`"foobar"^^xsd:string`, `"foo"`}, `true`},
		{"STRSTARTS", []string{`"foobar"`, `"foo"^^xsd:string`}, `true`},
		{"STRSTARTS", []string{`"foobar"@en`, `"foo"`}, `true`},
		{"STRSTARTS", []string{`"foobar"@en`, `"foo"^^xsd:string`}, `true`},
		{"STRSTARTS", []string{`"foobar"`, `"bar"`}, `false`},
		{"STRENDS", []string{`"foobar"`, `"bar"`}, `true`},
		{"STRENDS", []string{`"foobar"@en`, `"bar"@en`}, `true`},
		{"STRENDS", []string{`"foobar"@en`, `"bar"`}, `true`},
		{"CONTAINS", []string{`"foobar"`, `"bar"`}, `true`},
		{"CONTAINS", []string{`"foobar"@en`, `"foo"@en`}, `true`},
		{"CONTAINS", []string{`"foobar"@en`, `"bar"^^xsd:string`}, `true`},
		{"CONTAINS", []string{`"foobar"`, `"baz"`}, `false`},
		// Argument compatibility (17.4.3.1.1): the second may not carry
		// a tag the first has not.
		{"CONTAINS", []string{`"abc"`, `"b"@ja`}, errWant},
		{"CONTAINS", []string{`"abc"^^xsd:string`, `"b"@ja`}, errWant},
		{"CONTAINS", []string{`"abc"@fr`, `"b"@ja`}, errWant},
		{"CONTAINS", []string{`"abc"@en`, `"b"@EN`}, `true`},
		{"CONTAINS", []string{`"abc"`, `1`}, errWant},
		{"STRBEFORE", []string{`"abc"`, `"b"`}, `"a"`},
		{"STRBEFORE", []string{`"abc"@en`, `"bc"`}, `"a"@en`},
		{"STRBEFORE", []string{`"abc"@en`, `"b"@cy`}, errWant},
		{"STRBEFORE", []string{`"abc"^^xsd:string`, `""`}, `""^^xsd:string`},
		{"STRBEFORE", []string{`"abc"`, `"xyz"`}, `""`},
		{"STRBEFORE", []string{`"abc"@en`, `"z"@en`}, `""`},
		{"STRBEFORE", []string{`"abc"@en`, `"z"`}, `""`},
		{"STRBEFORE", []string{`"abc"@en`, `""@en`}, `""@en`},
		{"STRBEFORE", []string{`"abc"@en`, `""`}, `""@en`},
		{"STRAFTER", []string{`"abc"`, `"b"`}, `"c"`},
		{"STRAFTER", []string{`"abc"@en`, `"ab"`}, `"c"@en`},
		{"STRAFTER", []string{`"abc"@en`, `"b"@cy`}, errWant},
		{"STRAFTER", []string{`"abc"^^xsd:string`, `""`}, `"abc"^^xsd:string`},
		{"STRAFTER", []string{`"abc"`, `"xyz"`}, `""`},
		{"STRAFTER", []string{`"abc"@en`, `"z"@en`}, `""`},
		{"STRAFTER", []string{`"abc"@en`, `"z"`}, `""`},
		{"STRAFTER", []string{`"abc"@en`, `""@en`}, `"abc"@en`},
		{"STRAFTER", []string{`"abc"@en`, `""`}, `"abc"@en`},
		{"ENCODE_FOR_URI", []string{`"Los Angeles"`}, `"Los%20Angeles"`},
		{"ENCODE_FOR_URI", []string{`"Los Angeles"@en`}, `"Los%20Angeles"`},
		{"ENCODE_FOR_URI", []string{`"Los Angeles"^^xsd:string`}, `"Los%20Angeles"`},
		{"ENCODE_FOR_URI", []string{`"http://www.example.com/00/Weather/CA/Los%20Angeles#ocean"`}, `"http%3A%2F%2Fwww.example.com%2F00%2FWeather%2FCA%2FLos%2520Angeles%23ocean"`}, // XPath
		{"ENCODE_FOR_URI", []string{`"~bébé"`}, `"~b%C3%A9b%C3%A9"`},         // XPath
		{"ENCODE_FOR_URI", []string{`"100% organic"`}, `"100%25%20organic"`}, // XPath
		{"CONCAT", []string{`"foo"`, `"bar"`}, `"foobar"`},
		{"CONCAT", []string{`"foo"@en`, `"bar"@en`}, `"foobar"@en`},
		{"CONCAT", []string{`"foo"^^xsd:string`, `"bar"^^xsd:string`}, `"foobar"^^xsd:string`},
		{"CONCAT", []string{`"foo"`, `"bar"^^xsd:string`}, `"foobar"`},
		{"CONCAT", []string{`"foo"@en`, `"bar"`}, `"foobar"`},
		{"CONCAT", []string{`"foo"@en`, `"bar"^^xsd:string`}, `"foobar"`},
		{"CONCAT", []string{`"foo"@en`, `"bar"@fr`}, `"foobar"`},
		{"CONCAT", nil, `""`},
		{"CONCAT", []string{`"foo"`, `7`}, errWant},
		{"LANGMATCHES", []string{`"fr"`, `"FR"`}, `true`},
		{"LANGMATCHES", []string{`"fr-BE"`, `"FR"`}, `true`},
		{"LANGMATCHES", []string{`"fra"`, `"fr"`}, `false`},
		{"LANGMATCHES", []string{`"en"`, `"*"`}, `true`},
		{"LANGMATCHES", []string{`""`, `"*"`}, `false`},
		{"LANGMATCHES", []string{`"en"@en`, `"*"`}, errWant},
		{"REGEX", []string{`"Alice"`, `"^ali"`, `"i"`}, `true`},
		{"REGEX", []string{`"Bob"`, `"^ali"`, `"i"`}, `false`},
		{"REGEX", []string{`"abracadabra"`, `"bra"`}, `true`},    // XPath
		{"REGEX", []string{`"abracadabra"`, `"^a.*a$"`}, `true`}, // XPath
		{"REGEX", []string{`"abracadabra"`, `"^bra"`}, `false`},  // XPath
		{"REGEX", []string{`"a.c"`, `"."`, `"q"`}, `true`},       // q: the pattern is text
		{"REGEX", []string{`"abc"`, `"."`, `"q"`}, `false`},
		{"REGEX", []string{`"chat"@fr`, `"^ch"`}, `true`},
		{"REGEX", []string{`"abc"`, `"("`}, errWant},
		{"REGEX", []string{`"abc"`, `"a"`, `"z"`}, errWant},
		{"REGEX", []string{`"abc"`, `"a"@en`}, errWant},
		{"REGEX", []string{`ex:abc`, `"a"`}, errWant},
		{"REPLACE", []string{`"abcd"`, `"b"`, `"Z"`}, `"aZcd"`},
		{"REPLACE", []string{`"abab"`, `"B"`, `"Z"`, `"i"`}, `"aZaZ"`},
		{"REPLACE", []string{`"abab"`, `"B."`, `"Z"`, `"i"`}, `"aZb"`},
		{"REPLACE", []string{`"abracadabra"`, `"bra"`, `"*"`}, `"a*cada*"`},               // XPath
		{"REPLACE", []string{`"abracadabra"`, `"a.*a"`, `"*"`}, `"*"`},                    // XPath
		{"REPLACE", []string{`"abracadabra"`, `"a.*?a"`, `"*"`}, `"*c*bra"`},              // XPath
		{"REPLACE", []string{`"abracadabra"`, `"a"`, `""`}, `"brcdbr"`},                   // XPath
		{"REPLACE", []string{`"abracadabra"`, `"a(.)"`, `"a$1$1"`}, `"abbraccaddabbra"`},  // XPath
		{"REPLACE", []string{`"abracadabra"`, `".*?"`, `"$1"`}, errWant},                  // XPath: matches ""
		{"REPLACE", []string{`"AAAA"`, `"A+"`, `"b"`}, `"b"`},                             // XPath
		{"REPLACE", []string{`"AAAA"`, `"A+?"`, `"b"`}, `"bbbb"`},                         // XPath
		{"REPLACE", []string{`"darted"`, `"^(.*?)d(.*)$"`, `"$1c$2"`}, `"carted"`},        // XPath
		{"REPLACE", []string{`"abcd"`, `"(ab)|(a)"`, `"[1=$1][2=$2]"`}, `"[1=ab][2=]cd"`}, // SPARQL suite, replace03
		{"REPLACE", []string{`"abc"`, `"b"`, `"\\$\\\\"`}, `"a$\\c"`},
		{"REPLACE", []string{`"abc"`, `"(b)"`, `"$12"`}, `"ab2c"`}, // one group: $1 then "2"
		{"REPLACE", []string{`"abc"`, `"b"`, `"$"`}, errWant},
		{"REPLACE", []string{`"abc"`, `"b"`, `"\\n"`}, errWant},
		{"REPLACE", []string{`"abc"@en`, `"b"`, `"x"`}, `"axc"@en`},
		{"REPLACE", []string{`"abc"`, `"b"`, `"x"@en`}, errWant},
		{"STRLANG", []string{`"chat"`, `"en"`}, `"chat"@en`},
		{"STRLANG", []string{`"chat"`, `"en-US"`}, `"chat"@en-us`},
		{"STRLANG", []string{`"chat"@fr`, `"en"`}, errWant},
		{"STRLANG", []string{`"chat"`, `""`}, errWant},
		{"STRLANG", []string{`"chat"`, `"not a tag"`}, errWant},
		{"STRDT", []string{`"123"`, `xsd:integer`}, `123`},
		{"STRDT", []string{`"iiii"`, `<http://example/romanNumeral>`}, `"iiii"^^<http://example/romanNumeral>`},
		{"STRDT", []string{`"abc"^^xsd:string`, `xsd:string`}, `"abc"`},
		{"STRDT", []string{`"chat"@en`, `xsd:string`}, errWant},
		{"STRDT", []string{`"chat"`, `"xsd:string"`}, errWant},
		{"STRDT", []string{`"chat"`, `rdf:langString`}, errWant},
	})
}

func TestCallTerms(t *testing.T) {
	env := &Env{Base: "http://example.org/dir/"}
	runCalls(t, env, []callCase{
		{"STR", []string{`"chat"`}, `"chat"`},
		{"STR", []string{`"chat"@en`}, `"chat"`},
		{"STR", []string{`<http://example/>`}, `"http://example/"`},
		{"STR", []string{`"01"^^xsd:integer`}, `"01"`}, // the lexical form as written
		{"STR", []string{`_:b`}, errWant},
		{"LANG", []string{`"cat"@en`}, `"en"`},
		{"LANG", []string{`"cat"`}, `""`},
		{"LANG", []string{`ex:cat`}, errWant},
		{"DATATYPE", []string{`"abc"`}, `xsd:string`},
		{"DATATYPE", []string{`"abc"@en`}, `rdf:langString`},
		{"DATATYPE", []string{`1`}, `xsd:integer`},
		{"DATATYPE", []string{`"x"^^ex:t`}, `ex:t`},
		{"DATATYPE", []string{`ex:x`}, errWant},
		{"IRI", []string{`"http://example/"`}, `<http://example/>`},
		{"IRI", []string{`<http://example/x>`}, `<http://example/x>`},
		{"URI", []string{`"x"`}, `<http://example.org/dir/x>`},
		{"IRI", []string{`"../y"`}, `<http://example.org/y>`},
		{"IRI", []string{`"x"@en`}, errWant},
		{"IRI", []string{`_:b`}, errWant},
		{"ISIRI", []string{`ex:a`}, `true`},
		{"ISURI", []string{`"a"`}, `false`},
		{"ISBLANK", []string{`_:b`}, `true`},
		{"ISBLANK", []string{`ex:a`}, `false`},
		{"ISLITERAL", []string{`"a"@en`}, `true`},
		{"ISLITERAL", []string{`_:b`}, `false`},
		{"ISNUMERIC", []string{`12`}, `true`},
		{"ISNUMERIC", []string{`"12"`}, `false`},
		{"ISNUMERIC", []string{`"1200"^^xsd:byte`}, `false`},
		{"ISNUMERIC", []string{`<http://example/>`}, `false`},
		{"ISNUMERIC", []string{`"NaN"^^xsd:double`}, `true`},
		{"SAMETERM", []string{`1`, `1`}, `true`},
		{"SAMETERM", []string{`1`, `1.0`}, `false`},
		{"ABS", []string{`1`}, `1`},
		{"ABS", []string{`-1.5`}, `1.5`},
		{"ABS", []string{`"-3"^^xsd:int`}, `3`}, // derived types give xsd:integer
		{"ABS", []string{`-2e0`}, `"2.0E0"^^xsd:double`},
		{"ABS", []string{`"-2"`}, errWant},
		{"ROUND", []string{`2.4999`}, `2.0`},
		{"ROUND", []string{`2.5`}, `3.0`},
		{"ROUND", []string{`-2.5`}, `-2.0`},
		{"ROUND", []string{`-1.6`}, `-2.0`},
		{"ROUND", []string{`7`}, `7`},
		{"ROUND", []string{`-2.5e0`}, `"-2.0E0"^^xsd:double`},
		{"ROUND", []string{`0.5e0`}, `"1.0E0"^^xsd:double`},
		{"CEIL", []string{`10.5`}, `11.0`},
		{"CEIL", []string{`-10.5`}, `-10.0`},
		{"CEIL", []string{`"1.2"^^xsd:float`}, `"2.0E0"^^xsd:float`},
		{"FLOOR", []string{`10.5`}, `10.0`},
		{"FLOOR", []string{`-10.5`}, `-11.0`},
		{"FLOOR", []string{`-3`}, `-3`},
		// FIPS 180 and RFC 1321 test vectors for "abc".
		{"MD5", []string{`"abc"`}, `"900150983cd24fb0d6963f7d28e17f72"`},
		{"MD5", []string{`"abc"^^xsd:string`}, `"900150983cd24fb0d6963f7d28e17f72"`},
		{"SHA1", []string{`"abc"`}, `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
		{"SHA256", []string{`"abc"`}, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{"SHA384", []string{`"abc"`}, `"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"`},
		{"SHA512", []string{`"abc"`}, `"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"`},
		{"MD5", []string{`"abc"@en`}, errWant},
		{"SHA1", []string{`1`}, errWant},
		// Arity and names.
		{"STRLEN", nil, errWant},
		{"STRLEN", []string{`"a"`, `"b"`}, errWant},
		{"SUBSTR", []string{`"a"`, `1`, `1`, `1`}, errWant},
		{"NOSUCH", []string{`"a"`}, errWant},
		{"strlen", []string{`"a"`}, errWant}, // names are upper case
		{"STR", []string{``}, errWant},
	})
}

func TestCallDateTime(t *testing.T) {
	// Section 17.4.5's examples, and the SPARQL suite's data where noted.
	const d = `"2011-01-10T14:45:13.815-05:00"^^xsd:dateTime`
	runCalls(t, nil, []callCase{
		{"YEAR", []string{d}, `2011`},
		{"MONTH", []string{d}, `1`},
		{"DAY", []string{d}, `10`},
		{"HOURS", []string{d}, `14`},
		{"MINUTES", []string{d}, `45`},
		{"SECONDS", []string{d}, `13.815`},
		{"TIMEZONE", []string{d}, `"-PT5H"^^xsd:dayTimeDuration`},
		{"TIMEZONE", []string{`"2011-01-10T14:45:13.815Z"^^xsd:dateTime`}, `"PT0S"^^xsd:dayTimeDuration`},
		{"TIMEZONE", []string{`"2011-01-10T14:45:13.815"^^xsd:dateTime`}, errWant},
		{"TIMEZONE", []string{`"2011-01-10T14:45:13+05:30"^^xsd:dateTime`}, `"PT5H30M"^^xsd:dayTimeDuration`},
		{"TIMEZONE", []string{`"2011-01-10T14:45:13-00:30"^^xsd:dateTime`}, `"-PT30M"^^xsd:dayTimeDuration`},
		{"TZ", []string{d}, `"-05:00"`},
		{"TZ", []string{`"2011-01-10T14:45:13.815Z"^^xsd:dateTime`}, `"Z"`},
		{"TZ", []string{`"2011-01-10T14:45:13.815"^^xsd:dateTime`}, `""`},
		{"SECONDS", []string{`"2010-06-21T11:28:01Z"^^xsd:dateTime`}, `1.0`}, // seconds-01
		{"YEAR", []string{`"-0044-03-15T12:00:00"^^xsd:dateTime`}, `-44`},
		{"YEAR", []string{`"12345-01-01T00:00:00Z"^^xsd:dateTime`}, `12345`},
		// 24:00:00 is the first instant of the next day.
		{"YEAR", []string{`"1999-12-31T24:00:00"^^xsd:dateTime`}, `2000`},
		{"DAY", []string{`"1999-12-31T24:00:00"^^xsd:dateTime`}, `1`},
		{"HOURS", []string{`"1999-12-31T24:00:00"^^xsd:dateTime`}, `0`},
		{"YEAR", []string{`"2011-01-10"^^xsd:date`}, errWant},
		{"YEAR", []string{`"2011-13-10T00:00:00"^^xsd:dateTime`}, errWant},
		{"YEAR", []string{`"2011-01-10T14:45:13"`}, errWant},
	})
}

func TestCallCasts(t *testing.T) {
	const xs = rdf.XSDNS
	runCalls(t, nil, []callCase{
		// From strings: the lexical form must be the target's.
		{xs + "integer", []string{`"  12 "`}, `12`},
		{xs + "integer", []string{`"+007"`}, `7`},
		{xs + "integer", []string{`"1.0"`}, errWant},
		{xs + "integer", []string{`"1E0"`}, errWant},
		{xs + "decimal", []string{`"+33.3300"`}, `33.33`},
		{xs + "decimal", []string{`"1"`}, `1.0`},
		{xs + "decimal", []string{`"1e0"`}, errWant},
		{xs + "double", []string{`"-10.2E3"`}, `"-1.02E4"^^xsd:double`},
		{xs + "double", []string{`"INF"`}, `"INF"^^xsd:double`},
		{xs + "double", []string{`"1"`}, `"1.0E0"^^xsd:double`},
		{xs + "float", []string{`"1.25"`}, `"1.25E0"^^xsd:float`},
		{xs + "float", []string{`"0.1"`}, `"1.0E-1"^^xsd:float`},
		{xs + "boolean", []string{`"1"`}, `true`},
		{xs + "boolean", []string{`"false"`}, `false`},
		{xs + "boolean", []string{`"yes"`}, errWant},
		{xs + "dateTime", []string{`"2002-10-10T17:00:00Z"`}, `"2002-10-10T17:00:00Z"^^xsd:dateTime`},
		{xs + "dateTime", []string{`"2002-10-10"`}, errWant},
		{xs + "string", []string{`" a "`}, `" a "`},
		{xs + "byte", []string{`"127"`}, `"127"^^xsd:byte`},
		{xs + "byte", []string{`"128"`}, errWant},
		// From numbers (XPath 17.1: truncation toward zero; strings of
		// doubles without an exponent from 1e-6 to 1e6).
		{xs + "integer", []string{`2.9`}, `2`},
		{xs + "integer", []string{`-2.9`}, `-2`},
		{xs + "integer", []string{`"-7.875"^^xsd:float`}, `-7`},
		{xs + "integer", []string{`"INF"^^xsd:double`}, errWant},
		{xs + "integer", []string{`"NaN"^^xsd:double`}, errWant},
		{xs + "integer", []string{`"01"^^xsd:integer`}, `1`},
		{xs + "decimal", []string{`1`}, `1.0`},
		{xs + "decimal", []string{`"1.25"^^xsd:float`}, `1.25`},
		{xs + "decimal", []string{`0.1e0`}, `0.1`},
		{xs + "double", []string{`1`}, `"1.0E0"^^xsd:double`},
		{xs + "double", []string{`"1.25"^^xsd:float`}, `"1.25E0"^^xsd:double`},
		{xs + "float", []string{`0.1e0`}, `"1.0E-1"^^xsd:float`},
		{xs + "boolean", []string{`0.0`}, `false`},
		{xs + "boolean", []string{`"NaN"^^xsd:double`}, `false`},
		{xs + "boolean", []string{`-2`}, `true`},
		{xs + "string", []string{`1.0`}, `"1"`},
		{xs + "string", []string{`-2.50`}, `"-2.5"`},
		{xs + "string", []string{`1e0`}, `"1"`},
		{xs + "string", []string{`0.5e0`}, `"0.5"`},
		{xs + "string", []string{`1e7`}, `"1.0E7"`},
		{xs + "string", []string{`1e-7`}, `"1.0E-7"`},
		{xs + "string", []string{`"-0"^^xsd:double`}, `"-0"`},
		{xs + "string", []string{`"INF"^^xsd:float`}, `"INF"`},
		{xs + "string", []string{`"0"^^xsd:boolean`}, `"false"`},
		{xs + "string", []string{`"300"^^xsd:byte`}, errWant}, // ill-formed
		{xs + "dateTime", []string{`1`}, errWant},
		{xs + "byte", []string{`300`}, errWant},
		{xs + "nonNegativeInteger", []string{`-1.5`}, errWant},
		{xs + "nonNegativeInteger", []string{`-0.5`}, `"0"^^xsd:nonNegativeInteger`},
		// From booleans, date-times, IRIs and the rest.
		{xs + "integer", []string{`true`}, `1`},
		{xs + "decimal", []string{`false`}, `0.0`},
		{xs + "double", []string{`true`}, `"1.0E0"^^xsd:double`},
		{xs + "dateTime", []string{`true`}, errWant},
		{xs + "string", []string{`"2002-10-10T17:00:00Z"^^xsd:dateTime`}, `"2002-10-10T17:00:00Z"`},
		{xs + "integer", []string{`"2002-10-10T17:00:00Z"^^xsd:dateTime`}, errWant},
		{xs + "string", []string{`<http://example/z>`}, `"http://example/z"`},
		{xs + "integer", []string{`<http://example/z>`}, errWant},
		{xs + "string", []string{`_:b`}, errWant},
		{xs + "string", []string{`"chat"@en`}, errWant},
		{xs + "string", []string{`"x"^^ex:t`}, `"x"`},
		{xs + "integer", []string{`"1"^^ex:t`}, errWant},
		{xs + "integer", []string{`"1"`, `"2"`}, errWant},
		{xs + "date", []string{`"2002-10-10"`}, errWant}, // not a cast SPARQL defines
	})
}

func TestCallEnv(t *testing.T) {
	now := time.Date(2011, 1, 10, 14, 45, 13, 815e6, time.FixedZone("", -5*3600))
	n := 0
	env := &Env{
		Now:  now,
		Rand: rand.New(rand.NewSource(1)),
		NewBNode: func() rdf.Term {
			n++
			return rdf.NewBlank("n" + string(rune('0'+n)))
		},
		LabelledBNode: func(label string) rdf.Term { return rdf.NewBlank("l-" + label) },
	}
	runCalls(t, env, []callCase{
		{"NOW", nil, `"2011-01-10T14:45:13.815-05:00"^^xsd:dateTime`},
		{"BNODE", nil, `_:n1`},
		{"BNODE", nil, `_:n2`},
		{"BNODE", []string{`"x"`}, `_:l-x`},
		{"BNODE", []string{`"x"@en`}, errWant},
	})
	for range 100 {
		r, err := Call("RAND", nil, env)
		if err != nil || r.Datatype != rdf.XSDDouble {
			t.Fatalf("RAND() = %v, %v", r, err)
		}
		if lo, _ := Compare(">=", r, tm(t, `0.0`)); lo != trueTerm {
			t.Fatalf("RAND() = %v, below 0", r)
		}
		if hi, _ := Compare("<", r, tm(t, `1.0`)); hi != trueTerm {
			t.Fatalf("RAND() = %v, not below 1", r)
		}
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	u1, err1 := Call("UUID", nil, env)
	u2, err2 := Call("UUID", nil, env)
	s, err3 := Call("STRUUID", nil, env)
	switch {
	case err1 != nil || err2 != nil || err3 != nil:
		t.Fatal(err1, err2, err3)
	case u1.Kind != rdf.IRI || !strings.HasPrefix(u1.Value, "urn:uuid:") || !uuid.MatchString(u1.Value[9:]):
		t.Errorf("UUID() = %v", u1)
	case u1 == u2:
		t.Errorf("UUID() twice = %v", u1)
	case s.Kind != rdf.Literal || s.Datatype != rdf.XSDString || !uuid.MatchString(s.Value):
		t.Errorf("STRUUID() = %v", s)
	}
	// Without an Env the functions that need one are errors.
	for _, name := range []string{"NOW", "RAND", "BNODE"} {
		if _, err := Call(name, nil, nil); !errors.Is(err, ErrType) {
			t.Errorf("%s() without Env: %v, want a type error", name, err)
		}
	}
}

func TestCallKeepsArgs(t *testing.T) {
	args := []rdf.Term{{Kind: rdf.Literal, Value: "a"}}
	if got, err := Call("STRLEN", args, nil); err != nil || got != tm(t, `1`) {
		t.Fatalf("STRLEN of a literal without datatype = %v, %v", got, err)
	}
	if args[0].Datatype != "" {
		t.Error("Call changed its arguments")
	}
}

func TestRegexpCache(t *testing.T) {
	env := &Env{}
	for i := range maxCachedRegexps + 10 {
		pattern := rdf.NewLiteral(strings.Repeat("a", i+1), "")
		if _, err := Call("REGEX", []rdf.Term{rdf.NewLiteral("aaa", ""), pattern}, env); err != nil {
			t.Fatal(err)
		}
	}
	if len(env.regexps) > maxCachedRegexps {
		t.Errorf("the cache holds %d expressions", len(env.regexps))
	}
}

func TestKnown(t *testing.T) {
	for name, want := range map[string]bool{
		"STRLEN": true, "REGEX": true, rdf.XSDInteger: true, rdf.XSDNS + "unsignedByte": true,
		"BOUND": false, "IF": false, "COALESCE": false, "strlen": false, rdf.XSDNS + "date": false,
	} {
		if Known(name) != want {
			t.Errorf("Known(%q) = %v", name, !want)
		}
	}
}

// TestNoPanic calls every function with every pair of sample terms: bad
// input is an error, never a panic.
func TestNoPanic(t *testing.T) {
	samples := tms(t, []string{``, `ex:a`, `_:b`, `""`, `"a"@en`, `1`, `-0.5`, `"NaN"^^xsd:double`,
		`"INF"^^xsd:float`, `"x"^^xsd:integer`, `true`, `"2011-01-10T14:45:13Z"^^xsd:dateTime`,
		`"24:00:00"^^xsd:time`, `"x"^^ex:t`, `"("`, `"$"`})
	env := &Env{Rand: rand.New(rand.NewSource(1)), NewBNode: func() rdf.Term { return rdf.NewBlank("b") }}
	names := []string{}
	for name := range builtins {
		names = append(names, name)
	}
	for name := range castTargets {
		names = append(names, name)
	}
	for _, name := range names {
		for _, a := range samples {
			Call(name, []rdf.Term{a}, env)
			for _, b := range samples {
				Call(name, []rdf.Term{a, b}, env)
				Call(name, []rdf.Term{a, b, a}, env)
			}
		}
	}
	for _, a := range samples {
		EBV(a)
		for _, op := range []string{"UMINUS", "UPLUS", "!"} {
			Unary(op, a)
		}
		for _, b := range samples {
			Order(a, b)
			for _, op := range []string{"=", "!=", "<", ">=", "+", "-", "*", "/"} {
				Compare(op, a, b)
				Arith(op, a, b)
			}
		}
	}
}
