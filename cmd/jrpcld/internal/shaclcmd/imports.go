package shaclcmd

import (
	"slices"
	"strconv"
	"strings"

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
	ts := g.Triples()
	added, unmapped, err := owlimports.Follow(ts, im.m, im.load)
	for _, u := range unmapped {
		if !slices.Contains(im.unmapped, u) {
			im.unmapped = append(im.unmapped, u)
		}
	}
	if err != nil || len(added) == 0 {
		return g, err
	}
	return shacl.NewGraph(slices.Concat(ts, added)), nil
}

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
		"to read a local copy, give jrpcld shacl --map URL=FILE", strings.Join(im.unmapped, ">, <"))
	im.unmapped = nil
}

// infer returns g with its RDFS entailment added, for --inference rdfs.
func infer(g *shacl.Graph) *shacl.Graph {
	ts := g.Triples()
	if added := rdfs.Infer(ts); len(added) > 0 {
		return shacl.NewGraph(slices.Concat(ts, added))
	}
	return g
}
