package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/piprate/json-gold/ld"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
)

// Uplift is the semantic uplift of one JSON example snippet, as the
// building-block tool chain defines it: the snippet with a JSON-LD context
// attached, and the graph it means.
type Uplift struct {
	// JSONLD is the snippet as a JSON-LD document: "@context" is the list
	// [the example's prefixes, the block's context, the snippet's own
	// context]; a snippet that is an array becomes "@graph".
	JSONLD map[string]any
	// Triples is the graph; it is empty when the context maps nothing.
	Triples []rdf.Triple
	// Prefixes are those of the example and the context, for Turtle.
	Prefixes []rdf.Prefix
	// Notices name numbers the rdf:JSON canonical form changes, and
	// relative IRIs and the base they were resolved against.
	Notices []diag.Diagnostic
	// Relative reports that relative IRIs were resolved against
	// PlaceholderBase, for want of a base: a Turtle writer should write
	// them relative again (rdf.TurtleWriter.SetRelative(PlaceholderBase)).
	Relative bool
}

const publishedBase = "the URL the snippet is published at"

// PlaceholderBase is the base IRI of a snippet that has none: no base-uri,
// and no URL it is published at. The IRIs it gives are written as relative
// references, which readers resolve against the URL they read the output
// from.
const PlaceholderBase = "https://relative.jrpcld.invalid/1/2/3/4/5/6/7/8/snippet"

// UpliftSnippet uplifts the JSON snippet code of example ex of a block whose
// context is ctx (see toolchain.ForBlock). prefixes are the examples file's
// global prefixes. The base IRI is the snippet's base-uri, or else the
// example's, or else published, the URL the snippet is published at; a @base
// in the context wins over all. Without any, relative IRIs are resolved
// against PlaceholderBase (see Uplift.Relative): never dropped. blank
// prefixes the labels of blank nodes.
func UpliftSnippet(code []byte, ctx *ldctx.Processed, prefixes map[string]string, ex bblock.Example, sn bblock.Snippet, published, blank string) (*Uplift, error) {
	d := json.NewDecoder(bytes.NewReader(code))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("snippet is not JSON: %w", err)
	}
	if d.More() {
		return nil, fmt.Errorf("snippet is not JSON: data after the value")
	}
	pm := map[string]any{}
	for _, m := range []map[string]string{prefixes, ex.Prefixes, sn.Prefixes} {
		for k, iri := range m {
			pm[k] = iri
		}
	}
	contexts := []any{pm, ctx.Value()}
	doc := map[string]any{}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			doc[k] = e
		}
		if own, ok := x["@context"]; ok {
			contexts = append(contexts, own)
		}
	case []any:
		doc["@graph"] = x
	default:
		kind := "a string"
		switch v.(type) {
		case nil:
			kind = "null"
		case bool:
			kind = "true or false"
		case float64, json.Number:
			kind = "a number"
		}
		return nil, fmt.Errorf("snippet is %s, not a JSON object or array", kind)
	}
	doc["@context"] = contexts

	base, given := sn.BaseURI, ""
	if base == "" {
		base = ex.BaseURI
	}
	if base == "" {
		base, given = published, publishedBase
	}
	placeholder := base == ""
	if placeholder {
		base = PlaceholderBase
	}
	opts := gold.Options(base)
	expanded, err := expandExact(doc, opts)
	if err != nil {
		return nil, err
	}
	changes, err := gold.CanonicalJSONValues(expanded)
	if err != nil {
		return nil, err
	}
	ds, err := ld.NewJsonLdApi().ToRDF(expanded, opts)
	if err != nil {
		return nil, fmt.Errorf("JSON-LD to RDF: %w", err)
	}
	up := &Uplift{JSONLD: doc}
	for _, c := range changes {
		up.Notices = append(up.Notices, changed(c))
	}
	relative := map[string]bool{}
	for _, q := range ds.GetQuads("@default") {
		t, err := gold.Triple(q, blank)
		if err != nil {
			return nil, err
		}
		for _, term := range []rdf.Term{t.S, t.O} {
			if term.Kind == rdf.IRI && !strings.Contains(string(code), term.Value) && strings.HasPrefix(term.Value, baseOrigin(base)) {
				relative[term.Value] = true
			}
		}
		up.Triples = append(up.Triples, t)
	}
	if len(relative) > 0 {
		iris := slices.Sorted(maps.Keys(relative))
		if placeholder {
			up.Relative = true
			up.Notices = append(up.Notices, diag.Diagnostic{Severity: diag.Warning, Message: fmt.Sprintf(
				"%d relative IRI%s kept relative (the snippet has no base-uri and its published URL is not known; build with --base-url to resolve them against it); the OGC tool chain resolves them against the working folder of the machine that builds", len(iris), plural(len(iris)))})
		} else if given == publishedBase {
			up.Notices = append(up.Notices, diag.Diagnostic{Severity: diag.Warning, Message: fmt.Sprintf(
				"%d relative IRI%s resolved against %s, %s (e.g. %s); give the example a base-uri to choose another", len(iris), plural(len(iris)), given, base, iris[0])})
		}
	}
	sortTriples(up.Triples)
	seen := map[string]bool{}
	for _, p := range ctx.Prefixes() {
		seen[p.Name] = true
		up.Prefixes = append(up.Prefixes, p)
	}
	for k, iri := range pm {
		if s, ok := iri.(string); ok && !seen[k] && ldctx.IsPrefixName(k) {
			up.Prefixes = append(up.Prefixes, rdf.Prefix{Name: k, IRI: s})
		}
	}
	sort.Slice(up.Prefixes, func(i, j int) bool { return up.Prefixes[i].Name < up.Prefixes[j].Name })
	return up, nil
}

// baseOrigin returns the scheme and authority of an absolute IRI.
func baseOrigin(base string) string {
	scheme, rest, ok := strings.Cut(base, "://")
	if !ok {
		return base
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return scheme + "://" + rest + "/"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// sortTriples puts triples in a fixed order, subjects with IRIs first:
// json-gold emits the nodes of a graph in map order, which changes from run
// to run, while its blank-node labels do not.
func sortTriples(ts []rdf.Triple) {
	key := func(t rdf.Triple) string {
		k := "1"
		if t.S.Kind == rdf.Blank {
			k = "2"
		}
		return k + t.S.Value + "\x00" + t.P + "\x00" + t.O.String()
	}
	sort.SliceStable(ts, func(i, j int) bool { return key(ts[i]) < key(ts[j]) })
}

// expandExact expands doc with its context processed from float numbers
// (json-gold needs "@version": 1.1 as a double) while the data keeps its
// json.Number values.
func expandExact(doc map[string]any, opts *ld.JsonLdOptions) (any, error) {
	ctx := gold.FloatNumbers(doc["@context"])
	active, err := ld.NewContext(nil, opts).Parse(ctx)
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	body := make(map[string]any, len(doc))
	for k, v := range doc {
		if k != "@context" {
			body[k] = v
		}
	}
	expanded, err := ld.NewJsonLdApi().Expand(active, "", body, opts, false, nil)
	if err != nil {
		return nil, fmt.Errorf("JSON-LD expansion: %w", err)
	}
	// Like the processor's Expand, return a list at the top.
	switch x := expanded.(type) {
	case []any:
		return x, nil
	case nil:
		return []any{}, nil
	case map[string]any:
		if g, ok := x["@graph"]; ok && len(x) == 1 {
			return g, nil
		}
		return []any{x}, nil
	}
	return expanded, nil
}
