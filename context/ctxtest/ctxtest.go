// Package ctxtest compares JSON-LD contexts by what they mean, for tests:
// json-gold reads both, and the definitions in effect of every term are
// compared at the top and under every chain of property-scoped contexts.
package ctxtest

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf/jsonld/gold"
	"github.com/piprate/json-gold/ld"
)

// termDef is what a term means in one scope, as json-gold reads it.
type termDef struct {
	ID, Type, Container, Language string
	Reverse                       bool
}

// DiffEffective compares two context values by what they mean: at the top
// and under every chain of property-scoped contexts either writes (scope
// paths like "params/capabilities"), the definition in effect of every
// term either knows there, and @base and @vocab. It returns the
// differences as "scope|term: ...".
func DiffEffective(t testing.TB, a, b any) []string {
	t.Helper()
	ca, cb := goldActive(t, a), goldActive(t, b)
	paths := map[string][]string{"": nil}
	collectScopes(a, nil, paths)
	collectScopes(b, nil, paths)
	var diffs []string
	for _, key := range slices.Sorted(maps.Keys(paths)) {
		path := paths[key]
		xa, errA := activeAt(ca, path)
		xb, errB := activeAt(cb, path)
		if errA != nil || errB != nil {
			if (errA == nil) != (errB == nil) {
				diffs = append(diffs, fmt.Sprintf("%s|: %v / %v", key, errA, errB))
			}
			continue
		}
		names := map[string]bool{}
		for n := range xa.TermDefinitions {
			names[n] = true
		}
		for n := range xb.TermDefinitions {
			names[n] = true
		}
		for _, n := range slices.Sorted(maps.Keys(names)) {
			da, db := defOf(xa.TermDefinitions[n]), defOf(xb.TermDefinitions[n])
			if da != db {
				diffs = append(diffs, fmt.Sprintf("%s|%s: %+v != %+v", key, n, da, db))
			}
		}
		if va, vb := vocabOf(xa), vocabOf(xb); va != vb || xa.Values.Base != xb.Values.Base {
			diffs = append(diffs, fmt.Sprintf("%s|: @vocab %q @base %q != @vocab %q @base %q", key, va, xa.Values.Base, vb, xb.Values.Base))
		}
	}
	return diffs
}

func goldActive(t testing.TB, v any) *ld.Context {
	t.Helper()
	c, err := ld.NewContext(nil, gold.Options("")).Parse(gold.FloatNumbers(v))
	if err != nil {
		t.Fatalf("json-gold refuses the context: %v", err)
	}
	return c
}

// collectScopes adds the path of every scoped context written in the
// context value v, below path.
func collectScopes(v any, path []string, into map[string][]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for n, def := range m {
		d, ok := def.(map[string]any)
		if !ok || strings.HasPrefix(n, "@") {
			continue
		}
		if sc, ok := d["@context"].(map[string]any); ok {
			p := append(path[:len(path):len(path)], n)
			into[strings.Join(p, "/")] = p
			collectScopes(sc, p, into)
		}
	}
}

// activeAt returns the context in effect under the chain of properties
// path: each one's scoped context applied, where it has one.
func activeAt(c *ld.Context, path []string) (*ld.Context, error) {
	for _, n := range path {
		td := c.TermDefinitions[n]
		if td == nil || !td.HasContext {
			continue
		}
		next, err := c.Parse(gold.FloatNumbers(td.Context))
		if err != nil {
			return nil, err
		}
		c = next
	}
	return c, nil
}

func defOf(td *ld.TermDefinition) termDef {
	if td == nil {
		return termDef{}
	}
	cont := append([]string(nil), td.Container...)
	sort.Strings(cont)
	d := termDef{ID: td.ID, Type: td.Type, Container: strings.Join(cont, " "), Reverse: td.Reverse}
	if td.Language != nil {
		d.Language = *td.Language
	}
	return d
}

func vocabOf(c *ld.Context) string {
	if c.Values.Vocab == nil {
		return ""
	}
	return *c.Values.Vocab
}
