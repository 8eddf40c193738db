package transform

import (
	"context"
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl"
)

// rules runs a shacl-af-rule or shacl transform: the SHACL rules of the
// transform's shapes over the snippet's graph, which is written with what
// they infer. A shacl-af-rule transform declares the example's prefixes
// before a Turtle snippet, as the tool chain does; a shacl transform does
// not.
func rules(ctx context.Context, typ, shapes string, in Input, target string) ([]byte, error) {
	g, err := readGraph(in, typ == TypeSHACLRules)
	if err != nil {
		return nil, err
	}
	inferred, err := inferGraph(ctx, shapes, g.triples)
	if err != nil {
		return nil, err
	}
	g.triples = append(g.triples[:len(g.triples):len(g.triples)], inferred...)
	return writeGraph(g, target)
}

// inferGraph returns what the SHACL-AF triple rules of shapes (Turtle)
// infer from a graph and it does not hold, which pySHACL's validation with
// advanced features adds to the graph it is given.
func inferGraph(ctx context.Context, shapes string, ts []rdf.Triple) ([]rdf.Triple, error) {
	quads, _, err := rdf.Parse([]byte(shapes), rdf.Turtle, "")
	if err != nil {
		return nil, fmt.Errorf("the shapes are not Turtle: %w", err)
	}
	sh, err := shacl.Compile(tripleList(quads))
	if err != nil {
		return nil, fmt.Errorf("the shapes: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inferred, err := sh.Infer(shacl.NewGraph(ts))
	if err != nil {
		return nil, fmt.Errorf("the rules: %w", err)
	}
	return inferred, nil
}
