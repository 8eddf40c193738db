package shacl

// Random small graphs and shapes, validated here and by the npm engines.
// The generator stays clear of the engines' deviations that would make
// most cases differ (each is shown by TestPeersDeviations and described in
// docs/shacl.md): no rdfs:subClassOf cycles (rdf-validate-shacl overflows
// its stack), the subclass triples copied into the shapes graph
// (shacl-engine reads them there), no parameter twice on a shape
// (shacl-engine reads one value) and language ranges in lower case (both
// engines compare them with the tags case-sensitively, and n3 lowers the
// tags it reads).

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	generated = flag.Int("shacl.generated", 100, "how many random graphs and shapes TestPeersGenerated validates")
	keep      = flag.String("shacl.keep", "", "a folder where TestPeersGenerated leaves its cases")
)

// gen writes random Turtle from a small vocabulary, so that shapes and
// data meet often.
type gen struct {
	r *rand.Rand
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) node() string {
	return g.pick("ex:n0", "ex:n1", "ex:n2", "ex:n3", "ex:n4", "_:b0", "_:b1")
}

func (g *gen) pred() string { return g.pick("ex:p0", "ex:p1", "ex:p2", "ex:p3") }

func (g *gen) class() string { return g.pick("ex:C0", "ex:C1", "ex:C2") }

func (g *gen) literal() string {
	return g.pick(`1`, `2`, `-3`, `2.5`, `"4"^^xsd:integer`, `"x"^^xsd:integer`, `"1e1"^^xsd:double`, `"a"`, `"bb"`,
		`"ccc"`, `"a"@en`, `"b"@en`, `"c"@fr`, `"d"@EN-gb`, `true`, `"2020-01-01"^^xsd:date`,
		`"2020-01-01T10:00:00Z"^^xsd:dateTime`, `"2021-06-01T00:00:00Z"^^xsd:dateTime`, `"300"^^xsd:byte`, `""`)
}

func (g *gen) value() string {
	switch g.r.IntN(3) {
	case 0:
		return g.literal()
	case 1:
		return g.node()
	}
	return g.class()
}

// data returns a data graph and its rdfs:subClassOf triples, which the
// shapes graph gets too: shacl-engine reads them there (SHACL reads them
// in the data graph).
func (g *gen) data() (string, string) {
	var b, classes strings.Builder
	for i, n := 0, 4+g.r.IntN(20); i < n; i++ {
		switch g.r.IntN(10) {
		case 0, 1:
			fmt.Fprintf(&b, "%s a %s .\n", g.node(), g.class())
		case 2:
			// No cycles: rdf-validate-shacl overflows its stack on them.
			sub := g.r.IntN(2)
			t := fmt.Sprintf("ex:C%d rdfs:subClassOf ex:C%d .\n", sub, sub+1+g.r.IntN(2-sub))
			b.WriteString(t)
			classes.WriteString(t)
		case 3, 4, 5:
			fmt.Fprintf(&b, "%s %s %s .\n", g.node(), g.pred(), g.node())
		default:
			fmt.Fprintf(&b, "%s %s %s .\n", g.node(), g.pred(), g.literal())
		}
	}
	return b.String(), classes.String()
}

func (g *gen) path(depth int) string {
	if depth > 1 {
		return g.pred()
	}
	switch g.r.IntN(9) {
	case 0:
		return "[ sh:inversePath " + g.pred() + " ]"
	case 1:
		return "( " + g.path(depth+1) + " " + g.path(depth+1) + " )"
	case 2:
		return "[ sh:alternativePath ( " + g.path(depth+1) + " " + g.path(depth+1) + " ) ]"
	case 3:
		return "[ sh:zeroOrMorePath " + g.pred() + " ]"
	case 4:
		return "[ sh:oneOrMorePath " + g.pred() + " ]"
	case 5:
		return "[ sh:zeroOrOnePath " + g.pred() + " ]"
	}
	return g.pred()
}

// constraint writes one constraint; property says whether the shape has
// a path (some components need one).
func (g *gen) constraint(depth int, property bool) string {
	n := 22
	if depth > 1 {
		n = 17 // no nested shapes below two levels
	}
	switch k := g.r.IntN(n); k {
	case 0:
		return "sh:class " + g.class()
	case 1:
		return "sh:datatype " + g.pick("xsd:integer", "xsd:string", "rdf:langString", "xsd:date", "xsd:byte", "xsd:decimal", "xsd:boolean")
	case 2:
		return "sh:nodeKind " + g.pick("sh:IRI", "sh:BlankNode", "sh:Literal", "sh:BlankNodeOrIRI", "sh:BlankNodeOrLiteral", "sh:IRIOrLiteral")
	case 3:
		if property {
			return fmt.Sprintf("sh:minCount %d", g.r.IntN(3))
		}
		return "sh:minLength 1"
	case 4:
		if property {
			return fmt.Sprintf("sh:maxCount %d", g.r.IntN(3))
		}
		return "sh:maxLength 3"
	case 5:
		return g.pick("sh:minExclusive", "sh:minInclusive", "sh:maxExclusive", "sh:maxInclusive") + " " +
			g.pick("1", "2.5", `"2020-06-01"^^xsd:date`, `"2021-01-01T00:00:00Z"^^xsd:dateTime`, `"b"`)
	case 6:
		return fmt.Sprintf("%s %d", g.pick("sh:minLength", "sh:maxLength"), g.r.IntN(4))
	case 7:
		return "sh:pattern " + g.pick(`"^[a-c]+$"`, `"b"`, `"^n[0-2]$"`, `"^\\d"`, `"[^a]"`) + g.pick("", ` ; sh:flags "i"`)
	case 8:
		return "sh:languageIn " + g.pick(`( "en" )`, `( "en" "fr" )`, `( "*" )`, `( "en-gb" )`)
	case 9:
		if property {
			return "sh:uniqueLang true"
		}
		return "sh:hasValue " + g.value()
	case 10:
		return g.pick("sh:equals", "sh:disjoint") + " " + g.pred()
	case 11:
		if property {
			return g.pick("sh:lessThan", "sh:lessThanOrEquals") + " " + g.pred()
		}
		return "sh:in ( " + g.value() + " " + g.value() + " )"
	case 12:
		return "sh:hasValue " + g.value()
	case 13:
		return "sh:in ( " + g.value() + " " + g.value() + " " + g.value() + " )"
	case 14:
		return "sh:closed true ; sh:ignoredProperties ( rdf:type ) ; sh:property [ sh:path " + g.pred() + " ]"
	case 15, 16:
		return "sh:property " + g.shape(depth+1, true)
	case 17:
		return "sh:not " + g.shape(depth+1, g.r.IntN(2) == 0)
	case 18:
		return g.pick("sh:and", "sh:or", "sh:xone") + " ( " + g.shape(depth+1, false) + " " + g.shape(depth+1, g.r.IntN(2) == 0) + " )"
	case 19:
		return "sh:node " + g.shape(depth+1, false)
	case 20:
		if property {
			return fmt.Sprintf("sh:qualifiedValueShape %s ; %s %d", g.shape(depth+1, false),
				g.pick("sh:qualifiedMinCount", "sh:qualifiedMaxCount"), g.r.IntN(3))
		}
		return "sh:node " + g.shape(depth+1, false)
	default:
		return "sh:class " + g.class()
	}
}

// constraints writes n constraints of one shape, no parameter twice
// (shacl-engine reads one value of each parameter of a shape; SHACL
// makes each value a constraint of its own).
func (g *gen) constraints(n, depth int, property bool) []string {
	var out []string
	used := map[string]bool{}
	for len(out) < n {
		c := g.constraint(depth, property)
		param, _, _ := strings.Cut(c, " ")
		if !used[param] {
			used[param] = true
			out = append(out, c)
		}
	}
	return out
}

// shape writes a blank node shape.
func (g *gen) shape(depth int, property bool) string {
	var parts []string
	if property {
		parts = append(parts, "sh:path "+g.path(0))
	}
	parts = append(parts, g.constraints(1+g.r.IntN(2), depth, property)...)
	return "[ " + strings.Join(parts, " ; ") + " ]"
}

func (g *gen) shapes() string {
	var b strings.Builder
	for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
		target := g.pick("sh:targetNode "+g.node()+", "+g.node(), "sh:targetClass "+g.class(),
			"sh:targetSubjectsOf "+g.pred(), "sh:targetObjectsOf "+g.pred(), "sh:targetNode "+g.literal())
		property := g.r.IntN(2) == 0
		fmt.Fprintf(&b, "ex:S%d %s ;\n", i, target)
		if property {
			fmt.Fprintf(&b, "  sh:path %s ;\n", g.path(0))
		}
		if g.r.IntN(6) == 0 {
			fmt.Fprintf(&b, "  sh:severity %s ;\n", g.pick("sh:Warning", "sh:Info"))
		}
		for _, c := range g.constraints(1+g.r.IntN(3), 0, property) {
			fmt.Fprintf(&b, "  %s ;\n", c)
		}
		b.WriteString("  .\n")
	}
	return b.String()
}

// TestPeersGenerated: on random small graphs and shapes, both engines
// give the reports this package gives (-shacl.generated sets how many;
// the seed is fixed, so a failing case comes back).
func TestPeersGenerated(t *testing.T) {
	dir := *keep
	if dir == "" {
		dir = t.TempDir()
	}
	g := &gen{r: rand.New(rand.NewPCG(22, 1))}
	var cases []peerCase
	for i := range *generated {
		shapes := filepath.Join(dir, fmt.Sprintf("case%03d-shapes.ttl", i))
		data := filepath.Join(dir, fmt.Sprintf("case%03d-data.ttl", i))
		dataText, classes := g.data()
		if err := os.WriteFile(shapes, []byte(prefixes+g.shapes()+classes), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(data, []byte(prefixes+dataText), 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, peerCase{Name: fmt.Sprintf("case%03d", i), Shapes: []string{shapes}, Data: []string{data}})
	}
	testPeers(t, cases)
	if t.Failed() && *keep == "" {
		t.Log("-shacl.keep DIR keeps the cases")
	}
}
