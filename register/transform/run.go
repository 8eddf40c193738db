package transform

import (
	"context"
	"time"
)

// runLimit bounds the time one transform or uplift step may run on one
// snippet: a jq program can loop for ever.
const runLimit = 10 * time.Second

// Input is what a transform runs on: one example snippet.
type Input struct {
	Data []byte
	// MediaType is the snippet's media type, normalised
	// (NormalizeMediaType): one of the transform's inputs.
	MediaType string
	// Prefixes are the example's prefixes (those of examples.yaml merged
	// with the example's own); the RDF transforms declare them before a
	// Turtle snippet, as the tool chain does.
	Prefixes map[string]string
	// Contexts are JSON-LD contexts by the reference a JSON-LD snippet
	// names them with (the URL of the block's built context, say): such a
	// reference is replaced by the context's value. Any other context
	// reference fails; none is fetched.
	Contexts map[string]any
}

// Runs reports whether jrpcld runs transforms of the type.
func Runs(typ string) bool {
	switch typ {
	case TypeJQ, TypeJSONLDFrame, TypeSHACLRules, TypeSHACL, TypeSPARQLUpdate, TypeSPARQLConstruct:
		return true
	}
	return false
}

// Run runs the transform on one snippet, in this process (Sandbox.Run
// runs it in a sandbox), and returns its output, in the media type of its
// first output (t.Outputs[0]). The code must have been loaded (Load). A
// type jrpcld does not run gives a *NotRunError; the other errors say why
// the transform failed, as the tool chain would report it. Run stops a jq
// program and a SPARQL transform after ten seconds; framing and SHACL
// rules run to their end.
func (t *Transform) Run(ctx context.Context, in Input) ([]byte, error) {
	return (*Sandbox)(nil).Run(ctx, t, in)
}
