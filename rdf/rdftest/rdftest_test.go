package rdftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

const ex = "http://example.org/"

func iri(s string) rdf.Term { return rdf.NewIRI(ex + s) }

func blank(s string) rdf.Term { return rdf.NewBlank(s) }

func str(s string) rdf.Term { return rdf.NewLiteral(s, "") }

func typed(s, dt string) rdf.Term { return rdf.NewLiteral(s, dt) }

func tr(s rdf.Term, p string, o rdf.Term) rdf.Triple {
	return rdf.Triple{S: s, P: ex + p, O: o}
}

// relabel renames every blank node through f.
func relabel(ts []rdf.Triple, f func(string) string) []rdf.Triple {
	out := make([]rdf.Triple, len(ts))
	ren := func(t rdf.Term) rdf.Term {
		if t.Kind == rdf.Blank {
			return blank(f(t.Value))
		}
		return t
	}
	for i, t := range ts {
		out[i] = rdf.Triple{S: ren(t.S), P: t.P, O: ren(t.O)}
	}
	return out
}

func shuffled(ts []rdf.Triple, seed uint64) []rdf.Triple {
	out := append([]rdf.Triple(nil), ts...)
	r := rand.New(rand.NewPCG(seed, 1))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// chain returns n blank nodes prefix0 -> prefix1 -> ... linked by ex:next,
// each carrying ex:v "x".
func chain(prefix string, n int) []rdf.Triple {
	var ts []rdf.Triple
	for i := 0; i < n; i++ {
		b := blank(fmt.Sprintf("%s%d", prefix, i))
		ts = append(ts, tr(b, "v", str("x")))
		if i+1 < n {
			ts = append(ts, tr(b, "next", blank(fmt.Sprintf("%s%d", prefix, i+1))))
		}
	}
	return ts
}

// cycle returns n blank nodes in a ring linked by ex:next.
func cycle(prefix string, n int) []rdf.Triple {
	var ts []rdf.Triple
	for i := 0; i < n; i++ {
		ts = append(ts, tr(blank(fmt.Sprintf("%s%d", prefix, i)), "next", blank(fmt.Sprintf("%s%d", prefix, (i+1)%n))))
	}
	return ts
}

// tree returns a random tree of n blank nodes with literal leaves.
func tree(n int, seed uint64) []rdf.Triple {
	r := rand.New(rand.NewPCG(seed, 2))
	ts := []rdf.Triple{tr(iri("root"), "child", blank("n0"))}
	for i := 1; i < n; i++ {
		parent := r.IntN(i)
		ts = append(ts, tr(blank(fmt.Sprintf("n%d", parent)), "child", blank(fmt.Sprintf("n%d", i))))
		ts = append(ts, tr(blank(fmt.Sprintf("n%d", i)), "v", str(fmt.Sprint(r.IntN(3)))))
	}
	return ts
}

func TestIsomorphic(t *testing.T) {
	base := []rdf.Triple{
		tr(iri("s"), "p", blank("x")),
		tr(blank("x"), "q", str("one")),
		tr(blank("x"), "r", blank("y")),
		tr(blank("y"), "q", typed("1", "http://www.w3.org/2001/XMLSchema#integer")),
		tr(blank("y"), "l", rdf.NewLangLiteral("chat", "fr")),
	}
	xsdInt := "http://www.w3.org/2001/XMLSchema#integer"
	twoChains := append(chain("a", 4), chain("b", 4)...)
	big := tree(3000, 7)
	bigChanged := append([]rdf.Triple(nil), big...)
	bigChanged[len(big)-1] = tr(bigChanged[len(big)-1].S, "v", str("7"))

	tests := []struct {
		name string
		a, b []rdf.Triple
		want bool
		msg  string // substring expected in the failure message
	}{
		{"empty", nil, nil, true, ""},
		{"self", base, base, true, ""},
		{"renamed blanks", base, relabel(base, func(s string) string { return "z" + s }), true, ""},
		{"shuffled and renamed", base, shuffled(relabel(base, strings.ToUpper), 3), true, ""},
		{"one literal differs", base, append(append([]rdf.Triple(nil), base[:1]...), append([]rdf.Triple{tr(blank("x"), "q", str("two"))}, base[2:]...)...), false, `"two"`},
		{"integer lexical forms differ", []rdf.Triple{tr(iri("s"), "p", typed("1", xsdInt))}, []rdf.Triple{tr(iri("s"), "p", typed("01", xsdInt))}, false, `"01"`},
		{"datatype differs", []rdf.Triple{tr(iri("s"), "p", typed("1", xsdInt))}, []rdf.Triple{tr(iri("s"), "p", typed("1", "http://www.w3.org/2001/XMLSchema#decimal"))}, false, "decimal"},
		{"plain versus xsd:string", []rdf.Triple{tr(iri("s"), "p", str("a"))}, []rdf.Triple{tr(iri("s"), "p", typed("a", "http://www.w3.org/2001/XMLSchema#string"))}, true, ""},
		{"string versus lang string", []rdf.Triple{tr(iri("s"), "p", str("a"))}, []rdf.Triple{tr(iri("s"), "p", rdf.NewLangLiteral("a", "en"))}, false, "@en"},
		{"language tag case", []rdf.Triple{tr(iri("s"), "p", rdf.NewLangLiteral("a", "en-US"))}, []rdf.Triple{tr(iri("s"), "p", rdf.NewLangLiteral("a", "en-us"))}, true, ""},
		{"blank versus IRI", []rdf.Triple{tr(iri("s"), "p", blank("o"))}, []rdf.Triple{tr(iri("s"), "p", iri("o"))}, false, "only in"},
		{"duplicates ignored", append(base, base[2], base[0]), base, true, ""},
		{"extra triple", base, append(append([]rdf.Triple(nil), base...), tr(iri("s"), "p", iri("o"))), false, "<http://example.org/o>"},
		{"two identical chains", twoChains, shuffled(relabel(twoChains, func(s string) string { return "k" + s }), 5), true, ""},
		{"two chains versus one long chain", twoChains, append(chain("a", 7), tr(blank("z"), "v", str("x"))), false, ""},
		{"two 3-cycles versus a 6-cycle", append(cycle("a", 3), cycle("b", 3)...), cycle("c", 6), false, "no blank node bijection"},
		{"swap versus loops", []rdf.Triple{tr(blank("x"), "p", blank("y")), tr(blank("y"), "p", blank("x"))}, []rdf.Triple{tr(blank("x"), "p", blank("x")), tr(blank("y"), "p", blank("y"))}, false, ""},
		{"large tree", big, shuffled(relabel(big, func(s string) string { return "m" + s }), 9), true, ""},
		{"large tree, one leaf changed", big, shuffled(relabel(bigChanged, func(s string) string { return "m" + s }), 9), false, `"7"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, msg := Isomorphic(tc.a, tc.b)
			if got != tc.want {
				t.Fatalf("Isomorphic = %v (%s), want %v", got, msg, tc.want)
			}
			if !got && !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not mention %q", msg, tc.msg)
			}
			if !got && msg == "" {
				t.Error("no message for a failure")
			}
			if back, _ := Isomorphic(tc.b, tc.a); back != got {
				t.Errorf("Isomorphic(b, a) = %v, not symmetric", back)
			}
		})
	}
}

func TestIsomorphicEmptyTerm(t *testing.T) {
	ok, msg := Isomorphic([]rdf.Triple{{S: iri("s"), P: ex + "p"}}, nil)
	if ok || !strings.Contains(msg, "empty term") {
		t.Fatalf("got %v %q, want a failure naming the empty term", ok, msg)
	}
	ok, msg = Isomorphic([]rdf.Triple{{S: iri("s"), O: iri("o")}}, nil)
	if ok || !strings.Contains(msg, "empty predicate") {
		t.Fatalf("got %v %q, want a failure naming the empty predicate", ok, msg)
	}
}

func TestIsomorphicQuads(t *testing.T) {
	q := func(s rdf.Term, p string, o rdf.Term, g rdf.Term) rdf.Quad {
		return rdf.Quad{Triple: tr(s, p, o), G: g}
	}
	a := []rdf.Quad{
		q(iri("s"), "p", blank("x"), blank("g")),
		q(blank("x"), "p", str("v"), blank("g")),
		q(blank("g"), "p", str("meta"), rdf.Term{}),
		q(iri("s"), "p", str("w"), iri("G")),
	}
	b := []rdf.Quad{
		q(blank("G2"), "p", str("meta"), rdf.Term{}),
		q(iri("s"), "p", str("w"), iri("G")),
		q(blank("y"), "p", str("v"), blank("G2")),
		q(iri("s"), "p", blank("y"), blank("G2")),
	}
	tests := []struct {
		name string
		a, b []rdf.Quad
		want bool
	}{
		{"renamed blank graph", a, b, true},
		{"graph name differs", a, append(append([]rdf.Quad(nil), b[:3]...), q(iri("s"), "p", blank("y"), blank("other"))), false},
		{"default versus named graph", []rdf.Quad{q(iri("s"), "p", str("w"), rdf.Term{})}, []rdf.Quad{q(iri("s"), "p", str("w"), iri("G"))}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, msg := IsomorphicQuads(tc.a, tc.b); got != tc.want {
				t.Fatalf("IsomorphicQuads = %v (%s), want %v", got, msg, tc.want)
			}
		})
	}
}

const sample = `@prefix ex: <http://example.org/> .
@base <http://example.org/base/> .
ex:s ex:p "a\"b\\c\n" , "chat"@fr , 1 , 2.5 , 1e3 , true ;
    ex:q [ ex:r <rel> ] , _:lbl .
_:lbl ex:v """long "quoted" text""" .
`

// sampleNT is sample written by hand in N-Triples.
const sampleNT = `<http://example.org/s> <http://example.org/p> "a\"b\\c\n" .
<http://example.org/s> <http://example.org/p> "chat"@fr .
<http://example.org/s> <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://example.org/s> <http://example.org/p> "2.5"^^<http://www.w3.org/2001/XMLSchema#decimal> .
<http://example.org/s> <http://example.org/p> "1e3"^^<http://www.w3.org/2001/XMLSchema#double> .
<http://example.org/s> <http://example.org/p> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<http://example.org/s> <http://example.org/q> _:n .
_:n <http://example.org/r> <http://example.org/base/rel> .
<http://example.org/s> <http://example.org/q> _:lbl .
_:lbl <http://example.org/v> "long \"quoted\" text" .
`

func TestParsers(t *testing.T) {
	want, err := ParseNTriples([]byte(sampleNT))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 10 {
		t.Fatalf("ParseNTriples returned %d triples, want 10", len(want))
	}
	got, err := ParseTurtle([]byte(sample), "")
	if err != nil {
		t.Fatal(err)
	}
	if ok, msg := Isomorphic(got, want); !ok {
		t.Errorf("ParseTurtle: %s", msg)
	}
	nq, err := ParseNQuads([]byte(strings.ReplaceAll(sampleNT, " .\n", " <http://example.org/g> .\n")))
	if err != nil {
		t.Fatal(err)
	}
	var wantQ []rdf.Quad
	for _, tr := range want {
		wantQ = append(wantQ, rdf.Quad{Triple: tr, G: iri("g")})
	}
	if ok, msg := IsomorphicQuads(nq, wantQ); !ok {
		t.Errorf("ParseNQuads: %s", msg)
	}
	if ok, msg := Isomorphic(Rapper(t, []byte(sample), ""), want); !ok {
		t.Errorf("Rapper: %s", msg)
	}
	for _, tool := range []string{"rapper", "serdi"} {
		for _, c := range []struct {
			syntax string
			data   string
		}{{"turtle", sample}, {"ntriples", sampleNT}} {
			qs := ParseWith(t, tool, c.syntax, []byte(c.data), "")
			var ts []rdf.Triple
			for _, q := range qs {
				ts = append(ts, q.Triple)
			}
			if ok, msg := Isomorphic(ts, want); !ok {
				t.Errorf("%s %s: %s", tool, c.syntax, msg)
			}
		}
	}
}

func TestParseTurtleErrors(t *testing.T) {
	for _, doc := range []string{
		"<http://example.org/s> <http://example.org/p> _:b1 .\n", // collides with knakk's own labels
		"<http://example.org/s> <http://example.org/p> \"open .\n",
		"ex:s <http://example.org/p> 1 .\n", // undeclared prefix
	} {
		if _, err := ParseTurtle([]byte(doc), ""); err == nil {
			t.Errorf("ParseTurtle(%q) succeeded, want an error", doc)
		}
	}
}

// stopTB records Skipf and Fatalf instead of ending the test.
type stopTB struct {
	testing.TB
	skipped, failed string
}

type stop struct{}

func (s *stopTB) Helper() {}
func (s *stopTB) Skipf(format string, args ...any) {
	s.skipped = fmt.Sprintf(format, args...)
	panic(stop{})
}
func (s *stopTB) Fatalf(format string, args ...any) {
	s.failed = fmt.Sprintf(format, args...)
	panic(stop{})
}

func runStopped(tb *stopTB, f func(testing.TB)) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
		}
	}()
	f(tb)
}

func TestParseWithMissingTool(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, shared := range []string{"", "/somewhere"} {
		t.Setenv("JRPCLD_SHARED", shared)
		tb := &stopTB{TB: t}
		runStopped(tb, func(tb testing.TB) { Rapper(tb, []byte(sample), "") })
		if shared == "" && (tb.skipped == "" || tb.failed != "") {
			t.Errorf("without JRPCLD_SHARED: skipped %q, failed %q; want a skip", tb.skipped, tb.failed)
		}
		if shared != "" && (tb.failed == "" || tb.skipped != "") {
			t.Errorf("with JRPCLD_SHARED: skipped %q, failed %q; want a failure", tb.skipped, tb.failed)
		}
	}
}

func TestParseWithRejects(t *testing.T) {
	for _, c := range []struct{ tool, doc string }{
		{"rapper", "<http://example.org/s> <http://example.org/p> \"open .\n"},
		{"serdi", "<http://example.org/s> <http://example.org/p> \"open .\n"},
		{"rapper", "<http://example.org/s> <http://example.org/p> _:genid1 .\n"},
	} {
		tb := &stopTB{TB: t}
		runStopped(tb, func(tb testing.TB) { ParseWith(tb, c.tool, "turtle", []byte(c.doc), "") })
		if tb.skipped != "" {
			t.Skip(tb.skipped)
		}
		if tb.failed == "" {
			t.Errorf("%s accepted %q", c.tool, c.doc)
		}
	}
}

// BenchmarkIsomorphicLargeTree: the large tree of TestIsomorphic against a
// shuffled, relabelled copy. A search that is not linear in practice shows
// here (it was a wall-clock limit in the test, which a busy machine broke).
func BenchmarkIsomorphicLargeTree(b *testing.B) {
	big := tree(3000, 7)
	other := shuffled(relabel(big, func(s string) string { return "m" + s }), 9)
	for b.Loop() {
		if ok, msg := Isomorphic(big, other); !ok {
			b.Fatal(msg)
		}
	}
}
