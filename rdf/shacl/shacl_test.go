package shacl

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

const prefixes = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://example.org/> .
`

const ex = "http://example.org/"

// ttl parses Turtle with the prefixes above.
func ttl(t testing.TB, s string) []rdf.Triple {
	t.Helper()
	qs, _, err := rdf.Parse([]byte(prefixes+s), rdf.Turtle, "")
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return ts
}

func mustCompile(t testing.TB, shapes string) *Shapes {
	t.Helper()
	s, err := Compile(ttl(t, shapes))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validate is s.Validate(g), which must not fail.
func validate(t testing.TB, s *Shapes, g *Graph) *Report {
	t.Helper()
	r, err := s.Validate(g)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// infer is s.Infer(g), which must not fail.
func infer(t testing.TB, s *Shapes, g *Graph) []rdf.Triple {
	t.Helper()
	ts, err := s.Infer(g)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// brief lists a report's results as "component focus value" lines with
// the example namespace cut, sorted.
func brief(r *Report) []string {
	var out []string
	for _, res := range r.Results {
		s := strings.TrimSuffix(strings.TrimPrefix(res.Component, NS), "ConstraintComponent") + " " + strings.TrimPrefix(res.Focus.Value, ex)
		if res.HasValue() {
			s += " " + strings.TrimPrefix(res.Value.Value, ex)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name, shapes, data string
		want               []string
	}{
		{"class and subclasses", `ex:S sh:targetNode ex:a, ex:b, ex:c ; sh:class ex:Animal .`,
			`ex:Dog rdfs:subClassOf ex:Mammal . ex:Mammal rdfs:subClassOf ex:Animal . ex:a a ex:Dog . ex:b a ex:Stone .`,
			[]string{"Class b b", "Class c c"}},
		{"targetClass follows subclasses", `ex:S sh:targetClass ex:Animal ; sh:nodeKind sh:BlankNode .`,
			`ex:Dog rdfs:subClassOf ex:Animal . ex:a a ex:Dog . ex:b a ex:Animal . ex:c a ex:Stone .`,
			[]string{"NodeKind a a", "NodeKind b b"}},
		{"implicit class target", `ex:Animal a rdfs:Class, sh:NodeShape ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .`,
			`ex:a a ex:Animal ; ex:name "A" . ex:b a ex:Animal .`, []string{"MinCount b"}},
		{"subjectsOf and objectsOf", `ex:S sh:targetSubjectsOf ex:p ; sh:nodeKind sh:IRI . ex:T sh:targetObjectsOf ex:p ; sh:datatype xsd:integer .`,
			`ex:a ex:p 1, "x" . _:b ex:p 2 .`, []string{"Datatype x x", "NodeKind b b"}},
		{"counts", `ex:S sh:targetNode ex:a, ex:b ; sh:property [ sh:path ex:p ; sh:minCount 1 ; sh:maxCount 2 ] .`,
			`ex:b ex:p 1, 2, 3 .`, []string{"MaxCount b", "MinCount a"}},
		{"ranges", `ex:S sh:targetObjectsOf ex:p ; sh:minInclusive 1 ; sh:maxExclusive 10.5 .`,
			`ex:a ex:p 0, 1, 10, 10.5, "1e1"^^xsd:double, "5", "x"^^xsd:integer .`,
			[]string{"MaxExclusive 10.5 10.5", "MaxExclusive 5 5", "MaxExclusive x x", "MinInclusive 0 0", "MinInclusive 5 5", "MinInclusive x x"}},
		{"dates", `ex:S sh:targetObjectsOf ex:p ; sh:minExclusive "2020-01-01T00:00:00Z"^^xsd:dateTime .`,
			`ex:a ex:p "2020-01-01T01:00:00+02:00"^^xsd:dateTime, "2021-01-01T00:00:00"^^xsd:dateTime, "2020-01-01T00:00:01Z"^^xsd:dateTime, "2020-01-01T05:00:00"^^xsd:dateTime .`,
			[]string{"MinExclusive 2020-01-01T01:00:00+02:00 2020-01-01T01:00:00+02:00", "MinExclusive 2020-01-01T05:00:00 2020-01-01T05:00:00"}},
		{"lengths and pattern", `ex:S sh:targetObjectsOf ex:p ; sh:minLength 2 ; sh:maxLength 3 ; sh:pattern "^[a-z]+$" ; sh:flags "i" .`,
			`ex:a ex:p "a", "AB", "abcd", "ab1", _:x .`,
			[]string{"MaxLength abcd abcd", "MinLength a a", "MinLength x x", "MaxLength x x", "Pattern ab1 ab1", "Pattern x x"}},
		{"languages", `ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:languageIn ("en" "fr") ; sh:uniqueLang true ] .`,
			`ex:a ex:p "a"@en-GB, "b"@EN, "c"@de, "d", "e"@en .`, []string{"LanguageIn a c", "LanguageIn a d", "UniqueLang a"}},
		{"property pairs", `ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:equals ex:q ; sh:disjoint ex:r ; sh:lessThan ex:s ] .`,
			`ex:a ex:p 1, 2 ; ex:q 2, 3 ; ex:r 1 ; ex:s 2 .`,
			[]string{"Disjoint a 1", "Equals a 1", "Equals a 3", "LessThan a 2"}},
		{"logic", `ex:S sh:targetNode ex:a, ex:b, ex:c ; sh:xone ( ex:HasP ex:HasQ ) ; sh:not ex:HasR .
			ex:HasP sh:property [ sh:path ex:p ; sh:minCount 1 ] . ex:HasQ sh:property [ sh:path ex:q ; sh:minCount 1 ] .
			ex:HasR sh:property [ sh:path ex:r ; sh:minCount 1 ] .`,
			`ex:a ex:p 1 . ex:b ex:p 1 ; ex:q 1 . ex:c ex:r 1 .`,
			[]string{"Not c c", "Xone b b", "Xone c c"}},
		{"qualified, disjoint", `ex:S sh:targetNode ex:hand ; sh:property ex:Thumb, ex:Fingers .
			ex:Thumb sh:path ex:digit ; sh:qualifiedValueShape [ sh:class ex:Thumb ] ; sh:qualifiedMinCount 1 ; sh:qualifiedMaxCount 1 ; sh:qualifiedValueShapesDisjoint true .
			ex:Fingers sh:path ex:digit ; sh:qualifiedValueShape [ sh:class ex:Finger ] ; sh:qualifiedMinCount 4 ; sh:qualifiedValueShapesDisjoint true .`,
			`ex:hand ex:digit ex:d1, ex:d2, ex:d3, ex:d4, ex:d5 . ex:d1 a ex:Thumb, ex:Finger . ex:d2 a ex:Finger . ex:d3 a ex:Finger . ex:d4 a ex:Finger . ex:d5 a ex:Finger .`,
			[]string{"QualifiedMinCount hand"}},
		{"closed", `ex:S sh:targetNode ex:a ; sh:closed true ; sh:ignoredProperties ( rdf:type ) ; sh:property [ sh:path ex:p ] .`,
			`ex:a a ex:C ; ex:p 1 ; ex:q 2 .`, []string{"Closed a 2"}},
		{"hasValue and in", `ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:hasValue 1 ; sh:in ( 2 3 ) ] .`,
			`ex:a ex:p 2, 4 .`, []string{"HasValue a", "In a 4"}},
		{"paths", `ex:S sh:targetNode ex:a ; sh:property [ sh:path ( ex:p [ sh:zeroOrMorePath ex:q ] ) ; sh:nodeKind sh:Literal ] ;
			sh:property [ sh:path [ sh:inversePath ex:p ] ; sh:maxCount 0 ] ; sh:property [ sh:path [ sh:alternativePath ( ex:r [ sh:oneOrMorePath ex:s ] ) ] ; sh:minCount 3 ] .`,
			`ex:a ex:p ex:b . ex:b ex:q ex:c . ex:c ex:q ex:b . ex:z ex:p ex:a . ex:a ex:s ex:a .`,
			[]string{"MaxCount a", "MinCount a", "NodeKind a b", "NodeKind a c"}},
		{"deactivated and severity", `ex:S sh:targetNode ex:a ; sh:deactivated true ; sh:minLength 100 .
			ex:T sh:targetNode ex:a ; sh:severity sh:Info ; sh:maxLength 1 ; sh:node ex:Off . ex:Off sh:deactivated true ; sh:minLength 100 .`,
			`ex:a ex:p 1 .`, []string{"MaxLength a a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.shapes)
			r := validate(t, s, NewGraph(ttl(t, tc.data)))
			got := brief(r)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("results:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if r.Conforms != (len(want) == 0) {
				t.Errorf("Conforms = %v with %d results", r.Conforms, len(r.Results))
			}
		})
	}
}

func TestSeverityAndMessage(t *testing.T) {
	s := mustCompile(t, `ex:S sh:targetNode ex:a ; sh:severity sh:Warning ; sh:message "too short"@en, "trop court"@fr ; sh:minLength 50 .
		ex:T sh:targetNode ex:a ; sh:maxLength 1 .`)
	r := validate(t, s, NewGraph(nil))
	if r.Conforms || len(r.Results) != 2 {
		t.Fatalf("want 2 results, got %+v", r)
	}
	if r.Results[0].Severity != NS+"Warning" || r.Results[0].Message() != "too short" {
		t.Errorf("first result: severity %s, message %q", r.Results[0].Severity, r.Results[0].Message())
	}
	if r.Results[1].Severity != NS+"Violation" || !strings.Contains(r.Results[1].Message(), "longer than 1") {
		t.Errorf("second result: severity %s, message %q", r.Results[1].Severity, r.Results[1].Message())
	}
}

// TestRecursive: recursive shapes end, and the report says what was
// assumed.
func TestRecursive(t *testing.T) {
	s := mustCompile(t, `ex:Person sh:targetClass ex:Person ; sh:property [ sh:path ex:knows ; sh:node ex:Person ] ;
		sh:property [ sh:path ex:name ; sh:minCount 1 ] .`)
	data := NewGraph(ttl(t, `ex:a a ex:Person ; ex:name "A" ; ex:knows ex:b . ex:b a ex:Person ; ex:knows ex:a . ex:c ex:knows ex:c .`))
	done := make(chan *Report)
	go func() {
		r, err := s.Validate(data)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	select {
	case r := <-done:
		got := brief(r)
		// b has no name: a knows b, so a fails sh:node, and b, which
		// knows a, fails it too.
		want := []string{"MinCount b", "Node a b", "Node b a"}
		if !slices.Equal(got, want) {
			t.Errorf("results %v, want %v", got, want)
		}
		if len(r.Warnings) == 0 {
			t.Error("no warning about the recursion")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Validate did not end on recursive shapes")
	}
}

func TestUnsupported(t *testing.T) {
	tests := []struct{ name, shapes, shape string }{
		{"JavaScript rule", `ex:S sh:targetNode ex:a ; sh:rule [ a sh:JSRule ; sh:jsFunctionName "f" ] .`, "ex:S"},
		{"target of a target type", `ex:S sh:target [ a ex:MyTargetType ; ex:p 1 ] ; sh:path ex:p ; sh:minCount 1 .`, "ex:S"},
		{"expression constraint", `ex:S sh:targetNode ex:a ; sh:expression [ sh:path ex:p ] .`, "ex:S"},
		{"DASH constraint", `ex:S sh:targetNode ex:a ; sh:path ex:p ; <http://datashapes.org/dash#hasValueIn> ( 1 2 ) .`, "ex:S"},
		{"SHACL-JS constraint", `ex:S sh:targetNode ex:a ; sh:js [ sh:jsFunctionName "f" ] .`, "ex:S"},
		{"in a shape a used shape refers to", `ex:T sh:targetNode ex:a ; sh:or ( ex:S [ sh:class ex:C ] ) .
			ex:S sh:expression [ sh:path ex:p ] .`, "ex:S"},
		{"JavaScript component", `ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:myParam ] ; sh:validator [ a sh:JSValidator ; sh:jsFunctionName "f" ] .
			ex:S sh:targetNode ex:a ; ex:myParam 3 .`, "ex:S"},
		{"node validator at a property shape", `ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:myParam ] ; sh:nodeValidator [ sh:select "SELECT $this {}" ] .
			ex:S sh:targetNode ex:a ; sh:path ex:p ; ex:myParam 3 .`, "ex:S"},
		{"function", `ex:S sh:targetNode ex:a ; sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ex:p ; sh:object [ ex:concat ( "a" "b" ) ] ] .`, "ex:S"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(ttl(t, tc.shapes))
			var e *Error
			if !errors.Is(err, ErrUnsupported) || !errors.As(err, &e) || e.Shape != "<"+ex+strings.TrimPrefix(tc.shape, "ex:")+">" {
				t.Fatalf("Compile: %v, want ErrUnsupported naming %s", err, tc.shape)
			}
		})
	}
}

// TestUnusedUnsupported: what jrpcld does not run keeps no shapes graph
// from compiling when no shape in use needs it: a deactivated shape, what
// only a deactivated shape refers to, a shape without targets that no
// shape refers to. Validating a node against such a shape is refused.
func TestUnusedUnsupported(t *testing.T) {
	for _, tc := range []struct{ name, shapes string }{
		{"deactivated", `ex:S sh:targetNode ex:a ; sh:deactivated true ; sh:js [ sh:jsFunctionName "f" ] .`},
		{"deactivated and ill-formed", `ex:S sh:targetNode ex:a ; sh:deactivated true ; sh:minCount "one" ; sh:sparql [ sh:select "SELECT" ] .`},
		{"only a deactivated shape refers to it", `ex:T sh:targetNode ex:a ; sh:deactivated true ; sh:property ex:S .
			ex:S sh:path ex:p ; sh:expression [ sh:path ex:q ] .`},
		{"no targets, no reference", `ex:S sh:path ex:p ; <http://datashapes.org/dash#singleLine> true .`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.shapes)
			r := validate(t, s, NewGraph(ttl(t, `ex:a ex:p "x" .`)))
			if !r.Conforms {
				t.Errorf("results %v", r.Results)
			}
			_, err := s.ValidateNode(NewGraph(nil), rdf.NewIRI(ex+"a"), rdf.NewIRI(ex+"S"))
			deactivated := strings.Contains(tc.shapes, "ex:S sh:targetNode ex:a ; sh:deactivated")
			if !deactivated && !errors.Is(err, ErrUnsupported) {
				t.Errorf("ValidateNode against ex:S: %v, want ErrUnsupported", err)
			}
		})
	}
}

// TestDeclaredDASH: a DASH component the shapes graph declares with a
// SPARQL validator (as dash.ttl does) runs instead of being refused.
func TestDeclaredDASH(t *testing.T) {
	s := mustCompile(t, `
		<http://datashapes.org/dash#SingleLineConstraintComponent> a sh:ConstraintComponent ;
			sh:parameter [ sh:path <http://datashapes.org/dash#singleLine> ] ;
			sh:validator [ sh:ask """ASK { FILTER (!$singleLine || !isLiteral($value) || !contains(str($value), "\\n")) }""" ] .
		ex:S sh:targetNode ex:a ; sh:path ex:p ; <http://datashapes.org/dash#singleLine> true .`)
	r := validate(t, s, NewGraph(ttl(t, `ex:a ex:p "one", "two\nlines" .`)))
	if len(r.Results) != 1 || r.Results[0].Value.Value != "two\nlines" {
		t.Errorf("results %v, want one, for the value on two lines", r.Results)
	}
}

func TestBadShapes(t *testing.T) {
	for _, shapes := range []string{
		`ex:S sh:targetNode ex:a ; sh:path ex:p ; sh:minCount "one" .`,
		`ex:S sh:targetNode ex:a ; sh:path ex:p ; sh:minCount -1 .`,
		`ex:S sh:targetNode ex:a ; sh:pattern "(" .`,
		`ex:S sh:targetNode ex:a ; sh:pattern "(a)\\1" .`,
		`ex:S sh:targetNode ex:a ; sh:pattern "a" ; sh:flags "z" .`,
		`ex:S sh:targetNode ex:a ; sh:in _:l . _:l rdf:first 1 .`,
		`ex:S sh:targetNode ex:a ; sh:in ex:notAList .`,
		`ex:S sh:targetNode ex:a ; sh:node "literal" .`,
		`ex:S sh:targetNode ex:a ; sh:path [ sh:alternativePath ( ex:p ) ] .`,
		`ex:S sh:targetNode ex:a ; sh:path "p" .`,
		`ex:S sh:targetNode ex:a ; sh:nodeKind sh:Thing .`,
		`ex:S sh:targetNode ex:a ; sh:minCount 1 .`,
		`ex:S sh:targetNode ex:a ; sh:property [ sh:minCount 1 ] .`,
		`ex:S sh:targetNode ex:a ; sh:severity "high" .`,
		`ex:S sh:targetNode ex:a ; sh:rule [ a sh:TripleRule ; sh:subject sh:this ] .`,
	} {
		if _, err := Compile(ttl(t, shapes)); err == nil {
			t.Errorf("Compile accepted %s", shapes)
		} else if !strings.Contains(err.Error(), "ex:S") && !strings.Contains(err.Error(), ex+"S") {
			t.Errorf("the error does not name the shape: %v", err)
		}
	}
}

func TestInfer(t *testing.T) {
	s := mustCompile(t, `
		ex:R sh:targetClass ex:Rectangle ; sh:order 1 ;
			sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate rdf:type ; sh:object ex:Square ;
				sh:condition [ sh:property [ sh:path ex:width ; sh:equals ex:height ] ] ] ;
			sh:rule [ a sh:TripleRule ; sh:order 2 ; sh:subject sh:this ; sh:predicate ex:side ; sh:object [ sh:path ex:width ] ;
				sh:condition ex:IsSquare ] .
		ex:IsSquare sh:class ex:Square .
		ex:Off sh:targetClass ex:Rectangle ; sh:deactivated true ;
			sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ex:never ; sh:object 1 ] .`)
	data := NewGraph(ttl(t, `ex:a a ex:Rectangle ; ex:width 2 ; ex:height 2 . ex:b a ex:Rectangle ; ex:width 2 ; ex:height 3 .`))
	got := infer(t, s, data)
	want := ttl(t, `ex:a a ex:Square ; ex:side 2 .`)
	if ok, diff := rdftest.Isomorphic(got, want); !ok {
		t.Errorf("Infer: %s", diff)
	}
	if !s.HasRules() {
		t.Error("HasRules is false")
	}
}

// TestReportWriters: the Turtle is read back by an independent parser to
// the report's triples; the JSON lines are JSON with what the results say.
func TestReportWriters(t *testing.T) {
	s := mustCompile(t, `ex:S sh:targetNode ex:a, _:b ; sh:property [ sh:path ( ex:p [ sh:inversePath ex:q ] ) ; sh:minCount 1 ] ;
		sh:property [ sh:path ex:r ; sh:datatype xsd:integer ; sh:message "r must be an integer" ] .`)
	r := validate(t, s, NewGraph(ttl(t, `ex:a ex:r "x" . _:b ex:r 1 .`)))
	if len(r.Results) != 3 {
		t.Fatalf("want 3 results, got %d", len(r.Results))
	}
	var buf bytes.Buffer
	if err := r.WriteTurtle(&buf); err != nil {
		t.Fatal(err)
	}
	back := rdftest.Rapper(t, buf.Bytes(), "")
	if ok, diff := rdftest.Isomorphic(back, r.Triples()); !ok {
		t.Errorf("the Turtle reads back to another graph: %s\n%s", diff, buf.Bytes())
	}
	// The path written is the path read.
	c := &compiler{g: NewGraph(back), s: &Shapes{}, byNode: map[rdf.Term]*shape{}, consts: map[rdf.Term]ref{}}
	var paths []string
	for _, e := range c.g.WithPredicate(c.g.ID(rdf.NewIRI(shResultPath))) {
		p, err := c.parsePath(c.g.Term(e.B))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p.String())
	}
	slices.Sort(paths)
	if want := []string{"<" + ex + "p>/^<" + ex + "q>", "<" + ex + "p>/^<" + ex + "q>", "<" + ex + "r>"}; !slices.Equal(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	// The shapes are blank nodes: each is written with its triples, its
	// sh:path among them, not as [] (the shape would be lost).
	shapes := c.g.WithPredicate(c.g.ID(rdf.NewIRI(shSourceShape)))
	for _, e := range shapes {
		if len(c.values(c.g.Term(e.B), shPath)) != 1 {
			t.Errorf("sh:sourceShape %s is written without its sh:path:\n%s", c.g.Term(e.B), buf.Bytes())
		}
	}
	if len(shapes) != 3 {
		t.Errorf("%d sh:sourceShape triples, want 3", len(shapes))
	}

	buf.Reset()
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 3 results and a summary, got %d lines", len(lines))
	}
	var first, sum map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[3]), &sum); err != nil {
		t.Fatal(err)
	}
	if first["resultMessage"] != "r must be an integer" || first["value"] != `"x"` || first["focusNode"] != "<"+ex+"a>" {
		t.Errorf("result object %v", first)
	}
	if s := sum["summary"].(map[string]any); s["conforms"] != false || s["results"] != 3.0 {
		t.Errorf("summary %v", sum)
	}

	buf.Reset()
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Conforms: false", "Results (3):", "Violation in MinCountConstraintComponent", "Message: r must be an integer", "Result Path: <" + ex + "r>"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestFocusNodesAndValidateNode(t *testing.T) {
	s := mustCompile(t, `ex:S sh:targetClass ex:C ; sh:nodeKind sh:BlankNode . ex:T sh:datatype xsd:string .`)
	g := NewGraph(ttl(t, `ex:a a ex:C . ex:b a ex:C .`))
	fs, err := s.FocusNodes(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Shape != rdf.NewIRI(ex+"S") || len(fs[0].Nodes) != 2 {
		t.Errorf("FocusNodes = %+v", fs)
	}
	r, err := s.ValidateNode(g, rdf.NewLiteral("x", ""), rdf.NewIRI(ex+"T"))
	if err != nil || !r.Conforms {
		t.Errorf("ValidateNode on a string: %v %+v", err, r)
	}
	r, err = s.ValidateNode(g, rdf.NewIRI(ex+"a"), rdf.NewIRI(ex+"T"))
	if err != nil || r.Conforms {
		t.Errorf("ValidateNode: an IRI is not an xsd:string (%v)", err)
	}
	if _, err := s.ValidateNode(g, rdf.NewIRI(ex+"a"), rdf.NewIRI(ex+"None")); err == nil || err.Error() != "there is no shape <http://example.org/None>" {
		t.Errorf("ValidateNode of a shape that is not there: %v", err)
	}
}
