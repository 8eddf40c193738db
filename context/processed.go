package context

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
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

// ForBlock returns the context that maps the messages of block b (see
// Toolchain.Processed). reg and opts (which maps remote context references
// to local files) may be nil.
func ForBlock(b *bblock.Block, reg *bblock.Register, opts *Options) (*Processed, []Warning, error) {
	return ToolchainFor(b, reg, opts).Processed(b)
}

// Processed returns the context that maps the messages of block b: the
// context built from its annotated schema, as the building-block tool chain
// builds it (the schema of a block without a context.jsonld of its own may
// bring in other blocks' terms), or, for a block without a schema, its own
// context.jsonld.
func (t *Toolchain) Processed(b *bblock.Block) (*Processed, []Warning, error) {
	var value any
	var warns []Warning
	switch {
	case b.Files.Schema != "":
		doc, w, err := t.context(b)
		warns = w
		if err != nil {
			return nil, warns, err
		}
		if doc == nil {
			return nil, warns, fmt.Errorf("block %s: the context built from its schema is empty: %w", b.ID, ErrNoContext)
		}
		value = ojson.Plain(doc)
	case b.Files.Context != "":
		loc, err := sourceLoc(b, b.Files.Context)
		if err != nil {
			return nil, nil, err
		}
		doc, err := t.tc.readContextDoc(loc, &warns)
		if err != nil {
			return nil, warns, fmt.Errorf("block %s: %w", b.ID, err)
		}
		o, ok := doc.(*ojson.Object)
		if !ok || o.Value("@context") == nil {
			return nil, warns, fmt.Errorf("block %s: %s has no \"@context\"", b.ID, b.Files.Context)
		}
		value = ojson.Plain(o.Value("@context"))
	default:
		return nil, nil, fmt.Errorf("block %s has neither a schema nor a context.jsonld: %w", b.ID, ErrNoContext)
	}
	p, err := Process(value)
	if err != nil {
		return nil, warns, fmt.Errorf("block %s: %w", b.ID, err)
	}
	return p, warns, nil
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
