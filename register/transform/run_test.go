package transform

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// loadTransforms reads the transforms of a block folder of ../shared.
func loadTransforms(t *testing.T, folder string) map[string]*Transform {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(folder, File))
	if err != nil {
		t.Fatal(err)
	}
	ts, _, err := Parse(File, data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Transform{}
	for _, tr := range ts {
		if err := tr.Load(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(folder, name)) }); err == nil {
			out[tr.ID] = tr
		}
	}
	return out
}

// sizes returns the sizeBytes the tool chain recorded for each transform
// output in a block's full JSON documentation, by output file name.
func sizes(t *testing.T, jsonFull string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(jsonFull)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Examples []struct {
			Snippets []struct {
				TransformResults map[string]struct {
					URL       string `json:"url"`
					SizeBytes int    `json:"sizeBytes"`
				} `json:"transformResults"`
			} `json:"snippets"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, ex := range doc.Examples {
		for _, sn := range ex.Snippets {
			for _, r := range sn.TransformResults {
				out[filepath.Base(r.URL)] = r.SizeBytes
			}
		}
	}
	return out
}

var outputName = regexp.MustCompile(`^(example_\d+_\d+)\.([a-zA-Z][a-zA-Z0-9-]*)\.json$`)

// The jq transforms of the registers in ../shared give, on the examples
// the tool chain ran them on, the outputs it wrote: equal as JSON, and of
// the size it recorded (so written as it writes JSON, key order aside).
func TestJQAsTheToolChainRunsIt(t *testing.T) {
	cases := []struct {
		src, ref, folder, out, doc string
	}{
		{"ogc-registers/ogcincubator+bblocks-tutorial/src", "ogc-full/tutorial", "exercise8_completed", "bbr/tutorial/exercise8_completed", "generateddocs/json-full/bbr/tutorial/exercise8_completed/index.json"},
		{"ogc-registers/ogcincubator+bblocks-tutorial/src", "ogc-full/tutorial", "exercise9", "bbr/tutorial/exercise9", "generateddocs/json-full/bbr/tutorial/exercise9/index.json"},
		{"ogc-registers-2/ogcincubator+bblocks-examples/src", "ogc-full-current/examples", "transforms/transforms-example", "bbr/examples/transforms/transforms-example", ""},
	}
	ran := 0
	for _, c := range cases {
		folder := shared.Dir(t, "reference", c.src, "_sources", c.folder)
		ref := shared.Dir(t, "reference", c.ref)
		transforms := loadTransforms(t, folder)
		var sized map[string]int
		if c.doc != "" {
			sized = sizes(t, filepath.Join(ref, c.doc))
		}
		outs, err := filepath.Glob(filepath.Join(ref, "tests", c.out, "transforms", "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			m := outputName.FindStringSubmatch(filepath.Base(o))
			tr := transforms[m[2]]
			if m == nil || tr == nil || tr.Type != TypeJQ {
				continue
			}
			t.Run(c.folder+"/"+filepath.Base(o), func(t *testing.T) {
				in, err := os.ReadFile(filepath.Join(ref, "tests", c.out, m[1]+".json"))
				if err != nil {
					t.Fatal(err)
				}
				got, err := tr.Run(t.Context(), Input{Data: in, MediaType: "application/json"})
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(o)
				if err != nil {
					t.Fatal(err)
				}
				g, err1 := ojson.DecodeJSON(got)
				w, err2 := ojson.DecodeJSON(want)
				if err1 != nil || err2 != nil || !ojson.Equal(g, w) {
					t.Errorf("got %s\nwant %s", got, want)
				}
				if n, ok := sized[filepath.Base(o)]; ok && n != len(got) {
					t.Errorf("%d bytes, the tool chain wrote %d", len(got), n)
				}
			})
			ran++
		}
	}
	if ran < 5 {
		t.Errorf("compared %d outputs; the references hold at least 5", ran)
	}
}

// A transform that fails in the tool chain fails here, with the jq error;
// one of a type jrpcld does not run says what would run it.
func TestRunFailures(t *testing.T) {
	folder := shared.Dir(t, "reference", "ogc-registers-2/ogcincubator+bblocks-examples/src/_sources/transforms/transforms-example")
	transforms := loadTransforms(t, folder)
	in := Input{Data: []byte(`{"one": 1}`), MediaType: "application/json"}
	_, err := transforms["jq-error"].Run(t.Context(), in)
	if err == nil || !strings.Contains(err.Error(), "intentional test error") || errors.Is(err, ErrNotRun) {
		t.Errorf("jq-error: %v", err)
	}
	for id, runner := range map[string]string{"python-uppercase-keys": "Python", "node-add-metadata": "Node.js",
		"sample-xslt": "lxml", "jinja2-html": "plugin"} {
		tr := transforms[id]
		_, err := tr.Run(t.Context(), Input{Data: []byte(`{}`), MediaType: tr.Inputs[0].MIME})
		var nr *NotRunError
		if !errors.As(err, &nr) || !errors.Is(err, ErrNotRun) || !strings.Contains(err.Error(), runner) {
			t.Errorf("%s: %v, want a NotRunError naming %s", id, err, runner)
		}
	}
}

func TestJQResults(t *testing.T) {
	cases := []struct{ program, in, want, err string }{
		{".a", `{"a": [1, 2.5, "é"]}`, "[\n  1,\n  2.5,\n  \"\\u00e9\"\n]", ""},
		{".", `{"b": {}, "a": []}`, "{\n  \"a\": [],\n  \"b\": {}\n}", ""},
		{".[]", `[1, 2]`, "", "more than one result"},
		{"empty", `{}`, "", "no result"},
		{"error(\"boom\")", `{}`, "", "boom"},
		{".a |", `{}`, "", "line 1"},
		{"def f: f; f", `{}`, "", "longer than the limit"},
		{".", `{} {}`, "", "not JSON"},
		{"env", `{}`, "{}", ""}, // no access to the environment
		{"input", `{}`, "", "input"},
	}
	for _, c := range cases {
		tr := &Transform{ID: "t", Type: TypeJQ, Code: c.program}
		tr.Outputs = tr.mediaTypes("outputs")
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond) // for the endless program
		got, err := tr.Run(ctx, Input{Data: []byte(c.in), MediaType: "application/json"})
		cancel()
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one with %q", c.program, err, c.err)
		case c.err == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: got %q, %v; want %q", c.program, got, err, c.want)
		}
	}
}
