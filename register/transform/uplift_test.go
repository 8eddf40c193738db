package transform

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// The uplift of the examples register's pre-and-post-uplift block: the jq
// step gives the JSON the tool chain uplifted (its .jsonld without the
// context), the report entries are the tool chain's, and the SPARQL Update
// step makes of the uplifted graph the graph the tool chain wrote.
func TestUpliftAsTheToolChainRunsIt(t *testing.T) {
	folder := shared.Dir(t, "reference", "ogc-registers-2/ogcincubator+bblocks-examples/src/_sources/semantic-uplift/pre-and-post-uplift")
	ref := shared.Dir(t, "reference", "ogc-full-current/examples/tests/bbr/examples/semantic-uplift/pre-and-post-uplift")
	data, err := os.ReadFile(filepath.Join(folder, UpliftFile))
	if err != nil {
		t.Fatal(err)
	}
	u, probs, err := ParseUplift(UpliftFile, data)
	if err != nil || len(probs) > 0 {
		t.Fatalf("ParseUplift: %v %v", err, probs)
	}
	if errs := u.Load(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(folder, name)) }); errs != nil {
		t.Fatal(errs)
	}
	var notes []string
	note := func(s string) { notes = append(notes, s) }

	in := readJSON(t, filepath.Join(ref, "example_1_1.json"))
	got, err := u.Pre(t.Context(), ojson.Plain(in), note)
	if err != nil {
		t.Fatal(err)
	}
	want := readJSON(t, filepath.Join(ref, "example_1_1.jsonld")).(*ojson.Object)
	want.Delete("@context")
	if !sameJSON(t, got, want) {
		t.Errorf("pre-uplift gives %v, the tool chain uplifted %v", got, ojson.Plain(want))
	}

	// The graph before the step: the tool chain's, less what the step adds
	// (the predicates of https://example.net/2/, which the uplift's
	// context does not have).
	wantTTL, err := os.ReadFile(filepath.Join(ref, "example_1_1.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	quads, _, err := rdf.Parse(wantTTL, rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	var before, after []rdf.Triple
	for _, q := range quads {
		after = append(after, q.Triple)
		if !strings.HasPrefix(q.P, "https://example.net/2/") {
			before = append(before, q.Triple)
		}
	}
	if len(before) == len(after) {
		t.Fatal("the tool chain's graph has nothing the step added")
	}
	got2, err := u.Post(t.Context(), before, map[string]string{"ex": "http://example.com/"}, note)
	if err != nil {
		t.Fatalf("post-uplift: %v", err)
	}
	if ok, diff := rdftest.Isomorphic(got2, after); !ok {
		t.Errorf("post-uplift: not the tool chain's graph:\n%s", diff)
	}

	// The SEMANTIC_UPLIFT entries of the tool chain's report.
	var report struct {
		Items []struct {
			Sections []struct {
				Name    string `json:"name"`
				Entries []struct {
					Message string `json:"message"`
				} `json:"entries"`
			} `json:"sections"`
		} `json:"items"`
	}
	raw, err := os.ReadFile(filepath.Join(ref, "_report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &report); err != nil {
		t.Fatal(err)
	}
	var wantNotes []string
	for _, s := range report.Items[0].Sections {
		if s.Name == "SEMANTIC_UPLIFT" {
			for _, e := range s.Entries {
				wantNotes = append(wantNotes, e.Message)
			}
		}
	}
	if strings.Join(notes, "\n") != strings.Join(wantNotes, "\n") || len(notes) != 2 {
		t.Errorf("report entries %q, the tool chain's %q", notes, wantNotes)
	}
}

func readJSON(t *testing.T, file string) any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestParseUpliftRefusesBadSteps(t *testing.T) {
	cases := []struct{ name, step, want string }{
		{"no type", "  - code: .\n", `"type" is required`},
		{"bad type", "  - type: python\n    code: x\n", `not a step type`},
		{"both", "  - type: jq\n    code: .\n    ref: a.jq\n", `both`},
		{"neither", "  - type: shacl\n", `neither`},
		{"inheritable jq", "  - type: jq\n    code: .\n    inheritable: true\n", `cannot be inheritable`},
	}
	for _, c := range cases {
		data := "additionalSteps:\n" + c.step + "  - type: jq\n    code: .a\n"
		u, probs, err := ParseUplift(UpliftFile, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Steps) != 1 || u.Steps[0].Code != ".a" {
			t.Errorf("%s: kept %d steps, want the good one", c.name, len(u.Steps))
		}
		if len(probs) != 1 || !strings.Contains(probs[0].Message, c.want) || probs[0].Line != 2 {
			t.Errorf("%s: problems %v, want one at line 2 with %q", c.name, probs, c.want)
		}
	}
	if _, _, err := ParseUplift(UpliftFile, []byte("- 1\n")); err == nil {
		t.Error("a list was read as semantic-uplift.yaml")
	}
}

// A failing jq step stops the uplift with the step named.
func TestPreStepFails(t *testing.T) {
	u := &Uplift{Steps: []*Step{{Type: TypeJQ, Code: `error("no")`}}}
	_, err := u.Pre(t.Context(), map[string]any{}, func(string) {})
	var se *StepError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "pre-uplift jq step from inline code") || errors.Is(err, ErrNotRun) {
		t.Errorf("%v", err)
	}
}

// TestInheritSettings: inheritedPostSteps and inheritable as the tool
// chain's schema for semantic-uplift.yaml allows them, the steps a block
// lends (copies marked with the block, their code read), the report
// message of an inherited step, and the steps as published.
func TestInheritSettings(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		inherit    []string // nil: none
		from       []string // ids InheritsFrom must accept
		problem    string   // part of the one problem expected, "" for none
	}{
		{"absent", "additionalSteps: []\n", nil, nil, ""},
		{"false", "inheritedPostSteps: false\n", nil, nil, ""},
		{"true", "inheritedPostSteps: true\n", []string{All}, []string{"t.a", "t.b"}, ""},
		{"list", "inheritedPostSteps: [t.a]\n", []string{"t.a"}, []string{"t.a"}, ""},
		{"empty list", "inheritedPostSteps: []\n", []string{}, nil, ""},
		{"string", "inheritedPostSteps: t.a\n", nil, nil, "must be true, false or a list"},
		{"list of numbers", "inheritedPostSteps: [1]\n", nil, nil, "must be true, false or a list"},
		{"jq inheritable", "additionalSteps:\n  - type: jq\n    code: .\n    inheritable: false\n", nil, nil, "cannot be inheritable"},
		{"inheritable not bool", "additionalSteps:\n  - type: shacl\n    code: x\n    inheritable: yes please\n", nil, nil, "must be true or false"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, probs, err := ParseUplift(UpliftFile, []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if c.problem == "" && len(probs) > 0 || c.problem != "" && (len(probs) != 1 || !strings.Contains(probs[0].Message, c.problem)) {
				t.Errorf("problems %v, want one with %q", probs, c.problem)
			}
			if (u.Inherit == nil) != (c.inherit == nil) || strings.Join(u.Inherit, ",") != strings.Join(c.inherit, ",") {
				t.Errorf("Inherit %#v, want %#v", u.Inherit, c.inherit)
			}
			for _, id := range []string{"t.a", "t.b"} {
				want := false
				for _, f := range c.from {
					want = want || f == id
				}
				if u.InheritsFrom(id) != want {
					t.Errorf("InheritsFrom(%s) = %v", id, !want)
				}
			}
		})
	}

	const file = "additionalSteps:\n" +
		"  - type: jq\n    code: .\n" +
		"  - type: shacl\n    ref: rules.shacl\n    inheritable: true\n    note: kept\n" +
		"  - type: sparql-update\n    code: 'DELETE WHERE { ?s ?p ?o }'\n    inheritable: false\n"
	const rules = "@prefix ex: <http://e/> .\n"
	u, probs, err := ParseUplift(UpliftFile, []byte(file))
	if err != nil || len(probs) > 0 {
		t.Fatal(err, probs)
	}
	if got := u.InheritableSteps("t.a"); len(got) != 0 {
		t.Errorf("a step whose code was not read is lent: %v", got)
	}
	if errs := u.Load(func(string) ([]byte, error) { return []byte(rules), nil }); errs != nil {
		t.Fatal(errs)
	}
	lent := u.InheritableSteps("t.a")
	if len(lent) != 1 || lent[0].Type != TypeSHACL || lent[0].Code != rules || lent[0].From != "t.a" || u.Steps[1].From != "" {
		t.Fatalf("InheritableSteps: %+v", lent)
	}
	if m := lent[0].Message(); m != "Running post-uplift shacl transform step from inline code (inherited from t.a)" {
		t.Errorf("Message: %s", m)
	}
	if m := u.Steps[1].Message(); m != "Running post-uplift shacl transform step from rules.shacl" {
		t.Errorf("own step's Message: %s", m)
	}
	got, _ := json.Marshal(ojson.Plain(u.Published()))
	var g, w any
	json.Unmarshal(got, &g)
	json.Unmarshal([]byte(`{"additionalSteps": [
		{"type": "jq", "code": "."},
		{"type": "shacl", "inheritable": true, "note": "kept", "code": "@prefix ex: <http://e/> .\n"},
		{"type": "sparql-update", "code": "DELETE WHERE { ?s ?p ?o }", "inheritable": false}]}`), &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("Published: %s", got)
	}
	if (&Uplift{}).Published() != nil {
		t.Error("an uplift without steps publishes something")
	}

	// Inherited steps run after the uplift, before the block's own.
	own, _, _ := ParseUplift(UpliftFile, []byte("additionalSteps:\n  - type: sparql-construct\n    code: CONSTRUCT {} WHERE {}\n"))
	own.Inherited = lent
	var notes []string
	// The CONSTRUCT step builds nothing: the graph after it is empty.
	after, err := own.Post(t.Context(), []rdf.Triple{rdf.T(rdf.NewIRI("http://e/s"), "http://e/p", rdf.NewIRI("http://e/o"))}, nil, func(s string) { notes = append(notes, s) })
	if len(notes) != 2 || notes[0] != lent[0].Message() || err != nil || len(after) != 0 {
		t.Errorf("Post: notes %q, error %v, graph %v", notes, err, after)
	}
}
