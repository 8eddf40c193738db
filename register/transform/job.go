package transform

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jrpcld/jrpcld/rdf"
)

// The kinds of work a job does.
const (
	jobTransform = "transform" // a transform on one snippet
	jobPre       = "pre"       // a pre-uplift jq step on a JSON value
	jobPost      = "post"      // a post-uplift SHACL or SPARQL step on a graph
)

// job is the work of one transform or uplift step on one input, in the
// form a child process receives it (see Sandbox): plain data only, JSON
// values as text. The same job runs in this process when there is no
// sandbox, so that both ways give the same output.
type job struct {
	Kind   string
	Type   string // the transform's or post-uplift step's type
	Code   string // the program, frame or shapes
	Target string // the media type of the output (jobTransform)

	// The snippet (jobTransform): Input's members, Contexts as JSON text.
	Data      []byte
	MediaType string
	Prefixes  map[string]string // also the graph's prefixes (jobPost)
	Contexts  []byte

	Value []byte       // the JSON value (jobPre)
	Graph []rdf.Triple // the graph (jobPost)
}

// result is what a job gives: the transform's output or the step's JSON
// value (Data), or what a post-uplift step makes of the graph (Graph): the
// triples a SHACL step infers, the whole graph after a SPARQL step.
type result struct {
	Data  []byte
	Graph []rdf.Triple
}

// transformJob returns the job of transform t on snippet in.
func transformJob(t *Transform, in Input) (*job, error) {
	j := &job{Kind: jobTransform, Type: t.Type, Code: t.Code, Target: t.Outputs[0].MIME,
		Data: in.Data, MediaType: in.MediaType, Prefixes: in.Prefixes}
	if len(in.Contexts) > 0 {
		var err error
		if j.Contexts, err = json.Marshal(in.Contexts); err != nil {
			return nil, fmt.Errorf("the snippet's contexts: %w", err)
		}
	}
	return j, nil
}

// do runs the job here, until ctx ends (a jq program; framing and SHACL
// rules run to their end).
func (j *job) do(ctx context.Context) (result, error) {
	switch j.Kind {
	case jobTransform:
		in := Input{Data: j.Data, MediaType: j.MediaType, Prefixes: j.Prefixes}
		if len(j.Contexts) > 0 {
			v, err := decodeJSON(j.Contexts, "the snippet's contexts")
			if err != nil {
				return result{}, err
			}
			in.Contexts, _ = v.(map[string]any)
		}
		var out []byte
		var err error
		switch j.Type {
		case TypeJQ:
			out, err = jq(ctx, j.Code, in.Data)
		case TypeJSONLDFrame:
			out, err = frame(j.Code, in, j.Target)
		case TypeSHACLRules, TypeSHACL:
			out, err = rules(ctx, j.Type, j.Code, in, j.Target)
		case TypeSPARQLUpdate, TypeSPARQLConstruct:
			out, err = sparqlTransform(ctx, j.Type, j.Code, in, j.Target)
		default:
			err = fmt.Errorf("jrpcld does not run %s transforms", j.Type)
		}
		return result{Data: out}, err
	case jobPre:
		v, err := decodeJSON(j.Value, "the JSON it runs on")
		if err != nil {
			return result{}, err
		}
		out, err := jqStep(ctx, j.Code, v)
		if err != nil {
			return result{}, err
		}
		data, err := json.Marshal(out)
		if err != nil {
			return result{}, fmt.Errorf("the jq program's result: %w", err)
		}
		return result{Data: data}, nil
	case jobPost:
		if isSPARQL(j.Type) {
			after, err := runSPARQL(ctx, j.Type, j.Code, j.Graph, j.Prefixes)
			return result{Graph: after}, err
		}
		inferred, err := inferGraph(ctx, j.Code, j.Graph)
		return result{Graph: inferred}, err
	}
	return result{}, fmt.Errorf("unknown kind of job %q", j.Kind)
}
