package results

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

var sample = &Table{
	Vars: []string{"x", "y"},
	Rows: [][]rdf.Term{
		{rdf.NewIRI("http://example/a"), rdf.NewLiteral("plain", rdf.XSDString)},
		{rdf.NewBlank("b0"), rdf.NewLangLiteral("chat", "fr")},
		{{}, rdf.NewLiteral("42", rdf.XSDInteger)},
		{rdf.NewLiteral("a \"quoted\"\tword, <b> & \n", rdf.XSDString), {}},
		{rdf.NewLiteral("1.5", rdf.XSDDecimal), rdf.NewLiteral("x", "http://example/dt")},
	},
}

func write(t *testing.T, f Format, tb *Table) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, f, tb.Vars)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tb.Rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestRoundTrip writes the sample in each format that keeps terms whole
// and reads it back.
func TestRoundTrip(t *testing.T) {
	for _, f := range []Format{JSON, XML, TSV} {
		t.Run(f.String(), func(t *testing.T) {
			text := write(t, f, sample)
			got, err := Read(strings.NewReader(text), f)
			if err != nil {
				t.Fatalf("%v in\n%s", err, text)
			}
			if strings.Join(got.Vars, ",") != "x,y" || len(got.Rows) != len(sample.Rows) {
				t.Fatalf("read back %v, %d rows from\n%s", got.Vars, len(got.Rows), text)
			}
			for i, r := range sample.Rows {
				for j := range r {
					if got.Rows[i][j] != r[j] {
						t.Errorf("row %d var %s: got %#v, want %#v\n%s", i, sample.Vars[j], got.Rows[i][j], r[j], text)
					}
				}
			}
		})
	}
}

// TestWrite checks the text of each format against the specifications'
// own layout, written out by hand.
func TestWrite(t *testing.T) {
	tb := &Table{Vars: []string{"s", "o"}, Rows: [][]rdf.Term{
		{rdf.NewIRI("http://example/s"), rdf.NewLiteral("4", rdf.XSDInteger)},
		{rdf.NewBlank("b"), rdf.NewLiteral("a,b", rdf.XSDString)},
		{{}, rdf.NewLangLiteral("x", "en")},
	}}
	tests := []struct {
		f    Format
		want string
	}{
		{CSV, "s,o\r\nhttp://example/s,4\r\n_:b,\"a,b\"\r\n,x\r\n"},
		{TSV, "?s\t?o\n<http://example/s>\t4\n_:b\t\"a,b\"\n\t\"x\"@en\n"},
		{JSON, `{"head":{"vars":["s","o"]},"results":{"bindings":[
{"s":{"type":"uri","value":"http://example/s"},"o":{"type":"literal","value":"4","datatype":"http://www.w3.org/2001/XMLSchema#integer"}},
{"s":{"type":"bnode","value":"b"},"o":{"type":"literal","value":"a,b"}},
{"o":{"type":"literal","value":"x","xml:lang":"en"}}]}}
`},
		{XML, `<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
<head>
<variable name="s"/>
<variable name="o"/>
</head>
<results>
<result><binding name="s"><uri>http://example/s</uri></binding><binding name="o"><literal datatype="http://www.w3.org/2001/XMLSchema#integer">4</literal></binding></result>
<result><binding name="s"><bnode>b</bnode></binding><binding name="o"><literal>a,b</literal></binding></result>
<result><binding name="o"><literal xml:lang="en">x</literal></binding></result>
</results>
</sparql>
`},
	}
	for _, tc := range tests {
		if got := write(t, tc.f, tb); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.f, got, tc.want)
		}
	}
}

func TestBoolean(t *testing.T) {
	for _, f := range []Format{JSON, XML} {
		for _, b := range []bool{true, false} {
			var buf bytes.Buffer
			if err := WriteBoolean(&buf, f, b); err != nil {
				t.Fatal(err)
			}
			got, err := Read(&buf, f)
			if err != nil || got.Boolean == nil || *got.Boolean != b {
				t.Errorf("%s %v: read back %+v, %v", f, b, got, err)
			}
		}
	}
	var fe *FormatError
	if err := WriteBoolean(&bytes.Buffer{}, CSV, true); !errors.As(err, &fe) {
		t.Errorf("WriteBoolean(CSV) = %v, want a *FormatError", err)
	}
}

func TestReadCSV(t *testing.T) {
	got, err := Read(strings.NewReader("a,b\r\nhttp://example/x,\"1,5\"\r\n_:z,\r\n"), CSV)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]rdf.Term{{rdf.NewIRI("http://example/x"), rdf.NewLiteral("1,5", "")}, {rdf.NewBlank("z"), {}}}
	for i := range want {
		for j := range want[i] {
			if got.Rows[i][j] != want[i][j] {
				t.Errorf("row %d col %d: got %#v, want %#v", i, j, got.Rows[i][j], want[i][j])
			}
		}
	}
}

// TestReadErrors checks that malformed documents give a *ReadError, never
// a panic.
func TestReadErrors(t *testing.T) {
	tests := []struct {
		f    Format
		text string
	}{
		{JSON, `{"head":{"vars":["x"]}}`},
		{JSON, `{"head":{"vars":["x"]},"results":{"bindings":[{"y":{"type":"uri","value":"a"}}]}}`},
		{JSON, `{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"thing","value":"a"}}]}}`},
		{JSON, `{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri"}}]}}`},
		{JSON, `[`},
		{XML, `<sparql><head><variable name="x"/></head><results><result><binding name="y"><uri>a</uri></binding></result></results></sparql>`},
		{XML, `<sparql><head></head><results><uri>a</uri></results></sparql>`},
		{XML, `<sparql><head><variable name="x"/></head><results><result><binding name="x"><uri>a</uri></binding><variable name="z"/><binding name="z"><uri>a</uri></binding></result></results></sparql>`},
		{XML, `<sparql><boolean>maybe</boolean></sparql>`},
		{XML, `<sparql>`},
		{TSV, ""},
		{TSV, "x\n"},
		{TSV, "?x\t?y\n<a>\n"},
		{TSV, "?x\n\"unterminated\n"},
		{CSV, ""},
	}
	for _, tc := range tests {
		_, err := Read(strings.NewReader(tc.text), tc.f)
		var re *ReadError
		if !errors.As(err, &re) {
			t.Errorf("%s %q: got %v, want a *ReadError", tc.f, tc.text, err)
		}
	}
}

func TestWriteRefuses(t *testing.T) {
	tests := []struct {
		f    Format
		term rdf.Term
	}{
		{XML, rdf.NewLiteral("bell \a", "")},
		{TSV, rdf.NewIRI("http://example/a b")},
		{JSON, rdf.NewLiteral("\xff", "")},
	}
	for _, tc := range tests {
		w, _ := NewWriter(&bytes.Buffer{}, tc.f, []string{"x"})
		var te *TermError
		if err := w.Write([]rdf.Term{tc.term}); !errors.As(err, &te) {
			t.Errorf("%s %#v: got %v, want a *TermError", tc.f, tc.term, err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{{"json", JSON}, {"XML", XML}, {".srj", JSON}, {"srx", XML}, {"csv", CSV}, {".tsv", TSV}} {
		if got, err := ParseFormat(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseFormat(%q) = %v, %v", tc.in, got, err)
		}
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) took it")
	}
}

func TestTurtleNumber(t *testing.T) {
	for s, want := range map[string]byte{"4": 'i', "-4": 'i', "+0": 'i', "5.5": 'd', ".5": 'd', "5.": 0, "1e6": 'e', "1.0E6": 'e',
		"5.e3": 'e', ".e3": 0, "": 0, "-": 0, "1e": 0, "01": 'i', "1_0": 0, "NaN": 0} {
		if got := turtleNumber(s); got != want {
			t.Errorf("turtleNumber(%q) = %q, want %q", s, got, want)
		}
	}
}
