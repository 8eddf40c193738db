package context

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/piprate/json-gold/ld"
)

// refusingLoader is a json-gold document loader that refuses every load, so
// json-gold never reads a file or the network in these tests.
type refusingLoader struct{ t testing.TB }

func (l refusingLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	l.t.Errorf("json-gold tried to load %s", u)
	return nil, fmt.Errorf("refused: %s", u)
}

func goldOptions(t testing.TB) *ld.JsonLdOptions {
	opts := ld.NewJsonLdOptions("")
	opts.DocumentLoader = refusingLoader{t}
	return opts
}

// plainJSON decodes s as json-gold wants it (numbers as float64).
func plainJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON: %v\n%s", err, s)
	}
	return v
}

// meaning is what a term definition means: full IRIs, type, container and
// the meaning of its scoped context.
type meaning struct {
	ID        string
	Reverse   bool
	Type      string
	Container string
	Scoped    map[string]meaning
}

// goldMeaning processes a context value ("@context" member) with json-gold
// and returns the meaning of its terms.
func goldMeaning(t testing.TB, ctxValue any) map[string]meaning {
	t.Helper()
	c, err := ld.NewContext(nil, goldOptions(t)).Parse(ctxValue)
	if err != nil {
		t.Fatalf("json-gold refuses the context: %v", err)
	}
	names := map[string]bool{}
	for n := range c.TermDefinitions {
		names[n] = true
	}
	return goldTerms(t, c, names)
}

func goldTerms(t testing.TB, c *ld.Context, names map[string]bool) map[string]meaning {
	out := map[string]meaning{}
	for n := range names {
		td := c.TermDefinitions[n]
		if td == nil {
			out[n] = meaning{}
			continue
		}
		cont := append([]string(nil), td.Container...)
		sort.Strings(cont)
		m := meaning{ID: td.ID, Reverse: td.Reverse, Type: td.Type, Container: strings.Join(cont, " ")}
		if td.HasContext && td.Context != nil {
			sc, err := c.Parse(td.Context)
			if err != nil {
				t.Fatalf("json-gold refuses the scoped context of %q: %v", n, err)
			}
			scoped := map[string]bool{}
			if raw, ok := td.Context.(map[string]any); ok {
				for k := range raw {
					if !strings.HasPrefix(k, "@") {
						scoped[k] = true
					}
				}
			}
			m.Scoped = goldTerms(t, sc, scoped)
		}
		out[n] = m
	}
	return out
}

// ourMeaning returns the meaning of the terms of a processed context.
func ourMeaning(c *Context) map[string]meaning {
	out := map[string]meaning{}
	for n, tm := range c.Terms {
		cont := append([]string(nil), tm.Container...)
		sort.Strings(cont)
		m := meaning{ID: tm.ID, Reverse: tm.Reverse, Type: tm.Type, Container: strings.Join(cont, " ")}
		if tm.Scoped != nil {
			m.Scoped = ourMeaning(tm.Scoped)
		}
		out[n] = m
	}
	return out
}

// diffMeaning lists the differences between two meanings.
func diffMeaning(got, want map[string]meaning, path string) []string {
	var diffs []string
	names := map[string]bool{}
	for n := range got {
		names[n] = true
	}
	for n := range want {
		names[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		g, gok := got[n]
		w, wok := want[n]
		switch {
		case !gok:
			diffs = append(diffs, fmt.Sprintf("%s%s: missing, want %+v", path, n, w))
		case !wok:
			diffs = append(diffs, fmt.Sprintf("%s%s: unexpected %+v", path, n, g))
		default:
			gs, ws := g.Scoped, w.Scoped
			g.Scoped, w.Scoped = nil, nil
			if !reflect.DeepEqual(g, w) {
				diffs = append(diffs, fmt.Sprintf("%s%s: got %+v, want %+v", path, n, g, w))
			}
			if len(gs) > 0 || len(ws) > 0 {
				diffs = append(diffs, diffMeaning(gs, ws, path+n+"/")...)
			}
		}
	}
	return diffs
}

func hasWarning(ws []Warning, parts ...string) bool {
	for _, w := range ws {
		s := w.String()
		ok := true
		for _, p := range parts {
			if !strings.Contains(s, p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
