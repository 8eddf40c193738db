package shacl

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf/sparql"
)

// TestSPARQLResults checks what the W3C sparql tests leave out: message
// templates, ?message, language-tagged values given back as the data
// writes them, ASK validators at property shapes, default prefixes, and
// shapes that use a component with one parameter several times. Each
// expected message and value is worked out by hand from the shapes and
// data.
func TestSPARQLResults(t *testing.T) {
	data := `ex:a ex:label "Hallo"@DE-at ; ex:age 7 ; a ex:T . ex:b ex:label "Hi" ; ex:age 70 ; a ex:T .`
	tests := []struct {
		name, shapes string
		want         []string // "focus value message" per result, sorted
	}{
		{"message template from the solution and the pre-bound $this",
			`ex:S sh:targetClass ex:T ; sh:sparql [ sh:message "{$this} is {?age} years old" ;
				sh:select "SELECT $this ?age WHERE { $this <http://example.org/age> ?age FILTER(?age > 10) }" ] .`,
			[]string{"<http://example.org/b> <http://example.org/b> http://example.org/b is 70 years old"}},
		{"?message wins over sh:message",
			`ex:S sh:targetClass ex:T ; sh:sparql [ sh:message "not this" ;
				sh:select "SELECT $this ?message WHERE { $this <http://example.org/age> ?age FILTER(?age < 10) BIND(CONCAT('young: ', STR(?age)) AS ?message) }" ] .`,
			[]string{"<http://example.org/a> <http://example.org/a> young: 7"}},
		{"a tagged value comes back as the data writes it",
			`ex:S sh:targetClass ex:T ; sh:sparql [ sh:select "SELECT $this ?value WHERE { $this <http://example.org/label> ?value FILTER(lang(?value) != '') }" ] .`,
			[]string{`<http://example.org/a> "Hallo"@DE-at a SPARQL-based constraint of the shape found the value`}},
		{"rdf: and xsd: without sh:prefixes",
			`ex:S sh:targetClass ex:T ; sh:sparql [ sh:message "x" ; sh:select "SELECT $this WHERE { $this rdf:type ?t FILTER(datatype(7) = xsd:integer) FILTER($this = <http://example.org/a>) }" ] .`,
			[]string{"<http://example.org/a> <http://example.org/a> x"}},
		{"ASK validator at a property shape, once per value",
			`ex:Max a sh:ConstraintComponent ; sh:parameter [ sh:path ex:max ] ;
				sh:validator [ sh:message "{$value} > {$max}" ; sh:ask "ASK { FILTER($value <= $max) }" ] .
			ex:S sh:targetClass ex:T ; sh:path ex:age ; ex:max 10 .`,
			[]string{"<http://example.org/b> \"70\"^^<http://www.w3.org/2001/XMLSchema#integer> 70 > 10"}},
		{"each value of a parameter is a constraint of its own",
			`ex:Max a sh:ConstraintComponent ; sh:parameter [ sh:path ex:max ] ;
				sh:validator [ sh:message "{$value} > {$max}" ; sh:ask "ASK { FILTER($value <= $max) }" ] .
			ex:S sh:targetNode 50 ; ex:max 10, 20, 60 .`,
			[]string{`"50"^^<http://www.w3.org/2001/XMLSchema#integer> "50"^^<http://www.w3.org/2001/XMLSchema#integer> 50 > 10`,
				`"50"^^<http://www.w3.org/2001/XMLSchema#integer> "50"^^<http://www.w3.org/2001/XMLSchema#integer> 50 > 20`}},
		{"a component whose parameters the shape lacks is not used",
			`ex:Never a sh:ConstraintComponent ; sh:parameter [ sh:path ex:a ] , [ sh:path ex:b ] ; sh:validator [ sh:ask "ASK { FILTER(false) }" ] .
			ex:S sh:targetClass ex:T ; ex:a 1 .`,
			nil},
		{"a deactivated SPARQL constraint is not run",
			`ex:S sh:targetClass ex:T ; sh:sparql [ sh:deactivated true ; sh:select "SELECT $this WHERE { }" ] .`,
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := validate(t, mustCompile(t, tc.shapes), NewGraph(ttl(t, data)))
			var got []string
			for _, res := range r.Results {
				got = append(got, res.Focus.String()+" "+res.Value.String()+" "+res.Message())
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			if r.Conforms != (len(tc.want) == 0) {
				t.Errorf("conforms %v with %d results", r.Conforms, len(tc.want))
			}
		})
	}
}

// TestSPARQLFailure: a query that binds ?failure to true fails the
// validation (SHACL 5.3.2), with an error naming the shape.
func TestSPARQLFailure(t *testing.T) {
	s := mustCompile(t, `ex:S sh:targetNode ex:a ; sh:sparql [ sh:select "SELECT $this ?failure WHERE { BIND(true AS ?failure) }" ] .`)
	_, err := s.Validate(NewGraph(nil))
	var qe *QueryError
	if !errors.As(err, &qe) || !strings.Contains(err.Error(), ex+"S") {
		t.Fatalf("Validate: %v, want a *QueryError naming ex:S", err)
	}
}

// TestSPARQLBadShapes: shapes graphs with SPARQL that cannot be run are
// refused, naming the shape.
func TestSPARQLBadShapes(t *testing.T) {
	for _, shapes := range []string{
		`ex:S sh:targetNode ex:a ; sh:sparql [ sh:select "SELECT $this WHERE { $this ex:p ?o }" ] .`,  // ex: undeclared
		`ex:S sh:targetNode ex:a ; sh:sparql [ sh:select "SELECT $this WHERE { $this $PATH ?o }" ] .`, // $PATH at a node shape
		`ex:S sh:targetNode ex:a ; sh:sparql [ sh:select "ASK { }" ] .`,                               // not a SELECT
		`ex:S sh:targetNode ex:a ; sh:sparql "SELECT $this WHERE { }" .`,                              // a literal
		`ex:S sh:targetNode ex:a ; sh:sparql [ sh:prefixes ex:P ; sh:select "SELECT $this { }" ] .
		ex:P sh:declare [ sh:prefix "p" ; sh:namespace "http://one/" ] , [ sh:prefix "p" ; sh:namespace "http://two/" ] .`,
		`ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:m ] ; sh:validator [ sh:ask "SELECT * { }" ] .
		ex:S sh:targetNode ex:a ; ex:m 1 .`,
	} {
		if _, err := Compile(ttl(t, shapes)); err == nil {
			t.Errorf("Compile accepted %s", shapes)
		} else if !strings.Contains(err.Error(), ex+"S") {
			t.Errorf("the error does not name the shape: %v", err)
		}
	}
}

// TestSPARQLRulesAndTargets: a SPARQL rule adds what its CONSTRUCT makes
// for each focus node, its blank nodes apart per focus node; a SPARQL
// target's ?this are the focus nodes.
func TestSPARQLRulesAndTargets(t *testing.T) {
	data := NewGraph(ttl(t, `ex:a ex:age 7 . ex:b ex:age 70 . ex:c ex:name "c" .`))
	s := mustCompile(t, `
		ex:Aged sh:target [ a sh:SPARQLTarget ; sh:select "SELECT ?this WHERE { ?this <http://example.org/age> ?age }" ] ;
			sh:rule [ a sh:SPARQLRule ; sh:construct """CONSTRUCT { $this <http://example.org/record> [ <http://example.org/of> ?age ] }
				WHERE { $this <http://example.org/age> ?age }""" ] ;
			sh:property [ sh:path ex:age ; sh:maxInclusive 10 ] .`)
	inferred := infer(t, s, data)
	records := map[string]string{} // the blank node of each focus node's record
	for _, tr := range inferred {
		if tr.P == ex+"record" {
			records[tr.S.Value] = tr.O.Value
		}
	}
	if len(inferred) != 4 || len(records) != 2 || records[ex+"a"] == records[ex+"b"] || records[ex+"a"] == "" {
		t.Errorf("inferred %v, want a record of its own for ex:a and ex:b", inferred)
	}
	r := validate(t, s, data)
	if len(r.Results) != 1 || r.Results[0].Focus.Value != ex+"b" {
		t.Errorf("results %v, want one, for ex:b (the focus nodes are ex:a and ex:b)", r.Results)
	}
}

// TestSPARQLTargetFailure: a SPARQL-based target whose query fails when
// it runs (here SERVICE, which Compile refuses and the evaluator refuses
// too, put in place of the compiled query) is an error naming the shape
// for FocusNodes, Validate and Infer alike; FocusNodes used to report the
// shape with no focus nodes, as if the target selected none.
func TestSPARQLTargetFailure(t *testing.T) {
	s := mustCompile(t, `ex:S sh:target [ a sh:SPARQLTarget ; sh:select "SELECT ?this WHERE { ?this ?p ?o }" ] ;
		sh:nodeKind sh:BlankNode ; sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ex:q ; sh:object 1 ] .`)
	g := NewGraph(ttl(t, `ex:a ex:p 1 .`))
	if fs, err := s.FocusNodes(g); err != nil || len(fs) != 1 || len(fs[0].Nodes) != 1 {
		t.Fatalf("FocusNodes with the query compiled = %+v, %v; want ex:a", fs, err)
	}
	q, err := sparql.ParseQuery(`SELECT ?this WHERE { SERVICE <http://example.org/sparql> { ?this ?p ?o } }`, "")
	if err != nil {
		t.Fatal(err)
	}
	s.shapes[0].sparqlTargets[0] = q
	fs, err := s.FocusNodes(g)
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Shape != "<"+ex+"S>" || !strings.Contains(err.Error(), "SERVICE refused") {
		t.Errorf("FocusNodes = %+v, %v; want a *QueryError naming ex:S and SERVICE", fs, err)
	}
	if _, err := s.Validate(g); !errors.As(err, &qe) {
		t.Errorf("Validate: %v, want a *QueryError", err)
	}
	if _, err := s.Infer(g); !errors.As(err, &qe) {
		t.Errorf("Infer: %v, want a *QueryError", err)
	}
}
