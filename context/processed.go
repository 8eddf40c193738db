package context

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Processed is the JSON-LD context messages are mapped with (the value of
// a block's "@context"), processed once: its term definitions, scope by
// scope, and the prefixes an output uses. The mapping to RDF and the way
// back both take it. A Processed is safe for concurrent use.
type Processed struct {
	value    any
	root     *Scope
	prefixes []rdf.Prefix
	reg      *scopes
}

// Process processes value, the value of a context's "@context" (an object,
// an array of them, or a reference mapped by opts). Nothing is fetched.
func Process(value any) (*Processed, error) {
	c, _, err := Parse("block context", map[string]any{"@context": value}, nil)
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	reg := &scopes{byKey: map[string]*Scope{}, ids: map[*Term]int{}}
	return &Processed{value: value, root: newScope(c.Terms, reg), prefixes: prefixes(value), reg: reg}, nil
}

// Value returns the context as given to Process: the JSON value of
// "@context", for a JSON-LD processor or an output document.
func (p *Processed) Value() any { return p.value }

// Root returns the scope of a message's top level.
func (p *Processed) Root() *Scope { return p.root }

// Prefixes returns the prefixes a Turtle output uses: rdf, xsd, jrpc and
// jlog, and those the context defines (terms whose IRI ends in '#', '/'
// or ':'), sorted by name. The slice must not be changed.
func (p *Processed) Prefixes() []rdf.Prefix { return p.prefixes }

// Scopes returns the number of distinct nested scopes kept so far; it
// stays below a fixed bound whatever the messages.
func (p *Processed) Scopes() int {
	p.reg.mu.Lock()
	defer p.reg.mu.Unlock()
	return len(p.reg.byKey)
}

// prefixName matches the prefix names an output declares.
var prefixName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// IsPrefixName reports whether name can be declared as a prefix in output
// (letters, digits, '_' and '-', starting with a letter).
func IsPrefixName(name string) bool { return prefixName.MatchString(name) }

// prefixes returns the prefixes of Processed.Prefixes for context value v.
func prefixes(v any) []rdf.Prefix {
	byName := map[string]string{"rdf": rdf.RDFNS, "xsd": rdf.XSDNS, "jrpc": rdf.JRPCNS, "jlog": rdf.JLogNS}
	var visit func(v any)
	visit = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				visit(e)
			}
		case map[string]any:
			for k, e := range x {
				s, ok := e.(string)
				if !ok {
					if m, ok := e.(map[string]any); ok {
						s, _ = m["@id"].(string)
					}
				}
				if !IsPrefixName(k) || !strings.Contains(s, "://") || !strings.ContainsAny(s[len(s)-1:], "#/:") {
					continue
				}
				if _, taken := byName[k]; !taken {
					byName[k] = s
				}
			}
		}
	}
	visit(v)
	out := make([]rdf.Prefix, 0, len(byName))
	for n, i := range byName {
		out = append(out, rdf.Prefix{Name: n, IRI: i})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
