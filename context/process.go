package context

// This file processes JSON-LD 1.1 contexts (the Context Processing and
// Create Term Definition algorithms of JSON-LD 1.1 Processing, section 4.1
// and 4.2), for the features building-block contexts use: terms, prefixes and
// compact IRIs, @vocab, @base, @import, type coercion, containers, protected
// terms and property-scoped contexts.

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// maxDepth bounds the nesting of scoped contexts and context references.
const maxDepth = 32

// proc holds the state of one processing run.
type proc struct {
	opts     *Options
	warnings []Warning
	warned   map[string]bool // warnings already given
	loading  []string        // references being loaded, for cycles
	group    string          // the top-level document being applied
}

func newProc(opts *Options) *proc {
	return &proc{opts: opts, warned: map[string]bool{}}
}

func (p *proc) warn(file, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if p.warned[file+"\x00"+msg] {
		return
	}
	p.warned[file+"\x00"+msg] = true
	p.warnings = append(p.warnings, warning(file, msg))
}

// record tells what one application of a context value defined, so that a
// scoped context can keep only its own terms.
type record struct {
	names       map[string]bool
	base, vocab bool
	reset       bool
}

// apply processes the context value v (an object, a string reference, null
// or an array of them) found in the document name onto active and returns
// the new active context. override allows redefining protected terms, as a
// property-scoped context may.
func (p *proc) apply(active *Context, name string, v any, override bool) (*Context, *record, error) {
	rec := &record{names: map[string]bool{}}
	result := active.clone()
	var items []any
	if a, ok := v.([]any); ok {
		items = a
	} else {
		items = []any{v}
	}
	for _, item := range items {
		switch x := item.(type) {
		case nil:
			result = newContext()
			result.src = []source{{name: name}}
			rec.names = map[string]bool{}
			rec.base, rec.vocab, rec.reset = false, false, true
		case string:
			srcs, err := p.load(x, name)
			if err != nil {
				return nil, nil, err
			}
			for _, s := range srcs {
				var sub *record
				result, sub, err = p.apply(result, s.name, s.value, override)
				if err != nil {
					p.loading = p.loading[:len(p.loading)-1]
					return nil, nil, err
				}
				if sub.reset {
					rec.names = map[string]bool{}
					rec.reset = true
				}
				for n := range sub.names {
					rec.names[n] = true
				}
				rec.base = rec.base || sub.base
				rec.vocab = rec.vocab || sub.vocab
			}
			p.loading = p.loading[:len(p.loading)-1]
		case map[string]any:
			var err error
			if result, err = p.applyObject(result, name, x, override, rec); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("%s: invalid local context: %s is neither an object, a string nor null", name, describe(item))
		}
	}
	return result, rec, nil
}

// load resolves the context reference ref, found in the document in,
// through the local mapping, guarding against cycles. The caller pops
// p.loading after applying the result.
func (p *proc) load(ref, in string) ([]source, error) {
	if slices.Contains(p.loading, ref) {
		return nil, fmt.Errorf("%s: context reference cycle: %s -> %s", in, strings.Join(p.loading, " -> "), ref)
	}
	if len(p.loading) >= maxDepth {
		return nil, fmt.Errorf("%s: context references nest more than %d deep", in, maxDepth)
	}
	srcs, err := p.readMapped(ref, in)
	if err != nil {
		return nil, err
	}
	p.loading = append(p.loading, ref)
	return srcs, nil
}

// local is the context object being processed by applyObject.
type local struct {
	obj       map[string]any
	name      string
	defined   map[string]bool // true once defined, false while being defined
	protected bool            // the object's @protected default
	override  bool
	term      string // the term being defined, for messages
}

// contextKeywords are the keywords a context object may hold besides terms.
var contextKeywords = map[string]bool{
	"@base": true, "@direction": true, "@import": true, "@language": true,
	"@propagate": true, "@protected": true, "@version": true, "@vocab": true,
}

func (p *proc) applyObject(result *Context, name string, obj map[string]any, override bool, rec *record) (*Context, error) {
	if v, ok := obj["@version"]; ok && !isVersion11(v) {
		return nil, fmt.Errorf("%s: @version: %s is not 1.1", name, describe(v))
	}
	if v, ok := obj["@import"]; ok {
		ref, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s: @import: %s is not a string", name, describe(v))
		}
		srcs, err := p.load(ref, name)
		if err != nil {
			return nil, err
		}
		p.loading = p.loading[:len(p.loading)-1]
		if len(srcs) != 1 {
			return nil, fmt.Errorf("%s: @import %s: the imported context is not a single object", name, ref)
		}
		imp, ok := srcs[0].value.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: @import %s: the imported context is not an object", name, ref)
		}
		if _, ok := imp["@import"]; ok {
			return nil, fmt.Errorf("%s: @import %s: the imported context has an @import of its own", name, ref)
		}
		merged := make(map[string]any, len(imp)+len(obj))
		for k, v := range imp {
			merged[k] = v
		}
		for k, v := range obj {
			if k != "@import" {
				merged[k] = v
			}
		}
		obj = merged
	}
	result.src = append(result.src, source{name: name, value: obj})
	if v, ok := obj["@base"]; ok {
		switch b := v.(type) {
		case nil:
			result.Base = ""
		case string:
			base, err := resolveIRI(result.Base, b)
			if err != nil {
				return nil, fmt.Errorf("%s: @base: %w", name, err)
			}
			result.Base = base
		default:
			return nil, fmt.Errorf("%s: @base: %s is not a string", name, describe(v))
		}
		result.setBase, rec.base = true, true
	}
	if v, ok := obj["@vocab"]; ok {
		switch s := v.(type) {
		case nil:
			result.Vocab = ""
		case string:
			e, err := p.expandIRI(result, nil, s, true, true)
			if err != nil {
				return nil, fmt.Errorf("%s: @vocab: %w", name, err)
			}
			if !isAbsIRI(e) && !isBlank(e) {
				return nil, fmt.Errorf("%s: @vocab: %q is not an IRI", name, s)
			}
			result.Vocab = e
		default:
			return nil, fmt.Errorf("%s: @vocab: %s is not a string", name, describe(v))
		}
		result.setVocab, rec.vocab = true, true
	}
	if v, ok := obj["@language"]; ok {
		if _, isStr := v.(string); !isStr && v != nil {
			return nil, fmt.Errorf("%s: @language: %s is not a string", name, describe(v))
		}
	}
	if v, ok := obj["@propagate"]; ok {
		if _, isBool := v.(bool); !isBool {
			return nil, fmt.Errorf("%s: @propagate: %s is not a boolean", name, describe(v))
		}
	}
	l := &local{obj: obj, name: name, defined: map[string]bool{}, override: override}
	if v, ok := obj["@protected"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return nil, fmt.Errorf("%s: @protected: %s is not a boolean", name, describe(v))
		}
		l.protected = b
	}
	for _, term := range slices.Sorted(maps.Keys(obj)) {
		if contextKeywords[term] {
			continue
		}
		if err := p.createTerm(result, l, term); err != nil {
			return nil, err
		}
		rec.names[term] = true
	}
	return result, nil
}

// termKeywords are the keywords a term definition may hold.
var termKeywords = map[string]bool{
	"@id": true, "@reverse": true, "@container": true, "@context": true, "@direction": true,
	"@index": true, "@language": true, "@nest": true, "@prefix": true, "@protected": true, "@type": true,
}

// containerValues are the values @container accepts.
var containerValues = map[string]bool{
	"@list": true, "@set": true, "@index": true, "@language": true, "@graph": true, "@id": true, "@type": true,
}

// createTerm defines term of the context object l in result, defining the
// terms it depends on first.
func (p *proc) createTerm(result *Context, l *local, term string) error {
	if done, ok := l.defined[term]; ok {
		if done {
			return nil
		}
		return fmt.Errorf("%s: term %q: cyclic IRI mapping", l.name, term)
	}
	value := l.obj[term]
	switch {
	case term == "":
		return fmt.Errorf("%s: the empty string is not a valid term", l.name)
	case term == "@type":
		// JSON-LD 1.1 allows @type with @container @set; it defines nothing.
		l.defined[term] = true
		return nil
	case IsKeyword(term):
		return fmt.Errorf("%s: keyword %s cannot be redefined", l.name, term)
	case keywordLike(term):
		p.warn(l.name, "term %q has the form of a keyword and is ignored", term)
		l.defined[term] = true
		return nil
	case strings.Contains(term, "@"):
		p.warn(l.name, "term %q contains \"@\": a mistyped keyword?", term)
	}
	l.defined[term] = false
	outer := l.term
	l.term = term
	defer func() { l.term = outer }()

	prev := result.Terms[term]
	delete(result.Terms, term)
	t := &Term{origin: l.name, group: p.group, Protected: l.protected}
	var def map[string]any
	switch v := value.(type) {
	case nil:
		def = map[string]any{"@id": nil}
	case string:
		def = map[string]any{"@id": v}
		t.simple = true
	case map[string]any:
		def = v
	default:
		return fmt.Errorf("%s: term %q: invalid term definition %s", l.name, term, describe(value))
	}
	for _, k := range slices.Sorted(maps.Keys(def)) {
		if !termKeywords[k] {
			return fmt.Errorf("%s: term %q: %q is not a keyword of a term definition", l.name, term, k)
		}
	}
	if v, ok := def["@protected"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return fmt.Errorf("%s: term %q: @protected: %s is not a boolean", l.name, term, describe(v))
		}
		t.Protected = b
	}
	if v, ok := def["@type"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return fmt.Errorf("%s: term %q: @type: %s is not a string", l.name, term, describe(v))
		}
		e, err := p.expandIRI(result, l, s, false, true)
		if err != nil {
			return err
		}
		switch {
		case e == "@id" || e == "@json" || e == "@none" || e == "@vocab":
		case isAbsIRI(e) && !isBlank(e):
		default:
			return fmt.Errorf("%s: term %q: @type %q is not an IRI nor @id, @json, @none or @vocab", l.name, term, s)
		}
		t.Type = e
	}
	idv, hasID := def["@id"]
	if v, ok := def["@reverse"]; ok {
		if hasID {
			return fmt.Errorf("%s: term %q: @reverse with @id", l.name, term)
		}
		if _, ok := def["@nest"]; ok {
			return fmt.Errorf("%s: term %q: @reverse with @nest", l.name, term)
		}
		s, isStr := v.(string)
		if !isStr {
			return fmt.Errorf("%s: term %q: @reverse: %s is not a string", l.name, term, describe(v))
		}
		if keywordLike(s) {
			p.warn(l.name, "term %q: @reverse %q has the form of a keyword; the term is ignored", term, s)
			l.defined[term] = true
			return nil
		}
		e, err := p.expandIRI(result, l, s, false, true)
		if err != nil {
			return err
		}
		if !strings.Contains(e, ":") {
			return fmt.Errorf("%s: term %q: @reverse %q is not an IRI", l.name, term, s)
		}
		t.ID, t.Reverse = e, true
	} else if hasID && idv != term {
		switch s := idv.(type) {
		case nil:
			// mapped to null: ID stays ""
		case string:
			if !IsKeyword(s) && keywordLike(s) {
				p.warn(l.name, "term %q: @id %q has the form of a keyword; the term is ignored", term, s)
				l.defined[term] = true
				return nil
			}
			e, err := p.expandIRI(result, l, s, false, true)
			if err != nil {
				return err
			}
			if !IsKeyword(e) && !isAbsIRI(e) && !isBlank(e) {
				return fmt.Errorf("%s: term %q: @id %q is not an IRI, a blank node identifier nor a keyword", l.name, term, s)
			}
			if e == "@context" {
				return fmt.Errorf("%s: term %q: @id cannot be @context", l.name, term)
			}
			if strings.Contains(strings.TrimSuffix(term[1:], ":"), ":") || strings.Contains(term, "/") {
				l.defined[term] = true
				te, err := p.expandIRI(result, l, term, false, true)
				if err != nil {
					return err
				}
				if te != e {
					return fmt.Errorf("%s: term %q looks like an IRI but maps to %s", l.name, term, e)
				}
			}
			t.ID = e
			if !strings.ContainsAny(term, ":/") && t.simple && (endsWithGenDelim(e) || isBlank(e)) {
				t.Prefix = true
			}
		default:
			return fmt.Errorf("%s: term %q: @id: %s is not a string", l.name, term, describe(idv))
		}
	} else if i := strings.Index(term[1:], ":"); i >= 0 {
		prefix, suffix := term[:i+1], term[i+2:]
		if _, ok := l.obj[prefix]; ok {
			if err := p.createTerm(result, l, prefix); err != nil {
				return err
			}
		}
		if pt := result.Terms[prefix]; pt != nil && pt.ID != "" {
			t.ID = pt.ID + suffix
		} else {
			t.ID = term
		}
	} else if strings.Contains(term, "/") {
		e, err := p.expandIRI(result, l, term, false, true)
		if err != nil {
			return err
		}
		if !isAbsIRI(e) {
			return fmt.Errorf("%s: term %q: not an IRI and no @id", l.name, term)
		}
		t.ID = e
	} else if result.Vocab != "" {
		t.ID = result.Vocab + term
	} else {
		return fmt.Errorf("%s: term %q has no @id and the context has no @vocab", l.name, term)
	}
	if v, ok := def["@container"]; ok {
		var list []any
		switch c := v.(type) {
		case string:
			list = []any{c}
		case []any:
			list = c
		default:
			return fmt.Errorf("%s: term %q: @container: %s is not a string or an array", l.name, term, describe(v))
		}
		for _, e := range list {
			s, isStr := e.(string)
			if !isStr || !containerValues[s] {
				return fmt.Errorf("%s: term %q: @container: %s is not a container keyword", l.name, term, describe(e))
			}
			t.Container = append(t.Container, s)
		}
		if t.Reverse {
			for _, c := range t.Container {
				if c != "@set" && c != "@index" {
					return fmt.Errorf("%s: term %q: a reverse property's @container must be @set or @index", l.name, term)
				}
			}
		}
	}
	for _, k := range []string{"@index", "@nest"} {
		if v, ok := def[k]; ok {
			s, isStr := v.(string)
			if !isStr || (k == "@nest" && IsKeyword(s) && s != "@nest") {
				return fmt.Errorf("%s: term %q: %s: invalid value %s", l.name, term, k, describe(v))
			}
			t.setExtra(k, s)
		}
	}
	for _, k := range []string{"@language", "@direction"} {
		if v, ok := def[k]; ok {
			if _, isStr := v.(string); !isStr && v != nil {
				return fmt.Errorf("%s: term %q: %s: %s is not a string or null", l.name, term, k, describe(v))
			}
			t.setExtra(k, v)
		}
	}
	if v, ok := def["@prefix"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return fmt.Errorf("%s: term %q: @prefix: %s is not a boolean", l.name, term, describe(v))
		}
		if strings.ContainsAny(term, ":/") {
			return fmt.Errorf("%s: term %q: a compact IRI or IRI cannot be a prefix", l.name, term)
		}
		if b && IsKeyword(t.ID) {
			return fmt.Errorf("%s: term %q: a keyword alias cannot be a prefix", l.name, term)
		}
		t.Prefix = b
		t.setExtra("@prefix", b)
	}
	if v, ok := def["@context"]; ok {
		t.scopedRaw, t.hasScoped = v, true
	}
	if prev != nil && prev.Protected && !l.override {
		if !sameTerm(prev, t) {
			return fmt.Errorf("%s: term %q redefines a protected term (defined in %s)", l.name, term, prev.origin)
		}
		t = prev
	}
	result.Terms[term] = t
	l.defined[term] = true
	return nil
}

func (t *Term) setExtra(k string, v any) {
	if t.Extra == nil {
		t.Extra = map[string]any{}
	}
	t.Extra[k] = v
}

// sameTerm reports whether two definitions are the same but for @protected.
func sameTerm(a, b *Term) bool {
	return a.ID == b.ID && a.Reverse == b.Reverse && a.Type == b.Type &&
		reflect.DeepEqual(a.Container, b.Container) && reflect.DeepEqual(a.Extra, b.Extra) &&
		a.hasScoped == b.hasScoped && reflect.DeepEqual(a.scopedRaw, b.scopedRaw)
}

// expandIRI expands value (the IRI Expansion algorithm). l, when not nil, is
// the context object being processed, whose terms are defined on demand.
// docRel resolves a relative reference against @base; vocab uses terms and
// @vocab. A value of the form of a keyword expands to "" (null).
func (p *proc) expandIRI(active *Context, l *local, value string, docRel, vocab bool) (string, error) {
	if IsKeyword(value) {
		return value, nil
	}
	if keywordLike(value) {
		return "", nil
	}
	if l != nil {
		if _, ok := l.obj[value]; ok && !contextKeywords[value] {
			if err := p.createTerm(active, l, value); err != nil {
				return "", err
			}
		}
	}
	if vocab {
		if t, ok := active.Terms[value]; ok {
			return t.ID, nil
		}
	}
	if i := strings.Index(value, ":"); i > 0 {
		prefix, suffix := value[:i], value[i+1:]
		if prefix == "_" || strings.HasPrefix(suffix, "//") {
			return value, nil
		}
		fromLocal := false
		if l != nil {
			if _, ok := l.obj[prefix]; ok {
				fromLocal = true
				if err := p.createTerm(active, l, prefix); err != nil {
					return "", err
				}
			}
		}
		if t, ok := active.Terms[prefix]; ok && t.ID != "" {
			if t.Prefix {
				if l != nil && !fromLocal && t.group != p.group {
					p.warn(l.name, "%s uses the prefix %s: without declaring it; it works only because %s, applied earlier, declares it",
						l.what(), prefix, t.origin)
				}
				return t.ID + suffix, nil
			}
			if l != nil {
				p.warn(l.name, "%s: %s is a term but not a prefix (an expanded definition needs \"@prefix\": true), so %q is taken as an absolute IRI",
					l.what(), prefix, value)
			}
		} else if l != nil && !knownSchemes[strings.ToLower(prefix)] {
			p.warn(l.name, "%s uses the prefix %s: which no context declares; %q is taken as an absolute IRI",
				l.what(), prefix, value)
		}
		if isAbsIRI(value) {
			return value, nil
		}
	}
	if vocab && active.Vocab != "" {
		return active.Vocab + value, nil
	}
	if docRel && active.Base != "" {
		return resolveIRI(active.Base, value)
	}
	return value, nil
}

// what names the part of the context being processed, for warnings.
func (l *local) what() string {
	if l.term == "" {
		return "the context"
	}
	return fmt.Sprintf("term %q", l.term)
}

// finalize processes the scoped contexts of the terms of c, a part of the
// context full, against full, as a JSON-LD processor would where the term is
// used; scoped contexts within them are processed in turn.
func (p *proc) finalize(full, c *Context, depth int) error {
	for _, name := range slices.Sorted(maps.Keys(c.Terms)) {
		t := c.Terms[name]
		if !t.hasScoped || t.Scoped != nil {
			continue
		}
		if depth >= maxDepth {
			return fmt.Errorf("%s: term %q: scoped contexts nest more than %d deep", t.origin, name, maxDepth)
		}
		p.group = t.group
		sub, rec, err := p.apply(full, t.origin, t.scopedRaw, true)
		if err != nil {
			return fmt.Errorf("scoped context of term %q: %w", name, err)
		}
		scoped := newContext()
		scoped.Reset = rec.reset
		for n := range rec.names {
			if st, ok := sub.Terms[n]; ok {
				scoped.Terms[n] = st
			}
		}
		if rec.base {
			scoped.Base, scoped.setBase = sub.Base, true
		}
		if rec.vocab {
			scoped.Vocab, scoped.setVocab = sub.Vocab, true
		}
		if err := p.finalize(sub, scoped, depth+1); err != nil {
			return err
		}
		t.Scoped = scoped
	}
	return nil
}

// keywords are the JSON-LD 1.1 keywords.
var keywords = map[string]bool{
	"@base": true, "@container": true, "@context": true, "@direction": true, "@graph": true,
	"@id": true, "@import": true, "@included": true, "@index": true, "@json": true,
	"@language": true, "@list": true, "@nest": true, "@none": true, "@prefix": true,
	"@propagate": true, "@protected": true, "@reverse": true, "@set": true, "@type": true,
	"@value": true, "@version": true, "@vocab": true,
}

func IsKeyword(s string) bool { return keywords[s] }

var keywordForm = regexp.MustCompile(`^@[a-zA-Z]+$`)

// keywordLike reports a string of the form of a keyword that is not one.
func keywordLike(s string) bool { return !keywords[s] && keywordForm.MatchString(s) }

func isBlank(s string) bool { return strings.HasPrefix(s, "_:") }

var schemeForm = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.\-]*:`)

// isAbsIRI reports whether s starts with a scheme.
func isAbsIRI(s string) bool { return schemeForm.MatchString(s) }

// knownSchemes are URI schemes whose IRIs are not mistaken for compact IRIs
// with an undeclared prefix.
var knownSchemes = map[string]bool{
	"http": true, "https": true, "urn": true, "mailto": true, "tag": true, "file": true,
	"data": true, "did": true, "ftp": true, "uuid": true, "bblocks": true,
}

func endsWithGenDelim(s string) bool {
	return s != "" && strings.ContainsRune(":/?#[]@", rune(s[len(s)-1]))
}

// resolveIRI resolves ref against base (RFC 3986).
func resolveIRI(base, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("%q is not an IRI reference: %w", ref, err)
	}
	if r.IsAbs() || base == "" {
		if !r.IsAbs() {
			return "", fmt.Errorf("relative IRI %q without a base", ref)
		}
		return ref, nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("base %q is not an IRI: %w", base, err)
	}
	return b.ResolveReference(r).String(), nil
}

// isVersion11 reports whether v is the number 1.1.
func isVersion11(v any) bool {
	switch n := v.(type) {
	case float64:
		return n == 1.1
	case json.Number:
		f, err := n.Float64()
		return err == nil && f == 1.1
	}
	return false
}

// describe renders a JSON value briefly for messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 60 {
		b = append(b[:57], "..."...)
	}
	return string(b)
}
