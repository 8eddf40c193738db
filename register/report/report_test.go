package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// TestItemVerdict checks the rules of an item's result: an error fails a
// resource that must pass and passes one that must fail, a global error
// fails both, and Finish adds the tool chain's verdict on a resource that
// must fail, once.
func TestItemVerdict(t *testing.T) {
	tests := []struct {
		name        string
		requireFail bool
		add         func(*Item)
		failed      bool
		verdict     string // the require-fail entry's message, or ""
	}{
		{"clean", false, func(*Item) {}, false, ""},
		{"error", false, func(it *Item) { it.Error(JSONSchema, "bad") }, true, ""},
		{"must fail, fails", true, func(it *Item) { it.Error(JSONSchema, "bad") }, false, "Test was expected to fail and it did."},
		{"must fail, passes", true, func(it *Item) { it.Info(JSONSchema, "Validation passed") }, true, "Test was expected to fail but it did not."},
		{"global", true, func(it *Item) { it.GlobalError(JSONSchema, "schema broken") }, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := NewItem(Source{Type: TestResource, RequireFail: tt.requireFail})
			tt.add(it)
			it.Finish()
			it.Finish()
			if it.Failed() != tt.failed {
				t.Errorf("failed %v, want %v", it.Failed(), tt.failed)
			}
			gen := it.Entries(General)
			switch {
			case tt.verdict == "" && len(gen) != 0:
				t.Errorf("verdict %v, want none", gen)
			case tt.verdict != "" && (len(gen) != 1 || gen[0].Message != tt.verdict || gen[0].Op() != OpRequireFail || gen[0].IsError != tt.failed):
				t.Errorf("verdict %+v, want %q (error %v)", gen, tt.verdict, tt.failed)
			}
		})
	}
}

// TestBlockJSON checks the layout of _report.json on a small report: the
// members in the tool chain's order, the payload before isError, the url
// below the base URL, and a global error listed once under globalErrors
// and not among the item's entries.
func TestBlockJSON(t *testing.T) {
	a := NewItem(Source{Type: Example, Filename: "build/tests/x/example_1_1.json", ExampleIndex: 1, SnippetIndex: 1, Language: "application/json"})
	a.Info(Files, "Using example_1_1.json from examples")
	a.Info(Files, "Output Turtle example_1_1.ttl created", Op(OpTTLCreate), M("empty", false), M("filename", "example_1_1.ttl"), M("size", 3))
	a.Finish()
	b := NewItem(Source{Type: TestResource, RequireFail: true, Filename: "_sources/x/tests/a b-fail.json", Language: "json"})
	b.GlobalError(JSONSchema, "Error creating JSON validator: broken")
	b.GlobalError(JSONSchema, "a second one")
	b.Finish()
	r := &Block{ID: "p.x", Name: "X", Generated: "2000-01-01T00:00:00+00:00", BaseURL: "https://example.org/r/", Items: []*Item{a, b}}
	data, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "title": "Validation report for p.x - X",
  "bblockName": "X",
  "bblockId": "p.x",
  "generated": "2000-01-01T00:00:00+00:00",
  "result": false,
  "items": [
    {
      "source": {
        "type": "EXAMPLE",
        "requireFail": false,
        "filename": "build/tests/x/example_1_1.json",
        "url": "https://example.org/r/build/tests/x/example_1_1.json",
        "exampleIndex": 1,
        "snippetIndex": 1,
        "language": "application/json"
      },
      "result": true,
      "sections": [
        {
          "name": "FILES",
          "title": "Files",
          "entries": [
            {
              "isError": false,
              "message": "Using example_1_1.json from examples"
            },
            {
              "op": "ttl-create",
              "empty": false,
              "filename": "example_1_1.ttl",
              "size": 3,
              "isError": false,
              "message": "Output Turtle example_1_1.ttl created"
            }
          ]
        }
      ]
    },
    {
      "source": {
        "type": "TEST_RESOURCE",
        "requireFail": true,
        "filename": "_sources/x/tests/a b-fail.json",
        "url": "https://example.org/r/_sources/x/tests/a%20b-fail.json",
        "language": "json"
      },
      "result": false,
      "sections": [
        {
          "name": "JSON_SCHEMA",
          "title": "JSON Schema",
          "entries": []
        }
      ]
    }
  ],
  "globalErrors": {
    "JSON_SCHEMA": {
      "isError": true,
      "message": "Error creating JSON validator: broken"
    }
  },
  "counts": {
    "total": 2,
    "passed": 1,
    "failed": 1
  }
}`
	if string(data) != want {
		t.Errorf("got\n%s\nwant\n%s", data, want)
	}
	text := string(b.Text("p.x", "X", "2000-01-01T00:00:00+00:00"))
	wantText := "Validation report for p.x - X\nGenerated 2000-01-01T00:00:00+00:00\n=== JSON Schema ===\n\n** Validation error **\nError creating JSON validator: broken\n\n** Validation error **\na second one\n=== End JSON Schema ===\n\n"
	if text != wantText {
		t.Errorf("text\n%q\nwant\n%q", text, wantText)
	}
	if b.TextName("a b-fail") != "a b-fail.validation_failed.txt" || a.TextName("example_1_1") != "example_1_1.validation_passed.txt" {
		t.Error("text file names")
	}
}

// refItems rebuilds, through the API, the items of a _report.json the
// tool chain wrote.
func refItems(t *testing.T, rep map[string]any) []*Item {
	t.Helper()
	var items []*Item
	for _, x := range rep["items"].([]any) {
		m := x.(map[string]any)
		s := m["source"].(map[string]any)
		src := Source{RequireFail: s["requireFail"].(bool)}
		src.Filename, _ = s["filename"].(string)
		src.Language, _ = s["language"].(string)
		src.SourceURL, _ = s["sourceUrl"].(string)
		if n, ok := s["exampleIndex"].(float64); ok {
			src.ExampleIndex = int(n)
		}
		if n, ok := s["snippetIndex"].(float64); ok {
			src.SnippetIndex = int(n)
		}
		switch s["type"] {
		case "EXAMPLE":
			src.Type = Example
		case "TEST_RESOURCE":
			src.Type = TestResource
		default:
			t.Fatalf("source type %v", s["type"])
		}
		it := NewItem(src)
		for _, y := range m["sections"].([]any) {
			sec := y.(map[string]any)
			var s Section = -1
			for i := range numSections {
				if i.Name() == sec["name"] {
					s = i
				}
			}
			if s < 0 || s.Title() != sec["title"] {
				t.Fatalf("section %v %v", sec["name"], sec["title"])
			}
			for _, z := range sec["entries"].([]any) {
				// Keep the members' order: decode the entry again as a
				// stream of tokens.
				raw, _ := json.Marshal(z)
				e := Entry{Section: s}
				for _, kv := range orderedMembers(t, raw) {
					switch kv.Key {
					case "isError":
						e.IsError = kv.Value.(bool)
					case "message":
						e.Message = kv.Value.(string)
					default:
						e.Payload = append(e.Payload, kv)
					}
				}
				it.Add(e)
			}
		}
		// The block's errors (globalErrors, by section) are the errors
		// of each resource they fail, which show them in their text file.
		if m["result"] == false {
			for name, x := range asMap(rep["globalErrors"]) {
				for i := range numSections {
					if i.Name() == name {
						it.GlobalError(i, x.(map[string]any)["message"].(string))
					}
				}
			}
		}
		items = append(items, it)
	}
	return items
}

// asMap returns v as a JSON object, or an empty one.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// orderedMembers returns the members of a JSON object in the order of
// the text (encoding/json sorts a map's keys, so raw comes from a map: the
// order checked is the tool chain's only where the text is the file's).
func orderedMembers(t *testing.T, raw []byte) ojson.Members {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var out ojson.Members
	for dec.More() {
		k, _ := dec.Token()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if n, ok := v.(json.Number); ok {
			i, _ := n.Int64()
			v = int(i)
		}
		out = append(out, ojson.M(k.(string), v))
	}
	return out
}

// TestReferenceReports rebuilds every _report.json the OGC tool chain
// wrote for the registers of ../shared/reference/ogc-full*, ogc-pending, item by item
// and entry by entry through this package, and requires the same JSON (by
// value), the same text file beside each resource (byte for byte), and
// the same register-wide tests/report.json (by value) and report.html
// results.
func TestReferenceReports(t *testing.T) {
	root := shared.Dir(t, "reference")
	registers, texts := 0, 0
	for _, set := range []string{"ogc-full", "ogc-pending", "ogc-full-current"} {
		regs, err := os.ReadDir(filepath.Join(root, set))
		if err != nil {
			t.Fatal(err)
		}
		for _, rd := range regs {
			dir := filepath.Join(root, set, rd.Name())
			if _, err := os.Stat(filepath.Join(dir, "tests", "report.json")); err != nil {
				continue
			}
			registers++
			t.Run(set+"/"+rd.Name(), func(t *testing.T) {
				regRep := readJSON(t, filepath.Join(dir, "tests", "report.json"))
				reg := &Register{Dir: "build/tests"}
				for id, x := range regRep["bblocks"].(map[string]any) {
					rep := x.(map[string]any)
					b := &Block{ID: id, Name: rep["bblockName"].(string), Generated: rep["generated"].(string), Items: refItems(t, rep)}
					if items := rep["items"].([]any); len(items) > 0 {
						src := items[0].(map[string]any)["source"].(map[string]any)
						if u, ok := src["url"].(string); ok {
							b.BaseURL = strings.TrimSuffix(u, src["filename"].(string))
						}
					}
					reg.Generated = b.Generated
					data, err := b.JSON()
					if err != nil {
						t.Fatal(err)
					}
					var got any
					if err := json.Unmarshal(data, &got); err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, rep) {
						t.Errorf("%s: _report.json differs:\ngot  %s\nwant %v", id, data, rep)
					}
					// The text file of each item, where the reference
					// holds the block's folder (a few builds left some out).
					p := strings.ReplaceAll(strings.SplitN(id, ".", 2)[1], ".", "/")
					folder := filepath.Join(dir, "tests", filepath.FromSlash(p))
					if _, err := os.Stat(folder); err == nil {
						for _, it := range b.Items {
							base := strings.TrimSuffix(filepath.Base(it.Source.Filename), filepath.Ext(it.Source.Filename))
							want, err := os.ReadFile(filepath.Join(folder, it.TextName(base)))
							if err != nil {
								t.Errorf("%s: %s: %v", id, it.Source.Filename, err)
								continue
							}
							texts++
							if got := it.Text(b.ID, b.Name, b.Generated); !bytes.Equal(got, want) {
								t.Errorf("%s: %s: text differs:\ngot  %q\nwant %q", id, it.Source.Filename, got, want)
							}
						}
					}
					reg.Blocks = append(reg.Blocks, b)
				}
				// report.json lists the blocks by id: its order is not
				// compared.
				data, err := reg.JSON()
				if err != nil {
					t.Fatal(err)
				}
				var got any
				if err := json.Unmarshal(data, &got); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, any(regRep)) {
					t.Errorf("report.json differs in its summary or blocks")
				}
				var page bytes.Buffer
				if err := reg.WriteHTML(&page); err != nil {
					t.Fatal(err)
				}
				ref, err := os.ReadFile(filepath.Join(dir, "tests", "report.html"))
				if err != nil {
					t.Fatal(err)
				}
				gotRes, wantRes := HTMLResults(page.Bytes()), HTMLResults(ref)
				for id, w := range wantRes {
					if g := gotRes[id]; !reflect.DeepEqual(g, w) {
						t.Errorf("report.html: %s: %v, the tool chain's %v", id, g, w)
					}
				}
				if len(gotRes) != len(wantRes) {
					t.Errorf("report.html: %d blocks, the tool chain's %d", len(gotRes), len(wantRes))
				}
			})
		}
	}
	t.Logf("%d registers, %d text files compared", registers, texts)
	if registers < 10 || texts < 80 {
		t.Errorf("%d reference registers with a tests/report.json and %d text files compared, want at least 10 and 80", registers, texts)
	}
}

func readJSON(t *testing.T, p string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}
