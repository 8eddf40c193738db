package transform

import (
	"strings"
	"testing"
)

// TestInherit walks a made-up dependency graph as the tool chain's
// get_inherited_post_uplift_steps does: post-order (a block's steps after
// those of the blocks it depends on), a block shared by two paths once, a
// cycle back to the block not followed, unknown blocks skipped, and only
// the blocks the setting names lending steps.
func TestInherit(t *testing.T) {
	graph := map[string][]string{
		"root": {"a", "b", "missing"},
		"a":    {"c"},
		"b":    {"c", "root"}, // b also depends back on root
		"c":    {"d"},
		"d":    nil,
	}
	lookup := func(id string) ([]string, []*Step, bool) {
		deps, ok := graph[id]
		if !ok {
			return nil, nil, false
		}
		return deps, []*Step{{Type: TypeSHACL, Code: id, From: id}}, true
	}
	for _, c := range []struct {
		inherit []string
		want    string // the ids of the steps, in order
		unknown string
	}{
		{nil, "", ""},
		{[]string{All}, "d c a b", ""},
		{[]string{"b", "d", "nowhere"}, "d b", "nowhere"},
		{[]string{"root"}, "", "root"},
	} {
		steps, unknown := Inherit("root", &Uplift{Inherit: c.inherit}, lookup)
		var ids []string
		for _, s := range steps {
			ids = append(ids, s.From)
		}
		if got := strings.Join(ids, " "); got != c.want || strings.Join(unknown, " ") != c.unknown {
			t.Errorf("Inherit %v: steps of %q, unknown %q; want %q, %q", c.inherit, got, unknown, c.want, c.unknown)
		}
	}
}
