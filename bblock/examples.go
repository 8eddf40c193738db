package bblock

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"go.yaml.in/yaml/v3"
)

// Examples is the content of a block's examples.yaml.
type Examples struct {
	Prefixes map[string]string // prefixes for every example
	// PrefixOrder lists the names of Prefixes in the file's order.
	PrefixOrder []string
	Examples    []Example
}

// PrefixNamesOf returns the names of the prefixes that apply to example
// ex in the order the tool chain gives them: those of the file in its
// order, then those the example adds, in its order.
func (e *Examples) PrefixNamesOf(ex Example) []string {
	out := slices.Clone(e.PrefixOrder)
	for _, n := range ex.PrefixOrder {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// PrefixesOf returns the prefixes that apply to example ex: those of the
// file, with the example's own over them.
func (e *Examples) PrefixesOf(ex Example) map[string]string {
	if len(ex.Prefixes) == 0 {
		return e.Prefixes
	}
	out := maps.Clone(e.Prefixes)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, ex.Prefixes)
	return out
}

// Example is one example of a block: prose and code snippets.
type Example struct {
	Title              string            `yaml:"title"`
	Content            string            `yaml:"content"`
	BaseURI            string            `yaml:"base-uri"`
	BaseOutputFilename string            `yaml:"base-output-filename"`
	Prefixes           map[string]string `yaml:"prefixes"`
	PrefixOrder        []string          `yaml:"-"` // the names of Prefixes in their order
	Snippets           []Snippet         `yaml:"snippets"`
	Line               int               `yaml:"-"` // line of the example in examples.yaml
	// Members are the example's members as examples.yaml writes them, in
	// their order, which the documentation copies.
	Members []Member `yaml:"-"`
}

// Member is a member of an example or a snippet as examples.yaml writes it.
type Member struct {
	Key   string
	Value any // as YAML decodes it
}

// Snippet is one code snippet of an example: inline code or a file
// reference, in some language, optionally checked against a schema reference.
type Snippet struct {
	Language  string            `yaml:"language"`
	Code      string            `yaml:"code"`
	Ref       string            `yaml:"ref"`
	SchemaRef string            `yaml:"schema-ref"`
	BaseURI   string            `yaml:"base-uri"`
	Prefixes  map[string]string `yaml:"prefixes"`
	// JSONPath selects, in the file Ref names, the value that is the
	// snippet (its first match).
	JSONPath string `yaml:"json-path"`
	// SHACLClosure names Turtle files (relative to the block's folder) or
	// URLs whose triples join the snippet's graph when SHACL validates it,
	// beside the block's shaclClosures. One name alone is a list of one.
	SHACLClosure names `yaml:"shacl-closure"`
	// DocUpliftFormats lists the uplifted forms of the snippet ("jsonld",
	// "ttl") the documentation adds to its example: nil when examples.yaml
	// does not say (both), empty when it says none (null or []).
	DocUpliftFormats []string `yaml:"-"`
	Line             int      `yaml:"-"` // line of the snippet in examples.yaml
	// Members are the snippet's members as examples.yaml writes them, in
	// their order, which the documentation copies.
	Members []Member `yaml:"-"`
}

// names is a list of strings that YAML may also give as one string.
type names []string

// UnmarshalYAML reads a string or a list of strings.
func (n *names) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		*n = nil
		if v.Tag != "!!null" {
			*n = names{v.Value}
		}
		return nil
	}
	var list []string
	if err := v.Decode(&list); err != nil {
		return err
	}
	*n = list
	return nil
}

// IsJSON reports whether the snippet's language is JSON (json or a JSON media type).
func (s Snippet) IsJSON() bool {
	l := strings.ToLower(s.Language)
	return l == "json" || l == "application/json" || strings.HasSuffix(l, "+json")
}

// ParseExamples decodes examples.yaml, in either of its forms: a bare list of
// examples, or an object with "prefixes" and "examples". Problems name the
// file and line.
func ParseExamples(file string, data []byte) (*Examples, []Problem, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, fmt.Errorf("%s: not YAML: %w", file, err)
	}
	out := &Examples{}
	if root.Kind == 0 || len(root.Content) == 0 {
		return out, []Problem{{File: file, Message: "examples file is empty", Severity: diag.Warning}}, nil
	}
	doc := root.Content[0]
	list := doc
	if doc.Kind == yaml.MappingNode {
		list = nil
		for i := 0; i+1 < len(doc.Content); i += 2 {
			switch doc.Content[i].Value {
			case "prefixes":
				if err := doc.Content[i+1].Decode(&out.Prefixes); err != nil {
					return nil, nil, fmt.Errorf("%s:%d: prefixes must map names to IRIs: %w", file, doc.Content[i+1].Line, err)
				}
				out.PrefixOrder = keys(doc.Content[i+1])
			case "examples":
				list = doc.Content[i+1]
			}
		}
		if list == nil {
			return nil, nil, fmt.Errorf("%s:%d: an object form needs an \"examples\" list", file, doc.Line)
		}
	}
	if list.Kind != yaml.SequenceNode {
		return nil, nil, fmt.Errorf("%s:%d: examples must be a list, or an object with \"examples\"", file, list.Line)
	}
	var probs []Problem
	for i, n := range list.Content {
		var ex Example
		if err := n.Decode(&ex); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: example %d: %w", file, n.Line, i+1, err)
		}
		ex.Line = n.Line
		ex.Members = members(n)
		if p := mappingValue(n, "prefixes"); p != nil {
			ex.PrefixOrder = keys(p)
		}
		if ex.Content == "" && len(ex.Snippets) == 0 {
			probs = append(probs, Problem{File: file, Message: fmt.Sprintf("line %d: example %d has neither content nor snippets", n.Line, i+1)})
		}
		snips := mappingValue(n, "snippets")
		for j := range ex.Snippets {
			s := &ex.Snippets[j]
			if snips != nil && j < len(snips.Content) {
				s.Line = snips.Content[j].Line
				s.Members = members(snips.Content[j])
			}
			where := fmt.Sprintf("line %d: example %d snippet %d", s.Line, i+1, j+1)
			if snips != nil && j < len(snips.Content) {
				if f := mappingValue(snips.Content[j], "doc-uplift-formats"); f != nil {
					var err error
					if s.DocUpliftFormats, err = upliftFormats(f); err != nil {
						probs = append(probs, Problem{File: file, Message: fmt.Sprintf("line %d: example %d snippet %d: doc-uplift-formats %v; the documentation gets both uplifted forms", f.Line, i+1, j+1, err)})
					}
				}
			}
			switch {
			case s.Language == "":
				probs = append(probs, Problem{File: file, Message: where + ": language is required"})
			case s.Code != "" && s.Ref != "":
				probs = append(probs, Problem{File: file, Message: where + ": has both code and ref; give exactly one"})
			case s.Code == "" && s.Ref == "":
				probs = append(probs, Problem{File: file, Message: where + ": has neither code nor ref; give exactly one"})
			case s.JSONPath != "" && s.Ref == "":
				probs = append(probs, Problem{File: file, Message: where + ": json-path selects a part of the file ref names, and there is no ref"})
			}
		}
		out.Examples = append(out.Examples, ex)
	}
	return out, probs, nil
}

// upliftFormats reads a snippet's doc-uplift-formats: "jsonld" or "ttl",
// a list of them, or null; a false value (null, [], "") means none. On an
// error it returns nil, the default.
func upliftFormats(n *yaml.Node) ([]string, error) {
	var list []string
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
	case n.Kind == yaml.ScalarNode:
		if n.Value != "" {
			list = []string{n.Value}
		}
	case n.Kind == yaml.SequenceNode:
		if err := n.Decode(&list); err != nil {
			return nil, fmt.Errorf("must be jsonld, ttl or a list of them")
		}
	default:
		return nil, fmt.Errorf("must be jsonld, ttl or a list of them")
	}
	for _, f := range list {
		if f != "jsonld" && f != "ttl" {
			return nil, fmt.Errorf("names %q: it must be jsonld, ttl or a list of them", f)
		}
	}
	return append([]string{}, list...), nil
}

// keys returns the keys of the mapping n, in order.
func keys(n *yaml.Node) []string {
	var out []string
	for _, m := range members(n) {
		out = append(out, m.Key)
	}
	return out
}

// members returns the members of the mapping n, in order, each value as
// YAML decodes it (nil for one it cannot decode).
func members(n *yaml.Node) []Member {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var out []Member
	for i := 0; i+1 < len(n.Content); i += 2 {
		var v any
		if n.Content[i+1].Decode(&v) != nil {
			v = nil
		}
		out = append(out, Member{Key: n.Content[i].Value, Value: v})
	}
	return out
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
