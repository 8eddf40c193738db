package context

import (
	"fmt"
	"os"
	"sort"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Context is a processed JSON-LD context: its term definitions with every
// compact IRI expanded to a full IRI. A Context is read-only once returned.
type Context struct {
	// Terms maps each term to its definition.
	Terms map[string]*Term
	// Base is the @base IRI, or "" when there is none.
	Base string
	// Vocab is the @vocab IRI, or "" when there is none.
	Vocab string
	// Reset reports that a scoped context starts with null: terms of the
	// enclosing contexts do not apply under it.
	Reset bool

	setBase, setVocab bool     // a scoped context sets @base / @vocab
	src               []source // the context values applied, in order
}

// source is one context value as found under "@context", with the name of
// the document it came from.
type source struct {
	name  string
	value any
}

// Term is the definition of one term.
type Term struct {
	// ID is the term's full IRI, blank node identifier or keyword; "" for
	// a term mapped to null. For a reverse property it is the IRI of the
	// property the term is the reverse of.
	ID string
	// Reverse reports a reverse property (@reverse).
	Reverse bool
	// Type is the coercion: a full IRI, or "@id", "@json", "@vocab",
	// "@none"; "" when absent.
	Type string
	// Container lists the @container values, as written.
	Container []string
	// Scoped is the property-scoped context (@context), holding only the
	// terms it defines; nil when absent.
	Scoped *Context
	// Prefix reports that the term may be the prefix of compact IRIs.
	Prefix bool
	// Protected reports a protected term.
	Protected bool
	// Extra holds the other keywords of the definition as written
	// (@language, @direction, @index, @nest, @prefix).
	Extra map[string]any

	simple    bool   // defined by a plain string
	scopedRaw any    // the @context value, processed by finalize
	hasScoped bool   // the definition has an @context entry
	origin    string // the document that defined the term
	group     string // the top-level document origin was applied under
}

// Warning is a problem that does not stop the work: a dubious construct in a
// context or an annotated schema, as a diagnostic of severity
// diag.Warning whose File names the document concerned (e.g.
// "mcp.mcp/context.jsonld"; "" when unknown).
type Warning = diag.Diagnostic

// warning returns a Warning about file.
func warning(file, message string) Warning {
	return Warning{File: file, Severity: diag.Warning, Message: message}
}

// Options maps context references to local sources. A string in "@context"
// or "@import" (a remote or relative context reference) resolves only
// through these maps: nothing is ever fetched or read otherwise.
type Options struct {
	// Files maps a reference, exactly as written, to a local file holding a
	// JSON-LD context document ({"@context": ...}).
	Files map[string]string
	// Contexts maps a reference, exactly as written, to a context already
	// loaded.
	Contexts map[string]*Context
	// KeepMeaning builds contexts that keep each term's meaning where the
	// OGC tool chain's compaction changes it: a scoped term is dropped only
	// when the nearest enclosing definition is the same, and an IRI is not
	// written as a compact IRI whose prefix a scoped context redefines.
	// By default contexts are compacted as the tool chain compacts them,
	// with a warning for each term whose meaning changes.
	KeepMeaning bool
}

// Parse processes a JSON-LD context document (a decoded {"@context": ...},
// numbers as float64 or json.Number) named name in messages.
func Parse(name string, doc any, opts *Options) (*Context, []Warning, error) {
	value, err := contextValue(name, doc)
	if err != nil {
		return nil, nil, err
	}
	p := newProc(opts)
	p.group = name
	c, _, err := p.apply(newContext(), name, value, false)
	if err != nil {
		return nil, p.warnings, err
	}
	if err := p.finalize(c, c, 0); err != nil {
		return nil, p.warnings, err
	}
	return c, p.warnings, nil
}

// contextValue returns the "@context" member of a context document.
func contextValue(name string, doc any) (any, error) {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a context document is a JSON object with an \"@context\" member", name)
	}
	v, ok := m["@context"]
	if !ok {
		return nil, fmt.Errorf("%s: no \"@context\" member", name)
	}
	return v, nil
}

// readMapped returns the context value a reference maps to, through opts.
// A mapped Context is returned as its sources.
func (p *proc) readMapped(ref, in string) ([]source, error) {
	if p.opts != nil {
		if c, ok := p.opts.Contexts[ref]; ok && c != nil {
			return c.src, nil
		}
		if file, ok := p.opts.Files[ref]; ok {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, fmt.Errorf("%s: context %s mapped to %s: %w", in, ref, file, err)
			}
			doc, err := ojson.DecodePlain(file, data)
			if err != nil {
				return nil, fmt.Errorf("%s: context %s mapped to %s: %w", in, ref, file, err)
			}
			v, err := contextValue(file, doc)
			if err != nil {
				return nil, fmt.Errorf("%s: context %s: %w", in, ref, err)
			}
			return []source{{name: file, value: v}}, nil
		}
	}
	return nil, &UnmappedError{Ref: ref, In: in}
}

// Expand expands a term, a compact IRI or a vocabulary-relative string to a
// full IRI as the context would for a property name; a string it cannot
// expand is returned unchanged, and a term mapped to null gives "".
func (c *Context) Expand(s string) string {
	p := newProc(nil)
	e, err := p.expandIRI(c, nil, s, false, true)
	if err != nil {
		return s
	}
	return e
}

// IRIs returns every full IRI the context can produce, sorted: the IRIs of
// its terms and of their type coercions, those of scoped contexts included.
// Keywords, blank node identifiers and prefix definitions are left out, as
// are IRIs that @vocab would make from keys the context does not define.
func (c *Context) IRIs() []string {
	set := map[string]bool{}
	var walk func(c *Context)
	walk = func(c *Context) {
		for _, t := range c.Terms {
			if !t.Prefix && t.ID != "" && !IsKeyword(t.ID) && !isBlank(t.ID) {
				set[t.ID] = true
			}
			if t.Type != "" && !IsKeyword(t.Type) {
				set[t.Type] = true
			}
			if t.Scoped != nil {
				walk(t.Scoped)
			}
		}
	}
	walk(c)
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func newContext() *Context {
	return &Context{Terms: map[string]*Term{}}
}

// clone returns a copy of c whose term map may be changed; the terms are
// shared.
func (c *Context) clone() *Context {
	n := *c
	n.Terms = make(map[string]*Term, len(c.Terms))
	for k, t := range c.Terms {
		n.Terms[k] = t
	}
	n.src = append([]source(nil), c.src...)
	return &n
}
