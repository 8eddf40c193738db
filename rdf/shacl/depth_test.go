package shacl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

// chain returns Turtle for ex:n0 ex:next ex:n1 ... ex:nK.
func chain(k int) string {
	var b strings.Builder
	for i := range k {
		fmt.Fprintf(&b, "ex:n%d ex:next ex:n%d .\n", i, i+1)
	}
	return b.String()
}

// TestNesting: checks of nodes against shapes nested past 512 fail the
// validation with a *NestingError naming the focus node, the shape and
// the limit; a property shape that holds itself, which recursed without
// end over a loop of two nodes (a stack overflow), ends.
func TestNesting(t *testing.T) {
	// ex:n0 is checked against ex:S, then against the property shape for
	// its ex:next, n1 against ex:S, and so on: checking nK against the
	// property shape is the 2K+1st nested check.
	recursive := mustCompile(t, `ex:S sh:targetNode ex:n0 ; sh:property [ sh:path ex:next ; sh:node ex:S ] .`)
	if r := validate(t, recursive, NewGraph(ttl(t, chain(255)))); !r.Conforms || len(r.Warnings) != 0 {
		t.Errorf("255 nodes: %+v", r)
	}
	_, err := recursive.Validate(NewGraph(ttl(t, chain(256))))
	var ne *NestingError
	if !errors.As(err, &ne) || ne.Focus != rdf.NewIRI(ex+"n0") || ne.Shape != rdf.NewIRI(ex+"S") ||
		ne.At != rdf.NewIRI(ex+"n256") || ne.Limit != 512 {
		t.Fatalf("256 nodes: %v, want a *NestingError at ex:n256", err)
	}
	for _, want := range []string{"checking <http://example.org/n0> against shape <http://example.org/S>", "more than 512 deep",
		"<http://example.org/n256> against shape [ sh:path <http://example.org/next> ; sh:node <http://example.org/S> ]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if _, err := recursive.ValidateNode(NewGraph(ttl(t, chain(256))), rdf.NewIRI(ex+"n0"), rdf.NewIRI(ex+"S")); !errors.As(err, &ne) {
		t.Errorf("ValidateNode: %v, want a *NestingError", err)
	}

	// A chain of shapes, each the sh:node of the one before: 512 below
	// the first go, 513 do not.
	shapeChain := func(k int) *Shapes {
		var b strings.Builder
		b.WriteString("ex:S0 sh:targetNode ex:a .\n")
		for i := range k {
			fmt.Fprintf(&b, "ex:S%d sh:node ex:S%d .\n", i, i+1)
		}
		return mustCompile(t, b.String())
	}
	validate(t, shapeChain(512), NewGraph(nil))
	if _, err := shapeChain(513).Validate(NewGraph(nil)); !errors.As(err, &ne) || ne.AtShape != rdf.NewIRI(ex+"S513") {
		t.Errorf("513 shapes: %v, want a *NestingError at ex:S513", err)
	}

	// The rules' conditions too.
	rules := mustCompile(t, `ex:S sh:property [ sh:path ex:next ; sh:node ex:S ] .
		ex:R sh:targetNode ex:n0 ; sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ex:ok ; sh:object true ; sh:condition ex:S ] .`)
	if got := infer(t, rules, NewGraph(ttl(t, chain(255)))); len(got) != 1 {
		t.Errorf("rules, 255 nodes: inferred %v", got)
	}
	if _, err := rules.Infer(NewGraph(ttl(t, chain(256)))); !errors.As(err, &ne) {
		t.Errorf("rules, 256 nodes: %v, want a *NestingError", err)
	}

	// A property shape that holds itself, over a loop of two nodes; and
	// the same over a chain, which needs no loop to end.
	self := mustCompile(t, `ex:S sh:targetNode ex:n0 ; sh:property ex:P . ex:P sh:path ex:next ; sh:property ex:P ; sh:minCount 1 .`)
	r := validate(t, self, NewGraph(ttl(t, `ex:n0 ex:next ex:n1 . ex:n1 ex:next ex:n0 .`)))
	if !r.Conforms || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "recursive") {
		t.Errorf("a loop of two nodes: %+v", r)
	}
	r = validate(t, self, NewGraph(ttl(t, chain(3))))
	if got, want := brief(r), []string{"MinCount n3"}; !slices.Equal(got, want) || len(r.Warnings) != 0 {
		t.Errorf("a chain of 3: %v %v, want %v", got, r.Warnings, want)
	}
}

// TestPathSize: a path or a node expression whose nodes each hold the
// next twice is an error once it has more than 512 parts; it took 2^60
// steps to read from 60 nodes (a run without end).
func TestPathSize(t *testing.T) {
	// Alternatives of alternatives, levels deep: 2^(levels+1)-1 parts.
	dag := func(levels int) string {
		var b strings.Builder
		b.WriteString("ex:S sh:targetNode ex:a ; sh:property [ sh:path _:p0 ; sh:minCount 1 ] .\n")
		for i := range levels {
			fmt.Fprintf(&b, "_:p%d sh:alternativePath ( _:p%d _:p%d ) .\n", i, i+1, i+1)
		}
		fmt.Fprintf(&b, "_:p%d sh:inversePath ex:q .\n", levels)
		return b.String()
	}
	s := mustCompile(t, dag(7)) // 255 parts, and the inverse path below each leaf
	if got := brief(validate(t, s, NewGraph(ttl(t, `ex:b ex:q ex:a .`)))); len(got) != 0 {
		t.Errorf("the path of 255 parts: %v", got)
	}
	for _, levels := range []int{8, 60} {
		_, err := Compile(ttl(t, dag(levels)))
		if err == nil || !strings.Contains(err.Error(), "sh:path: path of more than 512 parts") {
			t.Errorf("%d levels: %v", levels, err)
		}
	}

	// Unions of unions.
	var b strings.Builder
	b.WriteString("ex:R sh:targetNode ex:a ; sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ex:p ; sh:object _:e0 ] .\n")
	for i := range 30 {
		fmt.Fprintf(&b, "_:e%d sh:union ( _:e%d _:e%d ) .\n", i, i+1, i+1)
	}
	b.WriteString("_:e30 sh:path ex:q .\n")
	if _, err := Compile(ttl(t, b.String())); err == nil || !strings.Contains(err.Error(), "node expression of more than 512 parts") {
		t.Errorf("unions of unions: %v", err)
	}

	// A list that loops.
	_, err := Compile(ttl(t, `ex:S sh:targetNode ex:a ; sh:in _:l . _:l rdf:first 1 ; rdf:rest _:l .`))
	if err == nil || !strings.Contains(err.Error(), "rdf:rest leads back to it (a cycle)") {
		t.Errorf("a list that loops: %v", err)
	}
}
