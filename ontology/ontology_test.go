package ontology

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
)

const (
	zoo  = "http://example.org/zoo#"
	jrpc = "http://json-rpc.org/ontology#"
	mcp  = "http://modelcontextprotocol.io/ontology#"
	xsd  = "http://www.w3.org/2001/XMLSchema#"
)

// iris prefixes each local name with ns.
func iris(ns string, locals ...string) []string {
	if len(locals) == 0 {
		return nil
	}
	out := make([]string, len(locals))
	for i, l := range locals {
		out[i] = ns + l
	}
	return out
}

func mustParseFile(t *testing.T, path string) *Ontology {
	t.Helper()
	o, err := ParseFile(path)
	if err != nil {
		t.Fatalf("ParseFile(%s): %v", path, err)
	}
	return o
}

func mustParse(t *testing.T, ttl string) *Ontology {
	t.Helper()
	o, err := Parse(strings.NewReader(ttl), rdf.Turtle, "")
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, ttl)
	}
	return o
}

// want is what a fixture declares, read off the file by hand.
type want struct {
	classes     []Class
	props       []Property
	individuals []string
	prefixes    map[string]string
}

func checkOntology(t *testing.T, o *Ontology, w want) {
	t.Helper()
	if got := o.Classes(); !reflect.DeepEqual(got, w.classes) {
		t.Errorf("Classes:\n got  %+v\n want %+v", got, w.classes)
	}
	if got := o.Properties(); !reflect.DeepEqual(got, w.props) {
		t.Errorf("Properties:\n got  %+v\n want %+v", got, w.props)
	}
	if got := o.Individuals(); !reflect.DeepEqual(got, w.individuals) {
		t.Errorf("Individuals:\n got  %v\n want %v", got, w.individuals)
	}
	if w.prefixes != nil {
		if got := o.Prefixes(); !reflect.DeepEqual(got, w.prefixes) {
			t.Errorf("Prefixes:\n got  %v\n want %v", got, w.prefixes)
		}
	}
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		file string
		want want
	}{
		{"testdata/small.ttl", want{
			classes: []Class{
				{IRI: zoo + "Animal", Label: "Animal", Comment: "Anything that lives in the zoo."},
				{IRI: zoo + "Bird", Label: "Bird", SubClassOf: iris(zoo, "Animal")},
				{IRI: zoo + "Keeper", Label: "Keeper"},
				{IRI: zoo + "Penguin", SubClassOf: iris(zoo, "Bird", "Swimmer")},
			},
			props: []Property{
				{IRI: zoo + "feeds", Kind: "object", Label: "feeds", Domain: iris(zoo, "Animal", "Keeper"), Range: iris(zoo, "Animal")},
				{IRI: zoo + "hasWings", Kind: "datatype", Domain: iris(zoo, "Bird"), Range: iris(xsd, "integer")},
				{IRI: zoo + "likes", Kind: "object", Range: iris(zoo, "Animal", "Keeper")},
				{IRI: zoo + "note", Kind: "annotation", Comment: "A free note,\nspanning two lines 1\n"},
				{IRI: zoo + "weight", Kind: "property", Domain: iris(zoo, "Animal", "Keeper"), Range: iris(xsd, "decimal")},
			},
			individuals: iris(zoo, "alice", "bob", "pingu"),
			prefixes: map[string]string{
				"ex": zoo, "owl": "http://www.w3.org/2002/07/owl#", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
				"rdfs": "http://www.w3.org/2000/01/rdf-schema#", "xsd": xsd,
			},
		}},
		{"../testdata/small.owl", want{
			classes: []Class{
				{IRI: zoo + "Animal", Label: "Animal", Comment: "Anything that lives in the zoo."},
				{IRI: zoo + "Bird", Label: "Bird", SubClassOf: iris(zoo, "Animal")},
				{IRI: zoo + "Keeper"},
			},
			props: []Property{
				{IRI: zoo + "feeds", Kind: "object", Label: "feeds", Domain: iris(zoo, "Animal", "Keeper"), Range: iris(zoo, "Animal")},
				{IRI: zoo + "hasWings", Kind: "datatype", Domain: iris(zoo, "Bird"), Range: iris(xsd, "integer")},
				{IRI: zoo + "note", Kind: "annotation"},
				{IRI: zoo + "weight", Kind: "property", Range: iris(xsd, "decimal")},
			},
			individuals: iris(zoo, "alice", "polly"),
			prefixes: map[string]string{
				"ex": zoo, "owl": "http://www.w3.org/2002/07/owl#", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
				"rdfs": "http://www.w3.org/2000/01/rdf-schema#",
			},
		}},
		{"testdata/empty.ttl", want{
			classes: []Class{}, props: []Property{}, individuals: []string{}, prefixes: map[string]string{},
		}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			checkOntology(t, mustParseFile(t, tt.file), tt.want)
		})
	}
}

func TestDeclares(t *testing.T) {
	o := mustParseFile(t, "testdata/small.ttl")
	tests := []struct {
		iri  string
		want bool
	}{
		{zoo + "Animal", true},   // owl:Class
		{zoo + "Penguin", true},  // rdfs:Class
		{zoo + "feeds", true},    // owl:ObjectProperty
		{zoo + "hasWings", true}, // owl:DatatypeProperty
		{zoo + "note", true},     // owl:AnnotationProperty
		{zoo + "weight", true},   // rdf:Property
		{zoo + "alice", true},    // owl:NamedIndividual and a declared class
		{zoo + "bob", true},      // owl:NamedIndividual only
		{zoo + "pingu", true},    // typed with a declared class
		{zoo + "rock", false},    // typed with an undeclared class
		{zoo + "Stone", false},   // only used as a type
		{zoo + "Swimmer", false}, // only used as a superclass
		{"http://example.org/zoo", false},
		{xsd + "integer", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := o.Declares(tt.iri); got != tt.want {
			t.Errorf("Declares(%q) = %v, want %v", tt.iri, got, tt.want)
		}
	}
}

func TestUndeclared(t *testing.T) {
	o := mustParseFile(t, "testdata/small.ttl")
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nil", nil, nil},
		{"all declared", iris(zoo, "Animal", "feeds", "alice"), nil},
		{"sorted without duplicates", iris(zoo, "zebra", "Animal", "lion", "zebra"), iris(zoo, "lion", "zebra")},
		{"well-known vocabularies ignored", []string{
			xsd + "string", "http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON",
			"http://www.w3.org/2000/01/rdf-schema#label", "http://www.w3.org/2002/07/owl#Thing",
		}, nil},
		{"other vocabularies count", []string{"http://purl.org/dc/terms/title", "urn:x:y"}, []string{"http://purl.org/dc/terms/title", "urn:x:y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := o.Undeclared(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Undeclared(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
	empty := mustParseFile(t, "testdata/empty.ttl")
	if got, want := empty.Undeclared([]string{zoo + "b", xsd + "int", zoo + "a"}), iris(zoo, "a", "b"); !reflect.DeepEqual(got, want) {
		t.Errorf("empty ontology: Undeclared = %v, want %v", got, want)
	}
}

func TestParseTurtleVariants(t *testing.T) {
	const head = "@prefix ex: <http://example.org/zoo#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
	tests := []struct {
		name string
		ttl  string
		base string
		want []string // declared classes
	}{
		{"number then newline", head + "ex:A a owl:Class ; owl:cardinality 1\n.\n", "", iris(zoo, "A")},
		{"number then tab", head + "ex:A a owl:Class ; owl:cardinality 1\t.\n", "", iris(zoo, "A")},
		{"decimal starting with a dot on a new line", head + "ex:A a owl:Class ; ex:w\n.5 , -.5 .\n", "", iris(zoo, "A")},
		{"number then comment", head + "ex:A a owl:Class ; owl:cardinality 1# one\n.\n", "", iris(zoo, "A")},
		{"CRLF line ends", strings.ReplaceAll(head+"ex:A a owl:Class ;\n owl:cardinality 1\n.\n", "\n", "\r\n"), "", iris(zoo, "A")},
		{"relative IRIs resolve against base", "<#A> a <http://www.w3.org/2002/07/owl#Class> .\n", "http://example.org/zoo", iris(zoo, "A")},
		{"comments and strings with quotes", head + "# it's a comment with \"quotes\" 1\nex:A a owl:Class ; ex:n \"x#1\" , 'y' .\n", "", iris(zoo, "A")},
		{"only directives", head, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Parse(strings.NewReader(tt.ttl), rdf.Turtle, tt.base)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var got []string
			for _, c := range o.Classes() {
				got = append(got, c.IRI)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("classes = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestBlankLabels checks that a blank node label in the file such as _:b1 stays apart from the blank
// nodes the reader makes for [] (knakk/rdf called both b1, b2, …).
func TestBlankLabels(t *testing.T) {
	o := mustParse(t, `@prefix ex: <http://example.org/zoo#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:p a owl:ObjectProperty ; rdfs:domain [ owl:unionOf ( ex:A ) ] .
ex:q a owl:ObjectProperty ; rdfs:domain _:b1 .
_:b1 owl:unionOf ( ex:C ) .
`)
	want := []Property{
		{IRI: zoo + "p", Kind: "object", Domain: iris(zoo, "A")},
		{IRI: zoo + "q", Kind: "object", Domain: iris(zoo, "C")},
	}
	if got := o.Properties(); !reflect.DeepEqual(got, want) {
		t.Errorf("Properties:\n got  %+v\n want %+v", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	const owlHead = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#">
`
	tests := []struct {
		name     string
		format   rdf.Format
		in       string
		wantLine int
		wantMsg  string
	}{
		{"bad IRI", rdf.Turtle, "@prefix ex: <http://e/> .\nex:a a ex:B .\nex:c ex:d <bad iri> .\n", 3, "character ' ' is not allowed in an IRI"},
		{"missing dot", rdf.Turtle, "@prefix ex: <http://e/> .\nex:a a ex:B\nex:c ex:d ex:e .\n", 3, `expected '.' at the end of the statement, found "ex:c"`},
		{"unterminated string", rdf.Turtle, "@prefix ex: <http://e/> .\n\n\nex:a ex:b \"open .\n", 4, "line break in a short string"},
		{"undeclared prefix", rdf.Turtle, "@prefix ex: <http://e/> .\nex:a a ex:B .\n# foo:x in a comment\nex:c ex:d \"foo:e\" .\nex:c ex:d foo:e .\n", 5, `undeclared prefix "foo:"`},
		{"dot as subject", rdf.Turtle, "@prefix ex: <http://e/> .\nex:a a ex:B .\n\n. \n", 4, `expected a subject, found "."`},
		{"unknown directive", rdf.Turtle, "@prefix ex: <http://e/> .\n@prefx p: <http://p/> .\n", 2, `unknown directive "@prefx"`},
		{"literal subject", rdf.Turtle, "\n\"x\" <http://e/p> <http://e/o> .\n", 2, "a literal cannot be a subject"},
		{"unclosed bracket", rdf.Turtle, "<http://e/s> <http://e/p> [\n<http://e/q> <http://e/o> .\n", 2, `expected ']' to close '['`},
		{"unclosed collection", rdf.Turtle, "<http://e/s> <http://e/p> ( <http://e/a>\n", 2, "expected ')' to close '('"},
		{"unterminated long string", rdf.Turtle, "<http://e/s> <http://e/p> \"\"\"a\nb\n", 3, "string without closing quote"},
		{"bad escape", rdf.Turtle, "<http://e/s> <http://e/p> \"a\\qb\" .", 1, `bad escape "\\qb\"`},
		{"bad language tag", rdf.Turtle, "<http://e/s> <http://e/p> \"a\"@-en .", 1, "bad language tag"},
		{"bad number", rdf.Turtle, "<http://e/s> <http://e/p> +x .", 1, `bad number "+x"`},
		{"missing object", rdf.Turtle, "@prefix ex: <http://e/> .\nex:s ex:p .", 2, `expected an object, found "."`},
		{"too deep", rdf.Turtle, "<http://e/s> <http://e/p> " + strings.Repeat("[ <http://e/p> ", 600), 1, "nested more than 512 deep"},
		{"mismatched XML tags", rdf.RDFXML, owlHead + "<owl:Class rdf:about=\"http://e/A\">\n</rdf:RDF>\n", 4, "XML syntax error"},
		{"empty RDF/XML", rdf.RDFXML, "", 0, "no XML root element"},
		{"not XML", rdf.RDFXML, "not xml at all", 1, "text before the root element"},
		{"only a declaration", rdf.RDFXML, "<?xml version=\"1.0\"?>\n", 0, "no XML root element"},
		{"rdf:li as node", rdf.RDFXML, owlHead + "<rdf:li/>\n</rdf:RDF>\n", 3, "rdf:li is not allowed as a node element"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Parse(strings.NewReader(tt.in), tt.format, "")
			if err == nil {
				t.Fatalf("Parse succeeded with %d classes, want an error", len(o.Classes()))
			}
			var pe *diag.Diagnostic
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *diag.Diagnostic", err, err)
			}
			if pe.Line != tt.wantLine || !strings.Contains(pe.Message, tt.wantMsg) {
				t.Errorf("got line %d %q, want line %d and a message containing %q", pe.Line, pe.Message, tt.wantLine, tt.wantMsg)
			}
		})
	}
	if _, err := Parse(strings.NewReader(""), rdf.NQuads, ""); err == nil || !strings.Contains(err.Error(), "unsupported format") {
		t.Errorf("unknown format: got %v, want an unsupported format error", err)
	}
}

func TestParseFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.ttl", "@prefix ex: <http://e/> .\n\nex:a ex:b ex:c ;\n  ex:d <no closing .\n")
	_, err := ParseFile(bad)
	if err == nil || err.Error() != bad+":4:11: character ' ' is not allowed in an IRI" {
		t.Errorf("ParseFile(bad.ttl) error = %v", err)
	}
	if _, err := ParseFile(write("o.json", "{}")); err == nil || !strings.Contains(err.Error(), "unknown extension") {
		t.Errorf("ParseFile(o.json) error = %v, want unknown extension", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "missing.ttl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ParseFile(missing.ttl) error = %v, want fs.ErrNotExist", err)
	}
	o, err := ParseFile(write("UPPER.OWL", "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>"))
	if err != nil || len(o.Classes()) != 0 {
		t.Errorf("ParseFile(UPPER.OWL) = %v, %v; want an empty ontology", o, err)
	}
}

func TestMerge(t *testing.T) {
	const head = "@prefix ex: <http://example.org/zoo#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
	// Both files get the same generated blank node labels from the decoder.
	a := mustParse(t, head+"ex:A a owl:Class .\nex:p a owl:ObjectProperty ; rdfs:domain [ owl:unionOf ( ex:A ex:B ) ] .\n")
	b := mustParse(t, "@prefix ex: <http://other.example/> .\n"+
		"@prefix z: <http://example.org/zoo#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"+
		"z:q a owl:ObjectProperty ; rdfs:domain [ owl:unionOf ( z:C ) ] .\nz:x a z:A .\n")
	if got := b.Individuals(); len(got) != 0 {
		t.Errorf("b alone: Individuals = %v, want none (z:A is not declared in b)", got)
	}
	m := Merge(a, nil, b)
	checkOntology(t, m, want{
		classes: []Class{{IRI: zoo + "A"}},
		props: []Property{
			{IRI: zoo + "p", Kind: "object", Domain: iris(zoo, "A", "B")},
			{IRI: zoo + "q", Kind: "object", Domain: iris(zoo, "C")},
		},
		individuals: iris(zoo, "x"),
		prefixes: map[string]string{
			"ex": zoo, "z": zoo, "owl": "http://www.w3.org/2002/07/owl#", "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
		},
	})
	// The inputs are unchanged.
	if got := len(a.Properties()) + len(b.Properties()); got != 2 {
		t.Errorf("inputs changed: %d properties in a and b, want 2", got)
	}
	empty := Merge()
	if len(empty.Classes()) != 0 || empty.Declares(zoo+"A") {
		t.Errorf("Merge() is not empty")
	}
}

func TestWriteSummary(t *testing.T) {
	o := mustParseFile(t, "testdata/small.ttl")
	var buf bytes.Buffer
	if err := o.WriteSummary(&buf); err != nil {
		t.Fatal(err)
	}
	// Compared field by field so that column widths do not matter.
	want := [][]string{
		{"Prefixes", "(5)"},
		{"ex:", "<http://example.org/zoo#>"},
		{"owl:", "<http://www.w3.org/2002/07/owl#>"},
		{"rdf:", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#>"},
		{"rdfs:", "<http://www.w3.org/2000/01/rdf-schema#>"},
		{"xsd:", "<http://www.w3.org/2001/XMLSchema#>"},
		{},
		{"Classes", "(4)"},
		{"ex:Animal", `"Animal"`},
		{"ex:Bird", `"Bird"`, "subClassOf", "ex:Animal"},
		{"ex:Keeper", `"Keeper"`},
		{"ex:Penguin", "-", "subClassOf", "ex:Bird", "ex:Swimmer"},
		{},
		{"Properties", "(5)"},
		{"ex:feeds", "object", `"feeds"`, "domain", "ex:Animal", "ex:Keeper", "range", "ex:Animal"},
		{"ex:hasWings", "datatype", "-", "domain", "ex:Bird", "range", "xsd:integer"},
		{"ex:likes", "object", "-", "range", "ex:Animal", "ex:Keeper"},
		{"ex:note", "annotation", "-"},
		{"ex:weight", "property", "-", "domain", "ex:Animal", "ex:Keeper", "range", "xsd:decimal"},
		{},
		{"Individuals", "(3)"},
		{"ex:alice"},
		{"ex:bob"},
		{"ex:pingu"},
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, line := range lines {
		if got := strings.Fields(line); !reflect.DeepEqual(got, want[i]) && !(len(got) == 0 && len(want[i]) == 0) {
			t.Errorf("line %d: %q, want fields %q", i+1, line, want[i])
		}
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d has trailing spaces: %q", i+1, line)
		}
	}
	if err := o.WriteSummary(failingWriter{}); err == nil {
		t.Error("WriteSummary to a failing writer: no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestCompact(t *testing.T) {
	o := &Ontology{prefixes: map[string]string{
		"": zoo, "ex": zoo, "z": zoo, "long": zoo + "sub/", "rel": "", "dc": "http://purl.org/dc/terms/",
	}}
	tests := []struct{ iri, want string }{
		{zoo + "Animal", "ex:Animal"},             // a named prefix before the empty one, then alphabetical
		{zoo + "sub/Part", "long:Part"},           // the longest namespace wins
		{zoo + "sub/a/b", "<" + zoo + "sub/a/b>"}, // no prefix gives a plain local name
		{zoo + "end.", "<" + zoo + "end.>"},       // a local name cannot end with a dot
		{zoo, "<" + zoo + ">"},                    // nor be empty
		{"http://purl.org/dc/terms/title", "dc:title"},
		{"urn:x", "<urn:x>"},
	}
	for _, tt := range tests {
		if got := o.compact(tt.iri); got != tt.want {
			t.Errorf("compact(%q) = %q, want %q", tt.iri, got, tt.want)
		}
	}
}

// contextIRIs returns the full IRIs the term definitions of a flat JSON-LD context produce: the @id and
// @type of each term, with CURIEs expanded through the context's own prefixes and extra. Keywords and
// prefix definitions (strings ending in '#' or '/') are left out.
func contextIRIs(t *testing.T, path string, extra map[string]string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Context map[string]any `json:"@context"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	prefixes := map[string]string{}
	for k, v := range extra {
		prefixes[k] = v
	}
	for k, v := range doc.Context {
		if s, ok := v.(string); ok && !strings.HasPrefix(k, "@") {
			prefixes[k] = s
		}
	}
	expand := func(v string) string {
		p, local, ok := strings.Cut(v, ":")
		if !ok || strings.HasPrefix(v, "@") {
			return ""
		}
		if ns, ok := prefixes[p]; ok && !strings.HasPrefix(local, "//") {
			return ns + local
		}
		return v
	}
	var out []string
	for k, v := range doc.Context {
		if strings.HasPrefix(k, "@") {
			continue
		}
		switch def := v.(type) {
		case string:
			if !strings.HasSuffix(def, "#") && !strings.HasSuffix(def, "/") {
				out = append(out, expand(def))
			}
		case map[string]any:
			for _, key := range []string{"@id", "@type"} {
				if s, ok := def[key].(string); ok {
					if iri := expand(s); iri != "" {
						out = append(out, iri)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestJSONRPCOntology(t *testing.T) {
	dir := shared.Dir(t, "reference", "ogc-mcp-bblocks", "_sources", "json-rpc")
	o := mustParseFile(t, filepath.Join(dir, "ontology.ttl"))
	str, integer, decimal := iris(xsd, "string"), iris(xsd, "integer"), iris(xsd, "decimal")
	checkOntology(t, o, want{
		classes: []Class{
			{IRI: jrpc + "Error", Label: "Error", Comment: "JSON-RPC error object"},
			{IRI: jrpc + "ErrorResponse", Label: "Error Response", Comment: "An error response to a request", SubClassOf: iris(jrpc, "Message")},
			{IRI: jrpc + "Message", Label: "JSON-RPC Message", Comment: "Base class for all JSON-RPC 2.0 messages"},
			{IRI: jrpc + "Notification", Label: "Notification", Comment: "A rpc call that does not expect a response", SubClassOf: iris(jrpc, "Message")},
			{IRI: jrpc + "NullId", Label: "Null ID", SubClassOf: iris(jrpc, "RequestId")},
			{IRI: jrpc + "NumberId", Label: "Number ID", SubClassOf: iris(jrpc, "RequestId")},
			{IRI: jrpc + "Request", Label: "Request", Comment: "A rpc call that expects a response", SubClassOf: iris(jrpc, "Message")},
			{IRI: jrpc + "RequestId", Label: "Request ID", Comment: "A unique identifier for a JSON-RPC request"},
			{IRI: jrpc + "Response", Label: "Response", Comment: "A successful response to a request", SubClassOf: iris(jrpc, "Message")},
			{IRI: jrpc + "ServerError", Label: "Server Error", Comment: "Reserved for implementation-defined server-errors", SubClassOf: iris(jrpc, "Error")},
			{IRI: jrpc + "StringId", Label: "String ID", SubClassOf: iris(jrpc, "RequestId")},
		},
		props: []Property{
			{IRI: jrpc + "hasError", Kind: "object", Label: "has error", Domain: iris(jrpc, "ErrorResponse"), Range: iris(jrpc, "Error")},
			{IRI: jrpc + "hasErrorCode", Kind: "datatype", Label: "has error code", Comment: "A number that indicates the error type that occurred", Domain: iris(jrpc, "Error"), Range: integer},
			{IRI: jrpc + "hasErrorData", Kind: "datatype", Label: "has error data", Comment: "Additional information about the error", Domain: iris(jrpc, "Error")},
			{IRI: jrpc + "hasErrorMessage", Kind: "datatype", Label: "has error message", Comment: "A short description of the error", Domain: iris(jrpc, "Error"), Range: str},
			{IRI: jrpc + "hasId", Kind: "object", Label: "has ID", Domain: iris(jrpc, "ErrorResponse", "Request", "Response"), Range: iris(jrpc, "RequestId")},
			{IRI: jrpc + "hasMethod", Kind: "datatype", Label: "has method", Comment: "The name of the method to be invoked", Domain: iris(jrpc, "Notification", "Request"), Range: str},
			{IRI: jrpc + "hasNumberValue", Kind: "datatype", Label: "has number value", Domain: iris(jrpc, "NumberId"), Range: decimal},
			{IRI: jrpc + "hasParameters", Kind: "datatype", Label: "has parameters", Comment: "Parameter values to be used during the invocation of the method", Domain: iris(jrpc, "Notification", "Request")},
			{IRI: jrpc + "hasResult", Kind: "datatype", Label: "has result", Comment: "The result of the method invocation", Domain: iris(jrpc, "Response")},
			{IRI: jrpc + "hasStringValue", Kind: "datatype", Label: "has string value", Domain: iris(jrpc, "StringId"), Range: str},
			{IRI: jrpc + "hasVersion", Kind: "datatype", Label: "has version", Comment: "The JSON-RPC protocol version (must be '2.0')", Domain: iris(jrpc, "Message"), Range: str},
		},
		individuals: iris(jrpc, "InternalError", "InvalidParams", "InvalidRequest", "MethodNotFound", "ParseError"),
	})
	if got := o.Prefixes()["jsonrpc"]; got != jrpc {
		t.Errorf("prefix jsonrpc = %q, want %q", got, jrpc)
	}

	// The published context maps "jsonrpc" to jrpc:version; the ontology declares jrpc:hasVersion.
	ctx := contextIRIs(t, filepath.Join(dir, "context.jsonld"), nil)
	if len(ctx) < 25 {
		t.Fatalf("only %d IRIs from the context: %v", len(ctx), ctx)
	}
	if got, want := o.Undeclared(ctx), iris(jrpc, "version"); !reflect.DeepEqual(got, want) {
		t.Errorf("Undeclared(context IRIs) = %v, want %v", got, want)
	}
}

func TestMCPOntology(t *testing.T) {
	src := shared.Dir(t, "reference", "ogc-mcp-bblocks", "_sources")
	m := mustParseFile(t, filepath.Join(src, "mcp", "ontology", "mcp.ttl"))
	j := mustParseFile(t, filepath.Join(src, "json-rpc", "ontology.ttl"))

	// Counted with grep over mcp.ttl: 55 "a owl:Class", 17 "a owl:ObjectProperty", 17 "a owl:DatatypeProperty".
	kinds := map[string]int{}
	for _, p := range m.Properties() {
		kinds[p.Kind]++
	}
	if got := len(m.Classes()); got != 55 {
		t.Errorf("mcp.ttl: %d classes, want 55", got)
	}
	if want := map[string]int{"object": 17, "datatype": 17}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("mcp.ttl: property kinds %v, want %v", kinds, want)
	}
	if got := m.Individuals(); len(got) != 0 {
		t.Errorf("mcp.ttl: individuals %v, want none", got)
	}

	// testdata/mcp_undeclared.txt comes from testdata/mcp_undeclared.py, which reads the files with
	// rapper and Python, not with this package.
	data, err := os.ReadFile("testdata/mcp_undeclared.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(data))
	ctx := contextIRIs(t, filepath.Join(src, "mcp", "context.jsonld"), map[string]string{"jrpc": jrpc})
	merged := Merge(m, j)
	if got := merged.Undeclared(ctx); !reflect.DeepEqual(got, want) {
		t.Errorf("Undeclared over mcp+json-rpc: %d IRIs, want %d\n got  %v\n want %v", len(got), len(want), got, want)
	}
	// Without the json-rpc ontology, the one jrpc: term the mcp context uses is undeclared too.
	alone := m.Undeclared(ctx)
	if len(alone) != len(want)+1 || !contains(alone, jrpc+"hasParameters") {
		t.Errorf("Undeclared over mcp alone: %d IRIs, want %d plus jrpc:hasParameters", len(alone), len(want))
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestAgainstRapper reads each ontology a second time through rapper's N-Triples output (N-Triples is a
// subset of rdf.Turtle) and checks that both readings declare the same things.
func TestAgainstRapper(t *testing.T) {
	if _, err := exec.LookPath("rapper"); err != nil {
		t.Skip("rapper not installed")
	}
	compare := func(t *testing.T, path, syntax string) {
		nt, err := exec.Command("rapper", "-q", "-i", syntax, "-o", "ntriples", path).Output()
		if err != nil {
			t.Fatalf("rapper: %v", err)
		}
		viaRapper, err := Parse(bytes.NewReader(nt), rdf.Turtle, "")
		if err != nil {
			t.Fatalf("Parse(rapper output): %v", err)
		}
		if len(viaRapper.Classes()) == 0 {
			t.Fatalf("no classes in rapper's reading of %s", path)
		}
		checkOntology(t, mustParseFile(t, path), want{
			classes:     viaRapper.Classes(),
			props:       viaRapper.Properties(),
			individuals: viaRapper.Individuals(),
		})
	}
	t.Run("small.ttl", func(t *testing.T) { compare(t, "testdata/small.ttl", "turtle") })
	t.Run("small.owl", func(t *testing.T) { compare(t, "../testdata/small.owl", "rdfxml") })
	t.Run("json-rpc", func(t *testing.T) {
		compare(t, shared.Dir(t, "reference", "ogc-mcp-bblocks", "_sources", "json-rpc", "ontology.ttl"), "turtle")
	})
	t.Run("mcp", func(t *testing.T) {
		compare(t, shared.Dir(t, "reference", "ogc-mcp-bblocks", "_sources", "mcp", "ontology", "mcp.ttl"), "turtle")
	})
}

// FuzzParse checks that no input makes Parse panic.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/small.ttl", "../testdata/small.owl", "../testdata/grammar.rdf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, !strings.HasSuffix(name, ".ttl"))
	}
	f.Add([]byte("@prefix ex: <http://e/> .\nex:a ex:b ( ex:c [ ex:d 1\n] ) ."), false)
	f.Add([]byte("@base <http://e/a/> .\n<../b> <#c> \"\"\"\"\"x\\u00e9\"\"\"@en , .5e1 , _:b1 , ex:a\\.b%20 ."), false)
	f.Add([]byte("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:parseType=\"Collection\"/></rdf:RDF>"), true)
	f.Fuzz(func(t *testing.T, data []byte, xml bool) {
		format := rdf.Turtle
		if xml {
			format = rdf.RDFXML
		}
		o, err := Parse(bytes.NewReader(data), format, "")
		if err == nil {
			var buf bytes.Buffer
			if err := o.WriteSummary(&buf); err != nil {
				t.Fatal(err)
			}
		}
	})
}
