package transform

import (
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// A SHACL-AF triple rule: every ex:Person is also an ex:Agent, and gets
// ex:label from ex:name. What it infers follows from the SHACL-AF note
// (https://www.w3.org/TR/shacl-af/#TripleRule) alone.
const personRules = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
ex:PersonShape a sh:NodeShape ;
  sh:targetClass ex:Person ;
  sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate rdf:type ; sh:object ex:Agent ] ;
  sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ex:label ; sh:object [ sh:path ex:name ] ] .
`

// The example's Turtle uses a prefix that only examples.yaml declares: the
// shacl-af-rule transform declares the example's prefixes first, as the
// tool chain does.
const personData = `ex:alice a ex:Person ; ex:name "Alice" .
ex:bob ex:name "Bob" .
`

const personInferred = `@prefix ex: <http://example.org/> .
ex:alice a ex:Person, ex:Agent ; ex:name "Alice" ; ex:label "Alice" .
ex:bob ex:name "Bob" .
`

func TestSHACLRuleTransform(t *testing.T) {
	want, err := rdftest.ParseTurtle([]byte(personInferred), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"text/turtle", "application/ld+json"} {
		tr := &Transform{ID: "agents", Type: TypeSHACLRules, Code: personRules, Outputs: []MediaType{{MIME: target}}}
		out, err := tr.Run(t.Context(), Input{Data: []byte(personData), MediaType: "text/turtle",
			Prefixes: map[string]string{"ex": "http://example.org/"}})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		var got []rdf.Triple
		if target == "text/turtle" {
			got = rdftest.Rapper(t, out, "")
		} else {
			g, err := readGraph(Input{Data: out, MediaType: target}, false)
			if err != nil {
				t.Fatal(err)
			}
			got = g.triples
		}
		if ok, diff := rdftest.Isomorphic(got, want); !ok {
			t.Errorf("%s: the rules give\n%s\n%s", target, out, diff)
		}
	}
	// A shacl transform does not declare the example's prefixes.
	tr := &Transform{ID: "agents", Type: TypeSHACL, Code: personRules, Outputs: []MediaType{{MIME: "text/turtle"}}}
	if _, err := tr.Run(t.Context(), Input{Data: []byte(personData), MediaType: "text/turtle",
		Prefixes: map[string]string{"ex": "http://example.org/"}}); err == nil || !strings.Contains(err.Error(), "not Turtle") {
		t.Errorf("a shacl transform read undeclared prefixes: %v", err)
	}
	// jrpcld writes no RDF/XML.
	tr = &Transform{ID: "agents", Type: TypeSHACLRules, Code: personRules, Outputs: []MediaType{{MIME: "application/rdf+xml"}}}
	if _, err := tr.Run(t.Context(), Input{Data: []byte(personInferred), MediaType: "text/turtle"}); err == nil || !strings.Contains(err.Error(), "not application/rdf+xml") {
		t.Errorf("RDF/XML output: %v", err)
	}
}

// A shacl step of the semantic uplift adds what the rules infer to the
// uplifted graph; shapes the engine refuses (SPARQL rules) fail the step.
func TestSHACLStep(t *testing.T) {
	data, err := rdftest.ParseTurtle([]byte("@prefix ex: <http://example.org/> .\n"+personData), "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rdftest.ParseTurtle([]byte(personInferred), "")
	if err != nil {
		t.Fatal(err)
	}
	u := &Uplift{Steps: []*Step{{Type: TypeSHACL, Code: personRules}}}
	var notes []string
	got, err := u.Post(t.Context(), data, nil, func(s string) { notes = append(notes, s) })
	if err != nil {
		t.Fatal(err)
	}
	if ok, diff := rdftest.Isomorphic(got, want); !ok {
		t.Errorf("the step gives %v\n%s", got, diff)
	}
	if len(notes) != 1 || notes[0] != "Running post-uplift shacl transform step from inline code" {
		t.Errorf("notes %q", notes)
	}

	sparql := `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:S a sh:NodeShape ; sh:targetClass ex:Person ;
  sh:rule [ a sh:SPARQLRule ; sh:construct "CONSTRUCT { $this a ex:Agent } WHERE {}" ] .
`
	u = &Uplift{Steps: []*Step{{Type: TypeSHACL, Code: sparql, Ref: "rules.shacl", loaded: true}}}
	_, err = u.Post(t.Context(), data, nil, func(string) {})
	var se *StepError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "post-uplift shacl step from rules.shacl") {
		t.Errorf("SPARQL rule: %v", err)
	}
}
