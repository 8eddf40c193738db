package transform

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/rdf"
)

// UpliftFile is the name of the file that declares the extra steps of a
// block's semantic uplift, in the block's folder.
const UpliftFile = "semantic-uplift.yaml"

// Stages of the semantic uplift a step runs in.
const (
	Pre  = "pre"  // on the example's JSON, before it is uplifted
	Post = "post" // on the uplifted graph
)

// Step is one step of a block's semantic uplift.
type Step struct {
	// Type is jq (run on the JSON before the uplift), shacl,
	// sparql-construct or sparql-update (run on the graph after).
	Type string
	Code string // the step's code: inline, or read from Ref by Load
	Ref  string // the file (relative to the block's folder) or URL of the code; "" when inline
	Line int    // the line of the step in semantic-uplift.yaml
	// Inheritable marks a post-uplift step that the blocks depending on
	// this one run too, when they opt in (Uplift.Inherit).
	Inheritable bool
	// From is the block an inherited step comes from; "" for the block's own.
	From string

	raw    *ojson.Object // the step as written, for Published
	loaded bool
}

// Stage returns the stage the step runs in, Pre or Post.
func (s *Step) Stage() string {
	if s.Type == TypeJQ {
		return Pre
	}
	return Post
}

// Source says where the step's code is, as the tool chain's report says
// it: "inline code", or the ref.
func (s *Step) Source() string {
	if s.Ref == "" || s.From != "" {
		return "inline code"
	}
	return s.Ref
}

// Message returns the report entry the tool chain writes when it runs the
// step, e.g. "Running post-uplift shacl transform step from rules.shacl",
// with " (inherited from ID)" for a step of another block.
func (s *Step) Message() string {
	m := fmt.Sprintf("Running %s-uplift %s transform step from %s", s.Stage(), s.Type, s.Source())
	if s.From != "" {
		m += " (inherited from " + s.From + ")"
	}
	return m
}

// Uplift is the content of semantic-uplift.yaml: extra steps of the
// semantic uplift of the block's JSON examples and test resources.
type Uplift struct {
	Steps []*Step
	// Inherit is inheritedPostSteps: which of the blocks this one depends
	// on lend it their inheritable steps. Nil inherits from none; a list
	// holding All from every one; otherwise from the blocks it names.
	Inherit []string
	// Inherited are the steps taken from other blocks (see Inheritable),
	// run after the uplift before the block's own post-uplift steps.
	Inherited []*Step
}

// All, as the only member of Uplift.Inherit, inherits from every block
// (inheritedPostSteps: true).
const All = "*"

// InheritsFrom reports whether the uplift takes the inheritable steps of
// block id.
func (u *Uplift) InheritsFrom(id string) bool {
	if u == nil {
		return false
	}
	for _, x := range u.Inherit {
		if x == All || x == id {
			return true
		}
	}
	return false
}

// InheritableSteps returns copies of the steps other blocks inherit from
// this one, marked as coming from block id. A step whose code could not
// be read is left out: it is reported where it is declared.
func (u *Uplift) InheritableSteps(id string) []*Step {
	if u == nil {
		return nil
	}
	var out []*Step
	for _, s := range u.Steps {
		if s.Inheritable && (s.Ref == "" || s.loaded) {
			c := *s
			c.From = id
			out = append(out, &c)
		}
	}
	return out
}

// Published returns the block's steps as the tool chain publishes them
// (register.json's and the documentation's semanticUplift): each step as
// written without "ref", its code read from the ref; nil when there are
// no steps.
func (u *Uplift) Published() *ojson.Object {
	if u == nil || len(u.Steps) == 0 {
		return nil
	}
	var list []any
	for _, s := range u.Steps {
		o := ojson.NewObject()
		for _, k := range s.raw.Keys() {
			if k == "ref" || k == "stage" {
				continue
			}
			o.Set(k, s.raw.Value(k))
		}
		if s.Ref != "" && s.loaded {
			o.Set("code", s.Code)
		}
		list = append(list, o)
	}
	out := ojson.NewObject()
	out.Set("additionalSteps", list)
	return out
}

// ParseUplift reads semantic-uplift.yaml. A step that breaks the rules of
// the tool chain's schema for the file is an error and is left out; the
// error is non-nil only when the file is not YAML or not an object.
func ParseUplift(file string, data []byte) (*Uplift, []diag.Diagnostic, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, fmt.Errorf("%s: not YAML: %w", file, err)
	}
	u := &Uplift{}
	if len(root.Content) == 0 {
		return u, nil, nil
	}
	v, err := ojson.DecodeYAML(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	if v == nil {
		return u, nil, nil
	}
	doc, ok := v.(*ojson.Object)
	if !ok {
		return nil, nil, fmt.Errorf("%s:%d: must be an object with an \"additionalSteps\" list", file, root.Content[0].Line)
	}
	var probs []diag.Diagnostic
	for _, k := range doc.Keys() {
		switch k {
		case "additionalSteps":
		case "inheritedPostSteps":
			var ok bool
			if u.Inherit, ok = inheritSetting(doc.Value(k)); !ok {
				line := 0
				if n := mappingValue(root.Content[0], k); n != nil {
					line = n.Line
				}
				probs = append(probs, diag.Diagnostic{File: file, Line: line,
					Message: "\"inheritedPostSteps\" must be true, false or a list of block identifiers; no step is inherited"})
			}
		default:
			probs = append(probs, diag.Diagnostic{File: file, Severity: diag.Warning, Message: fmt.Sprintf("unknown member %q is ignored", k)})
		}
	}
	raw := doc.Value("additionalSteps")
	if raw == nil {
		return u, probs, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, nil, fmt.Errorf("%s: \"additionalSteps\" must be a list", file)
	}
	var lines []int
	if n := mappingValue(root.Content[0], "additionalSteps"); n != nil && n.Kind == yaml.SequenceNode {
		for _, e := range n.Content {
			lines = append(lines, e.Line)
		}
	}
	for i, e := range list {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		s, err := step(e)
		if err != nil {
			probs = append(probs, diag.Diagnostic{File: file, Line: line, Message: fmt.Sprintf("step %d: %v; it is not run", i+1, err)})
			continue
		}
		s.Line = line
		u.Steps = append(u.Steps, s)
	}
	return u, probs, nil
}

// inheritSetting reads inheritedPostSteps: true, false or a list of block
// identifiers (see Uplift.Inherit).
func inheritSetting(v any) ([]string, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return []string{All}, true
		}
		return nil, true
	case []any:
		ids := []string{}
		for _, e := range v {
			id, ok := e.(string)
			if !ok {
				return nil, false
			}
			ids = append(ids, id)
		}
		return ids, true
	}
	return nil, false
}

// step checks and reads one step.
func step(v any) (*Step, error) {
	o, ok := v.(*ojson.Object)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	s := &Step{}
	s.Type, _ = o.Value("type").(string)
	switch s.Type {
	case TypeJQ, TypeSHACL, TypeSPARQLConstruct, TypeSPARQLUpdate:
	case "":
		return nil, fmt.Errorf("\"type\" is required: jq, shacl, sparql-construct or sparql-update")
	default:
		return nil, fmt.Errorf("type %q is not a step type: use jq, shacl, sparql-construct or sparql-update", s.Type)
	}
	code, hasCode := o.Get("code")
	ref, hasRef := o.Get("ref")
	switch {
	case hasCode && hasRef:
		return nil, fmt.Errorf("has both \"code\" and \"ref\": give one")
	case hasCode:
		c, ok := code.(string)
		if !ok || strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf("\"code\" must be a string that is not blank")
		}
		s.Code = c
	case hasRef:
		r, ok := ref.(string)
		if !ok || strings.TrimSpace(r) == "" {
			return nil, fmt.Errorf("\"ref\" must be a file name or URL")
		}
		s.Ref = r
	default:
		return nil, fmt.Errorf("has neither \"code\" nor \"ref\": give one")
	}
	if inh, present := o.Get("inheritable"); present {
		if _, ok := inh.(bool); !ok {
			return nil, fmt.Errorf("\"inheritable\" must be true or false")
		}
		if s.Type == TypeJQ {
			return nil, fmt.Errorf("a jq step runs before the uplift and cannot be inheritable")
		}
		s.Inheritable = inh.(bool)
	}
	s.raw = o
	return s, nil
}

// Load reads the code of the steps that have a ref, with read, which reads
// a file of the block by its name relative to the block's folder. A URL is
// not fetched. It returns an error for each step whose code cannot be read;
// such a step fails when it runs.
func (u *Uplift) Load(read func(name string) ([]byte, error)) []error {
	var errs []error
	for _, s := range u.Steps {
		if s.Ref == "" || s.loaded {
			continue
		}
		if isURL(s.Ref) {
			errs = append(errs, fmt.Errorf("%s step: its code is at %s: jrpcld works offline and does not fetch it; copy the file into the block's folder and name it in \"ref\"", s.Type, s.Ref))
			continue
		}
		data, err := read(s.Ref)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s step: reading its code: %w", s.Type, err))
			continue
		}
		s.Code = string(data)
		s.loaded = true
	}
	return errs
}

// Pre runs the jq steps, in order, on an example's decoded JSON (numbers
// as json.Number, objects as map[string]any) and returns the JSON to
// uplift, in this process (Sandbox.Pre runs them in a sandbox). note is
// called with Message of each step before it runs, as the tool chain
// reports it. The first step that fails stops the uplift: its error is a
// *StepError.
func (u *Uplift) Pre(ctx context.Context, v any, note func(string)) (any, error) {
	return (*Sandbox)(nil).Pre(ctx, u, v, note)
}

// Post runs the graph steps, in order, on the uplifted graph and returns
// the graph to write, in this process (Sandbox.Post runs them in a
// sandbox). prefixes are the graph's (those of the JSON-LD context it was
// uplifted with, as rdflib binds them): a SPARQL step sees them, and
// rdflib's own, without declaring them. note is called as for Pre. A SHACL
// step adds what its rules infer; a sparql-update step changes the graph;
// a sparql-construct step replaces it with what its query builds.
func (u *Uplift) Post(ctx context.Context, ts []rdf.Triple, prefixes map[string]string, note func(string)) ([]rdf.Triple, error) {
	return (*Sandbox)(nil).Post(ctx, u, ts, prefixes, note)
}

// Pre runs the pre-uplift steps of u in the sandbox, as Uplift.Pre says.
func (s *Sandbox) Pre(ctx context.Context, u *Uplift, v any, note func(string)) (any, error) {
	if u == nil {
		return v, nil
	}
	for _, st := range u.Steps {
		if st.Stage() != Pre {
			continue
		}
		note(st.Message())
		if st.Ref != "" && !st.loaded {
			return nil, &StepError{st, fmt.Errorf("its code, %s, was not read", st.Ref)}
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, &StepError{st, fmt.Errorf("the JSON it runs on: %w", err)}
		}
		r, err := s.do(ctx, &job{Kind: jobPre, Code: st.Code, Value: data})
		if err == nil {
			v, err = decodeJSON(r.Data, "the jq program's result")
		}
		if err != nil {
			return nil, &StepError{st, err}
		}
	}
	return v, nil
}

// Post runs the post-uplift steps of u in the sandbox, as Uplift.Post
// says.
func (s *Sandbox) Post(ctx context.Context, u *Uplift, ts []rdf.Triple, prefixes map[string]string, note func(string)) ([]rdf.Triple, error) {
	if u == nil {
		return ts, nil
	}
	for _, st := range u.postOrder() {
		if st.Stage() != Post {
			continue
		}
		note(st.Message())
		if st.Ref != "" && !st.loaded {
			return nil, &StepError{st, fmt.Errorf("its code, %s, was not read", st.Ref)}
		}
		r, err := s.do(ctx, &job{Kind: jobPost, Type: st.Type, Code: st.Code, Graph: ts, Prefixes: prefixes})
		if err != nil {
			return nil, &StepError{st, err}
		}
		if isSPARQL(st.Type) {
			ts = r.Graph
		} else {
			ts = append(ts[:len(ts):len(ts)], r.Graph...)
		}
	}
	return ts, nil
}

// HasPost reports whether the uplift has graph steps.
func (u *Uplift) HasPost() bool {
	if u == nil {
		return false
	}
	for _, s := range u.postOrder() {
		if s.Stage() == Post {
			return true
		}
	}
	return false
}

// postOrder lists the steps in the order the tool chain runs them: the
// inherited ones first, then the block's own.
func (u *Uplift) postOrder() []*Step {
	if len(u.Inherited) == 0 {
		return u.Steps
	}
	return append(append([]*Step(nil), u.Inherited...), u.Steps...)
}
