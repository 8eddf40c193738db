package transform

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// TestSPARQLTransforms runs sparql-update and sparql-construct transforms
// on a Turtle snippet as the tool chain runs them with rdflib: the
// example's prefixes declared before the snippet and in scope for the
// code, rdflib's own prefixes too, an update changing the graph, a
// CONSTRUCT query replacing it, anything else failing.
func TestSPARQLTransforms(t *testing.T) {
	const data = "ex:alice a ex:Person ; ex:name \"Alice\" .\nex:bob ex:name \"Bob\" .\n"
	tests := []struct {
		name, typ, code string
		want            string // the Turtle of the graph written, "" when it fails
		err             string // a part of the error expected
	}{
		{"update with the example's prefix", TypeSPARQLUpdate,
			"DELETE { ?s ex:name ?n } INSERT { ?s ex:label ?n } WHERE { ?s ex:name ?n }",
			"ex:alice a ex:Person ; ex:label \"Alice\" .\nex:bob ex:label \"Bob\" .", ""},
		{"update with rdflib's prefixes", TypeSPARQLUpdate,
			"INSERT { ?s schema:name ?n ; rdfs:label ?n } WHERE { ?s a ex:Person ; ex:name ?n }",
			data + "ex:alice <https://schema.org/name> \"Alice\" ; <http://www.w3.org/2000/01/rdf-schema#label> \"Alice\" .", ""},
		{"the code's PREFIX overrides", TypeSPARQLUpdate,
			"PREFIX ex: <http://other.example/>\nINSERT DATA { ex:carol ex:name \"Carol\" }",
			data + "<http://other.example/carol> <http://other.example/name> \"Carol\" .", ""},
		{"update that empties the graph", TypeSPARQLUpdate, "DELETE WHERE { ?s ?p ?o }", "", ""},
		{"construct", TypeSPARQLConstruct,
			"CONSTRUCT { ?s a ex:Agent } WHERE { ?s ex:name ?n FILTER(?n != \"Bob\") }",
			"ex:alice a ex:Agent .", ""},
		{"select is not a construct", TypeSPARQLConstruct, "SELECT * WHERE { ?s ?p ?o }", "", "not a CONSTRUCT query"},
		{"a query is not an update", TypeSPARQLUpdate, "CONSTRUCT WHERE { ?s ?p ?o }", "", "does not parse"},
		{"undeclared prefix", TypeSPARQLUpdate, "DELETE WHERE { ?s nope:p ?o }", "", "nope"},
		{"syntax error", TypeSPARQLConstruct, "CONSTRUCT { ?s ?p ?o } WHERE {", "", "line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := &Transform{ID: "t", Type: tc.typ, Code: tc.code, Outputs: []MediaType{{MIME: "text/turtle"}}}
			in := Input{Data: []byte(data), MediaType: "text/turtle", Prefixes: map[string]string{"ex": "http://example.org/"}}
			out, err := tr.Run(t.Context(), in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := rdftest.ParseTurtle(out, "")
			if err != nil {
				t.Fatalf("the output is not Turtle: %v\n%s", err, out)
			}
			want, err := rdftest.ParseTurtle([]byte("@prefix ex: <http://example.org/> .\n"+tc.want), "")
			if err != nil {
				t.Fatal(err)
			}
			if ok, diff := rdftest.Isomorphic(got, want); !ok {
				t.Errorf("%s\n%s", diff, out)
			}
		})
	}
}

// TestSPARQLTransformInputs: the tool chain's RDF transformer reads Turtle
// and RDF/XML; a JSON-LD snippet fails, as there.
func TestSPARQLTransformInputs(t *testing.T) {
	tr := &Transform{ID: "t", Type: TypeSPARQLUpdate, Code: "DELETE WHERE { ?s ?p ?o }", Outputs: []MediaType{{MIME: "text/turtle"}}}
	for mt, data := range map[string]string{
		"text/turtle":         `<http://e/s> <http://e/p> "o" .`,
		"application/rdf+xml": `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:e="http://e/"><rdf:Description rdf:about="http://e/s"><e:p>o</e:p></rdf:Description></rdf:RDF>`,
		"application/ld+json": `{"@id": "http://e/s", "http://e/p": "o"}`,
	} {
		out, err := tr.Run(t.Context(), Input{Data: []byte(data), MediaType: mt})
		switch {
		case mt == "application/ld+json" && (err == nil || !strings.Contains(err.Error(), "unsupported media type")):
			t.Errorf("%s: %q, %v; want an unsupported media type", mt, out, err)
		case mt != "application/ld+json" && (err != nil || string(out) != "\n"):
			t.Errorf("%s: %q, %v; want an empty graph", mt, out, err)
		}
	}
}

// TestSPARQLAsTheToolChain runs the prefix-predicates transform of the
// examples register and of the tutorial on the uplifted graph of their
// example, and compares its output with the tool chain's.
func TestSPARQLAsTheToolChain(t *testing.T) {
	cases := []struct{ src, out string }{
		{"ogc-registers-2/ogcincubator+bblocks-examples/src/_sources/transforms/transforms-example",
			"ogc-full-current/examples/tests/bbr/examples/transforms/transforms-example"},
		{"ogc-registers/ogcincubator+bblocks-tutorial/src/_sources/exercise8_completed",
			"ogc-full-current/tutorial-h/tests/bbr/tutorial/exercise8_completed"},
		{"ogc-published/bblocks-tutorial/src/_sources/exercise8_completed",
			"ogc-full/tutorial/tests/bbr/tutorial/exercise8_completed"},
	}
	for _, c := range cases {
		t.Run(c.out, func(t *testing.T) {
			tr := loadTransforms(t, shared.Dir(t, "reference", c.src))["prefix-predicates"]
			out := shared.Dir(t, "reference", c.out)
			in, err := os.ReadFile(filepath.Join(out, "example_1_1.ttl"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.Run(t.Context(), Input{Data: in, MediaType: "text/turtle"})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(out, "transforms", "example_1_3.prefix-predicates.ttl"))
			if err != nil {
				t.Fatal(err)
			}
			g, err1 := rdftest.ParseTurtle(got, "")
			w, err2 := rdftest.ParseTurtle(want, "")
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if ok, diff := rdftest.Isomorphic(g, w); !ok {
				t.Errorf("not the tool chain's graph:\n%s", diff)
			}
			var moved bool
			for _, tt := range g {
				moved = moved || strings.HasPrefix(tt.P, "urn:example:ex#")
			}
			if !moved {
				t.Error("no predicate was renamed")
			}
		})
	}
}

// TestSPARQLSteps: a sparql-update step changes the uplifted graph with
// its prefixes in scope; a sparql-construct step replaces it; a step that
// fails stops the uplift with a StepError.
func TestSPARQLSteps(t *testing.T) {
	graph := []rdf.Triple{
		rdf.T(rdf.NewBlank("b"), "http://example.com/hasTwo", rdf.NewLiteral("2", rdf.XSDInteger)),
	}
	prefixes := map[string]string{"ex": "http://example.com/"}
	tests := []struct {
		name, steps string
		want        string // Turtle, with ex: declared
		err         string
	}{
		{"update", "  - type: sparql-update\n    code: 'INSERT { ?s ex:hasFour ?f } WHERE { ?s ex:hasTwo ?t BIND(?t * 2 AS ?f) }'\n",
			"[] ex:hasTwo 2 ; ex:hasFour 4 .", ""},
		{"construct replaces", "  - type: sparql-construct\n    code: 'CONSTRUCT { ?s ex:copy ?t } WHERE { ?s ex:hasTwo ?t }'\n",
			"[] ex:copy 2 .", ""},
		{"steps in order", "  - type: sparql-construct\n    code: 'CONSTRUCT { ?s ex:copy ?t } WHERE { ?s ex:hasTwo ?t }'\n" +
			"  - type: sparql-update\n    code: 'DELETE { ?s ex:copy ?t } INSERT { ?s ex:last ?t } WHERE { ?s ex:copy ?t }'\n",
			"[] ex:last 2 .", ""},
		{"failing step", "  - type: sparql-update\n    code: 'DELETE WHERE { ?s ex:hasTwo }'\n", "", "post-uplift sparql-update step from inline code"},
		{"ask is no construct", "  - type: sparql-construct\n    code: 'ASK { ?s ?p ?o }'\n", "", "not a CONSTRUCT query"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, probs, err := ParseUplift(UpliftFile, []byte("additionalSteps:\n"+tc.steps))
			if err != nil || len(probs) > 0 {
				t.Fatal(err, probs)
			}
			var notes []string
			got, err := u.Post(t.Context(), graph, prefixes, func(m string) { notes = append(notes, m) })
			if len(notes) == 0 || !strings.HasPrefix(notes[0], "Running post-uplift sparql-") {
				t.Errorf("notes: %q", notes)
			}
			if tc.err != "" {
				var se *StepError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want a StepError with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := rdftest.ParseTurtle([]byte("@prefix ex: <http://example.com/> .\n"+tc.want), "")
			if err != nil {
				t.Fatal(err)
			}
			if ok, diff := rdftest.Isomorphic(got, want); !ok {
				t.Error(diff)
			}
		})
	}
}
