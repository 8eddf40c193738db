package shaclcmd

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/owlimports"
	"github.com/jrpcld/jrpcld/rdf/rdfs"
	"github.com/jrpcld/jrpcld/rdf/shacl"
)

// importer follows the owl:imports of the shapes and data graphs to the
// files of --map, and gathers those it cannot follow.
type importer struct {
	e        *cli.Env
	m        owlimports.Map
	files    int      // files read, for their blank node labels
	unmapped []string // imports not followed, each once
}

// follow returns g with the triples of the files its owl:imports lead to.
func (im *importer) follow(g *shacl.Graph) (*shacl.Graph, error) {
	added, unmapped, err := owlimports.Follow(importTriples(g), im.m, im.load)
	for _, u := range unmapped {
		if !slices.Contains(im.unmapped, u) {
			im.unmapped = append(im.unmapped, u)
		}
	}
	if err != nil || len(added) == 0 {
		return g, err
	}
	return shacl.NewGraph(slices.Concat(g.Triples(), added)), nil
}

// importTriples returns the triples of g that owlimports.Follow reads, in
// the order of g.Triples: those of owl:imports, and those typing an
// owl:Ontology. Handing it every triple instead made a copy of the graph as
// rdf.Triple values, a tenth of the CPU time and about a third of the
// memory of checking a graph of a million triples.
func importTriples(g *shacl.Graph) []rdf.Triple {
	var ts []rdf.Triple
	if p := g.ID(rdf.NewIRI(owlimports.Imports)); p != 0 {
		for _, e := range g.WithPredicate(p) { // (s, o) by s, then o
			ts = append(ts, rdf.Triple{S: g.Term(e.A), P: owlimports.Imports, O: g.Term(e.B)})
		}
	}
	typ, ont := g.ID(rdf.NewIRI(rdf.RDFType)), g.ID(rdf.NewIRI(owlOntology))
	if typ != 0 && ont != 0 {
		for _, e := range g.Subjects(typ, ont) { // (p, s)
			ts = append(ts, rdf.Triple{S: g.Term(e.B), P: rdf.RDFType, O: g.Term(ont)})
		}
	}
	return ts
}

// owlOntology is the class whose instances owlimports.Follow takes for the
// graph's own ontologies.
const owlOntology = rdf.OWLNS + "Ontology"

// load reads a mapped file, its blank nodes its own.
func (im *importer) load(_, file string) ([]rdf.Triple, error) {
	data, display, err := readAll(im.e, file)
	if err != nil {
		return nil, err
	}
	b := shacl.NewBuilder(0)
	im.files++
	b.SetBlankPrefix("i" + strconv.Itoa(im.files) + ".")
	if err := parseRDF(b, file, display, data, true); err != nil {
		return nil, err
	}
	return b.Graph().Triples(), nil
}

// note says once, on standard error, which owl:imports were not followed.
func (im *importer) note(cmd string) {
	if len(im.unmapped) == 0 {
		return
	}
	cli.Errorf(im.e, cmd, "note: owl:imports not followed (jrpcld reads nothing from the network): <%s>; "+
		"to read a local copy, give --map URL=FILE", strings.Join(im.unmapped, ">, <"))
	im.unmapped = nil
}

// infer returns g with its RDFS entailment added when on is true
// (--inference rdfs), else g.
func infer(g *shacl.Graph, on bool) *shacl.Graph {
	if !on {
		return g
	}
	ts := g.Triples()
	if added := rdfs.Infer(ts); len(added) > 0 {
		return shacl.NewGraph(slices.Concat(ts, added))
	}
	return g
}

// GraphFlags are the flags shacl and validate --shapes share for the
// graphs: --inference and --map.
type GraphFlags struct {
	Inference string   // --inference: "none" or "rdfs"
	Maps      []string // --map URL=FILE pairs
}

// AddGraphFlags adds --inference and --map to fs.
func AddGraphFlags(fs *pflag.FlagSet) *GraphFlags {
	g := &GraphFlags{}
	fs.StringVar(&g.Inference, "inference", "none", "add the data graph's entailment before validating: `none` or rdfs (as pySHACL -i)")
	fs.StringArrayVar(&g.Maps, "map", nil, "read local `URL=FILE` where an owl:imports names URL (repeatable)")
	return g
}

// importer checks the flags and returns the importer of their --map.
func (g *GraphFlags) importer(e *cli.Env) (*importer, error) {
	if g.Inference != "none" && g.Inference != "rdfs" {
		return nil, fmt.Errorf("--inference must be none or rdfs, not %q (jrpcld has no OWL RL reasoner)", g.Inference)
	}
	m, err := owlimports.ParseMap(g.Maps)
	if err != nil {
		return nil, err
	}
	return &importer{e: e, m: m}, nil
}

// rdfs says whether --inference rdfs was given.
func (g *GraphFlags) rdfs() bool { return g != nil && g.Inference == "rdfs" }
