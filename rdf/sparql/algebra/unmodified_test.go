package algebra

import (
	"reflect"
	"testing"
)

// TestUnmodified: the solution modifiers above a query's Project are
// taken off, in any order; a Project and what is below it are kept.
func TestUnmodified(t *testing.T) {
	bgp := BGP{Patterns: []TriplePattern{{S: Node{Var: "s"}, P: Node{Var: "p"}, O: Node{Var: "o"}}}}
	ordered := OrderBy{Sub: bgp}
	project := Project{Sub: ordered, Vars: []string{"s"}}
	tests := []struct {
		name string
		in   Op
		want Op
	}{
		{"pattern", bgp, bgp},
		{"project", project, project},
		{"all modifiers", Slice{Sub: Distinct{Sub: project}, Limit: 1}, project},
		{"reduced", Reduced{Sub: project}, project},
		{"order by without project", Slice{Sub: ordered, Limit: -1}, bgp},
	}
	for _, tt := range tests {
		if got := Unmodified(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Unmodified = %#v, want %#v", tt.name, got, tt.want)
		}
	}
}
