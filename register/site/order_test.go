package site

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// rowIDs returns the ids of the groups' rows in order, a group's label
// before its rows.
func rowIDs(groups []RowGroup) string {
	var out []string
	for _, g := range groups {
		out = append(out, "["+g.Label+"]")
		for _, r := range g.Rows {
			out = append(out, r.ID)
		}
	}
	return strings.Join(out, " ")
}

// TestGroups: the index lists blocks as the OGC viewer's navigation does
// (src/layouts/default/View.vue and src/utils/bblock-groups.js of
// ogcincubator/bblocks-viewer): by name, in groups (named ones in order,
// "Other" last), highlighted first in each.
func TestGroups(t *testing.T) {
	tests := []struct {
		name string
		rows []IndexRow
		want string
	}{
		{"tutorial names: 10 after 01 (completed)", []IndexRow{
			{ID: "t.exercise0", Name: "00 - Orientation"}, {ID: "t.exercise1", Name: "01 - JSON schema"},
			{ID: "t.exercise10", Name: "10 - RDF BB"}, {ID: "t.exercise10_completed", Name: "10 - RDF BB (completed) "},
			{ID: "t.exercise1_completed", Name: "01 - JSON schema (completed)"}, {ID: "t.exercise2", Name: "02 - JSON-LD"}},
			"[Other] t.exercise0 t.exercise1 t.exercise1_completed t.exercise2 t.exercise10 t.exercise10_completed"},
		{"groups and highlighted", []IndexRow{
			{ID: "x.a", Name: "Alpha"}, {ID: "x.b", Name: "Beta", Group: "Paths"}, {ID: "x.c", Name: "Gamma", Group: "API", Highlighted: true},
			{ID: "x.d", Name: "Delta", Group: "API"}, {ID: "x.e", Name: "Epsilon", Highlighted: true}, {ID: "x.f", Name: "Zeta", Group: "Other"}},
			"[API] x.c x.d [Paths] x.b [Other] x.e x.a x.f"},
		{"same name: by identifier", []IndexRow{{ID: "x.B", Name: "Same"}, {ID: "x.a", Name: "Same"}}, "[Other] x.a x.B"},
		{"case and accents as a browser collates them", []IndexRow{
			{ID: "1", Name: "zebra"}, {ID: "2", Name: "Éclair"}, {ID: "3", Name: "apple"}, {ID: "4", Name: "Banana"}, {ID: "5", Name: "eclair"}},
			"[Other] 3 4 5 2 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			idx := &Index{Rows: tc.rows}
			if got := rowIDs(idx.Groups()); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestGroupsAsNode sorts names with node's String.prototype.localeCompare,
// as the viewer does in the browser, and checks that the index orders
// them the same.
func TestGroupsAsNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("JRPCLD_SHARED") != "" {
			t.Fatal("node, which CI installs, is not on the PATH")
		}
		t.Skip("no node to compare with")
	}
	names := []string{"10 - RDF BB", "01 - JSON schema (completed)", "01 - JSON schema", "00 - Orientation", "1 - one",
		"Zulu", "zulu", "Äpfel", "apfel", "Apfel", "_under", "-dash", "x y", "x-y", "xy", "x.y", "Éclair", "eclair",
		"CCO Person", "CCO person", "Common Core Ontologies", "ro-crate", "RO-Crate", "Ω", "z2", "z10", "(paren)", "[square]"}
	in, _ := json.Marshal(names)
	out, err := exec.Command(node, "-e", `const n = JSON.parse(process.argv[1]); n.sort((a, b) => a.localeCompare(b)); process.stdout.write(JSON.stringify(n));`, string(in)).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	var rows []IndexRow
	for _, n := range names {
		rows = append(rows, IndexRow{ID: n, Name: n})
	}
	var got []string
	for _, r := range (&Index{Rows: rows}).Groups()[0].Rows {
		got = append(got, r.Name)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("order\n%q\nnode's localeCompare\n%q", got, want)
	}
}
