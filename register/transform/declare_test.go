package transform

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// refBlock is a block's entry of a reference register.json, as the tool
// chain wrote it.
type refBlock struct {
	ID          string `json:"itemIdentifier"`
	SourceFiles string `json:"sourceFiles"`
	Transforms  []any  `json:"transforms"`
}

// referenceBlocks reads the blocks of a reference build's register.json.
func referenceBlocks(t *testing.T, dir string) map[string]refBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "register.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		Blocks []refBlock `json:"bblocks"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	out := map[string]refBlock{}
	for _, b := range reg.Blocks {
		out[b.ID] = b
	}
	return out
}

// sameJSON reports whether two values are equal as JSON (objects by
// member, whatever their order; numbers by value), after a round trip
// through encoding/json.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		data, err := json.Marshal(ojson.Plain(v))
		if err != nil {
			t.Fatal(err)
		}
		out, err := ojson.DecodeJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return ojson.Equal(norm(a), norm(b))
}

// Each transforms.yaml of the registers in ../shared gives, in
// register.json, what the tool chain wrote there: the declaration with its
// code, ref made absolute and the media types normalised (full table
// entries for a type's defaults, short forms for declared ones, declared
// forms left alone for a transform it skips).
func TestEntryAsTheToolChainWritesIt(t *testing.T) {
	cases := []struct {
		src, ref, folder, id string
	}{
		{"ogc-registers/ogcincubator+bblocks-tutorial/src", "ogc-full/tutorial", "exercise8_completed", "ogc.bbr.tutorial.exercise8_completed"},
		{"ogc-registers/ogcincubator+bblocks-tutorial/src", "ogc-full/tutorial", "exercise9", "ogc.bbr.tutorial.exercise9"},
		{"ogc-registers-2/ogcincubator+bblocks-examples/src", "ogc-full-current/examples", "transforms/transforms-example", "ogc.bbr.examples.transforms.transforms-example"},
		{"ogc-registers-2/ogcincubator+bblocks-examples/src", "ogc-full-current/examples", "transforms/transforms-reuse", "ogc.bbr.examples.transforms.transforms-reuse"},
	}
	for _, c := range cases {
		t.Run(c.folder, func(t *testing.T) {
			folder := shared.Dir(t, "reference", c.src, "_sources", c.folder)
			blocks := referenceBlocks(t, shared.Dir(t, "reference", c.ref))
			want, ok := blocks[c.id]
			if !ok {
				t.Fatalf("the reference has no block %s", c.id)
			}
			data, err := os.ReadFile(filepath.Join(folder, File))
			if err != nil {
				t.Fatal(err)
			}
			ts, probs, err := Parse(File, data)
			if err != nil || len(probs) > 0 {
				t.Fatalf("Parse: %v %v", err, probs)
			}
			if len(ts) != len(want.Transforms) {
				t.Fatalf("%d transforms, the reference lists %d", len(ts), len(want.Transforms))
			}
			for i, tr := range ts {
				err := tr.Load(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(folder, name)) })
				if errors.Is(err, fs.ErrNotExist) {
					// The sources in ../shared lack a few files the
					// tool chain read (python-geojson.py).
					t.Logf("%v: not compared", err)
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				got := tr.Entry(want.SourceFiles, nil)
				if !sameJSON(t, got, ojson.FromPlain(want.Transforms[i])) {
					g, _ := ojson.Marshal(got)
					w, _ := json.MarshalIndent(want.Transforms[i], "", "  ")
					t.Errorf("transform %s:\n got %s\nwant %s", tr.ID, g, w)
				}
			}
		})
	}
}

func TestParseRefusesBadDeclarations(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"no id", "transforms:\n  - type: jq\n    code: .\n", `"id" is required`},
		{"bad id", "transforms:\n  - id: 1x\n    type: jq\n    code: .\n", `id "1x"`},
		{"no type", "transforms:\n  - id: a\n    code: .\n", `"type" is required`},
		{"both", "transforms:\n  - id: a\n    type: jq\n    code: .\n    ref: a.jq\n", `both "code" and "ref"`},
		{"neither", "transforms:\n  - id: a\n    type: jq\n", `neither "code" nor "ref"`},
		{"blank code", "transforms:\n  - id: a\n    type: jq\n    code: '  '\n", `not blank`},
		{"empty media types", "transforms:\n  - id: a\n    type: jq\n    code: .\n    inputs:\n      mediaTypes: []\n", `inputs.mediaTypes must be a list that is not empty`},
		{"bad media type", "transforms:\n  - id: a\n    type: jq\n    code: .\n    outputs:\n      mediaTypes: [json]\n", `outputs.mediaTypes[0]`},
		{"object without extension", "transforms:\n  - id: a\n    type: jq\n    code: .\n    outputs:\n      mediaTypes: [{mimeType: text/csv}]\n", `outputs.mediaTypes[0]`},
		{"metadata", "transforms:\n  - id: a\n    type: jq\n    code: .\n    metadata: 3\n", `"metadata" must be an object`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A good transform after the bad one is kept.
			data := c.yaml + "  - id: good\n    type: jq\n    code: .\n"
			ts, probs, err := Parse("transforms.yaml", []byte(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(ts) != 1 || ts[0].ID != "good" {
				t.Errorf("kept %d transforms, want the good one only", len(ts))
			}
			if len(probs) != 1 || !strings.Contains(probs[0].Message, c.want) || probs[0].Line != 2 {
				t.Errorf("problems %v, want one at line 2 containing %q", probs, c.want)
			}
		})
	}
	for _, bad := range []string{"transforms: 3\n", "- a\n", "transforms: [\n"} {
		if _, _, err := Parse("transforms.yaml", []byte(bad)); err == nil {
			t.Errorf("Parse(%q) gave no error", bad)
		}
	}
}

func TestLoadDoesNotFetch(t *testing.T) {
	ts, _, err := Parse("transforms.yaml", []byte("transforms:\n  - id: a\n    type: jq\n    ref: https://example.org/a.jq\n"))
	if err != nil {
		t.Fatal(err)
	}
	read := func(string) ([]byte, error) { t.Fatal("read called for a URL"); return nil, nil }
	if err := ts[0].Load(read); err == nil || !strings.Contains(err.Error(), "does not fetch") {
		t.Errorf("Load: %v", err)
	}
	if _, err := ts[0].Run(t.Context(), Input{Data: []byte("{}"), MediaType: "application/json"}); err == nil {
		t.Error("a transform whose code was not read ran")
	}
}

func TestSatisfies(t *testing.T) {
	cases := []struct {
		version, constraint string
		want                bool
	}{
		{"3.10.20", ">=3.10", true},
		{"3.10.20", ">=5.0", false},
		{"3.10.20", ">=3.8, <4", true},
		{"3.10.20", ">3.10.20", false},
		{"3.10.20", "==3.10.*", true},
		{"3.10.20", "==3.11.*", false},
		{"3.10.20", "~=3.9", true},
		{"3.10.20", "~=3.11", false},
		{"3.10.20", "!=3.10.20", false},
		{"18.19.0", ">=18", true},
		{"18.19.0", ">=20", false},
		{"3.10.20", "nonsense", true},
	}
	for _, c := range cases {
		if got := satisfies(c.version, c.constraint); got != c.want {
			t.Errorf("satisfies(%q, %q) = %v, want %v", c.version, c.constraint, got, c.want)
		}
	}
}
