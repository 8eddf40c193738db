// Package rdftest holds helpers for tests that produce RDF: graph and
// dataset isomorphism with blank node mapping, decoding with
// github.com/knakk/rdf, and decoding with the external parsers rapper
// (raptor2-utils) and serdi, so that every serialiser can be checked by
// readers that share no code with it. Whatever they decode comes back as
// jrpcld's own terms (package rdf): knakk/rdf is used here only, as an
// independent parser.
//
// Known reader limitations, measured with the versions on the build machine:
//   - knakk/rdf names the blank nodes of [] and () b1, b2, ... and merges
//     them with explicit labels of that form; ParseTurtle therefore refuses
//     Turtle that contains an explicit _:b<digit> label. It also misreads
//     prefix names that begin with a keyword (true, false, base, prefix).
//   - rapper 2.0.15 names anonymous blank nodes genid1, genid2, ... with the
//     same merging problem (Rapper and ParseWith refuse _:genid<digit> in
//     Turtle), silently truncates literals at U+0000 and drops or refuses
//     U+FFFE and U+FFFF. Use serdi for such data.
package rdftest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	knakk "github.com/knakk/rdf"
)

// knakkLabel matches explicit blank node labels that knakk/rdf also
// generates for anonymous blank nodes.
var knakkLabel = regexp.MustCompile(`_:b[0-9]`)

// rapperLabel matches explicit blank node labels that rapper also generates
// for anonymous blank nodes.
var rapperLabel = regexp.MustCompile(`_:genid[0-9]`)

// DefaultBase is the base IRI given to the external parsers when the caller
// passes none (they need one to read standard input).
const DefaultBase = "http://rdftest.invalid/"

// ParseTurtle decodes a Turtle document with knakk/rdf, resolving relative
// IRIs against base when it is not empty.
func ParseTurtle(data []byte, base string) ([]rdf.Triple, error) {
	if m := knakkLabel.Find(data); m != nil {
		return nil, fmt.Errorf("rdftest: Turtle uses the label %q, which knakk/rdf confuses with its generated blank node labels", m)
	}
	dec := knakk.NewTripleDecoder(bytes.NewReader(data), knakk.Turtle)
	if base != "" {
		iri, err := knakk.NewIRI(base)
		if err != nil {
			return nil, fmt.Errorf("rdftest: base %q: %w", base, err)
		}
		if err := dec.SetOption(knakk.Base, iri); err != nil {
			return nil, fmt.Errorf("rdftest: base %q: %w", base, err)
		}
	}
	ts, err := dec.DecodeAll()
	if err != nil {
		return nil, fmt.Errorf("rdftest: knakk/rdf Turtle: %w", err)
	}
	return fromKnakkTriples(ts), nil
}

// ParseNTriples decodes an N-Triples document with knakk/rdf.
func ParseNTriples(data []byte) ([]rdf.Triple, error) {
	ts, err := knakk.NewTripleDecoder(bytes.NewReader(data), knakk.NTriples).DecodeAll()
	if err != nil {
		return nil, fmt.Errorf("rdftest: knakk/rdf N-Triples: %w", err)
	}
	return fromKnakkTriples(ts), nil
}

// ParseNQuads decodes an N-Quads document with knakk/rdf. Quads of the
// default graph have a zero G.
func ParseNQuads(data []byte) ([]rdf.Quad, error) {
	dec := knakk.NewQuadDecoder(bytes.NewReader(data), knakk.NQuads)
	dec.DefaultGraph = nil // knakk's default is a blank node named defaultGraph
	qs, err := dec.DecodeAll()
	if err != nil {
		return nil, fmt.Errorf("rdftest: knakk/rdf N-Quads: %w", err)
	}
	out := make([]rdf.Quad, len(qs))
	for i, q := range qs {
		out[i].Triple = fromKnakk(q.Triple)
		if q.Ctx != nil {
			out[i].G = fromKnakkTerm(q.Ctx)
		}
	}
	return out, nil
}

func fromKnakkTriples(ts []knakk.Triple) []rdf.Triple {
	out := make([]rdf.Triple, len(ts))
	for i, t := range ts {
		out[i] = fromKnakk(t)
	}
	return out
}

func fromKnakk(t knakk.Triple) rdf.Triple {
	return rdf.Triple{S: fromKnakkTerm(t.Subj), P: t.Pred.String(), O: fromKnakkTerm(t.Obj)}
}

// fromKnakkTerm turns a knakk/rdf term into jrpcld's.
func fromKnakkTerm(t knakk.Term) rdf.Term {
	switch v := t.(type) {
	case knakk.IRI:
		return rdf.NewIRI(v.String())
	case knakk.Blank:
		return rdf.NewBlank(strings.TrimPrefix(v.Serialize(knakk.NTriples), "_:"))
	case knakk.Literal:
		if v.Lang() != "" {
			return rdf.NewLangLiteral(v.String(), v.Lang())
		}
		return rdf.NewLiteral(v.String(), v.DataType.String())
	}
	return rdf.Term{}
}

// Rapper parses Turtle with the external rapper (raptor2-utils) and decodes
// its N-Triples output: a second, fully independent parser. When rapper is
// absent it skips t, unless JRPCLD_SHARED is set (CI), where it fails t.
func Rapper(t testing.TB, turtle []byte, base string) []rdf.Triple {
	t.Helper()
	qs := ParseWith(t, "rapper", "turtle", turtle, base)
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		if !q.InDefaultGraph() {
			t.Fatalf("rdftest: rapper returned a quad in graph %s for Turtle input", q.G)
			return nil
		}
		ts[i] = q.Triple
	}
	return ts
}

// ParseWith runs the external parser tool ("rapper" or "serdi") on data in
// syntax ("turtle", "ntriples" or "nquads") and decodes its N-Quads output.
// base defaults to DefaultBase. A missing tool skips t, or fails it when
// JRPCLD_SHARED is set; a parse error fails t with the tool's message.
func ParseWith(t testing.TB, tool, syntax string, data []byte, base string) []rdf.Quad {
	t.Helper()
	if base == "" {
		base = DefaultBase
	}
	var args []string
	switch tool {
	case "rapper":
		if syntax == "turtle" {
			if m := rapperLabel.Find(data); m != nil {
				t.Fatalf("rdftest: Turtle uses the label %q, which rapper confuses with its generated blank node labels", m)
				return nil
			}
		}
		args = []string{"-q", "-f", "strict", "-f", "noNet", "-f", "noFile", "-i", syntax, "-o", "nquads", "-", base}
	case "serdi":
		args = []string{"-q", "-i", syntax, "-o", "nquads", "-", base}
	default:
		t.Fatalf("rdftest: unknown parser %q (want rapper or serdi)", tool)
		return nil
	}
	path, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("JRPCLD_SHARED") != "" {
			t.Fatalf("rdftest: %s is required when JRPCLD_SHARED is set: %v", tool, err)
			return nil
		}
		t.Skipf("rdftest: %s not installed (%v); skipping the independent parser check", tool, err)
		return nil
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin = bytes.NewReader(data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("rdftest: %s -i %s failed (%v): %s\ninput (first 2000 bytes):\n%s", tool, syntax, err, stderr.Bytes(), head(data, 2000))
		return nil
	}
	qs, err := ParseNQuads(stdout.Bytes())
	if err != nil {
		t.Fatalf("rdftest: decoding the N-Quads output of %s: %v", tool, err)
		return nil
	}
	return qs
}

// head returns at most n bytes of b.
func head(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
