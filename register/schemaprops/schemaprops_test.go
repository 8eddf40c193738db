package schemaprops

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

var entry = Source{Loc: "/build/annotated/a/schema.yaml", Entry: true}

// schema decodes a property's subschema.
func schema(t testing.TB, js string) *ojson.Object {
	t.Helper()
	v, err := ojson.DecodeJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*ojson.Object)
}

// prop records a property as package context would: Visit, then Property.
func prop(t testing.TB, c *Collector, path string, js string, id any) {
	t.Helper()
	p := strings.Split(path, "/")
	c.Visit(p, entry, true)
	pr := Property{Path: p, Schema: schema(t, js), Source: entry}
	if id != nil {
		pr.Bound, pr.ID, pr.Annotated, pr.AnnotatedID = true, id, true, id
	}
	c.Property(pr)
}

// paths lists the paths of entries, with their titles for branches.
func paths(t testing.TB, data []byte) (props []string, defs map[string][]string) {
	t.Helper()
	var doc struct {
		Defs       map[string][]map[string]any
		Properties []map[string]any
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	name := func(e map[string]any) string {
		var parts []string
		for _, p := range e["path"].([]any) {
			parts = append(parts, p.(string))
		}
		s := strings.Join(parts, "/")
		if e["keyword"] == "branch" {
			s += fmt.Sprintf("(%v)", e["title"])
		}
		if r, ok := e["ref"]; ok {
			s += fmt.Sprintf("->%v", r)
		}
		return s
	}
	for _, e := range doc.Properties {
		props = append(props, name(e))
	}
	defs = map[string][]string{}
	for k, list := range doc.Defs {
		for _, e := range list {
			defs[k] = append(defs[k], name(e))
		}
	}
	return props, defs
}

// The cases below are the tool chain's rules (ogc-na-tools'
// ContextBuilder, as of 6096587) applied by hand.
func TestResolve(t *testing.T) {
	tests := []struct {
		name  string
		build func(t *testing.T, c *Collector)
		want  []string
		defs  map[string][]string
	}{{
		name: "a property every branch defines the same way is lifted out",
		build: func(t *testing.T, c *Collector) {
			c.Group([]string{"_oneOf"}, "oneOf", entry)
			c.Branch([]string{"_oneOf", "0"}, 0, nil, entry)
			prop(t, c, "_oneOf/0/type", `{"type": "string"}`, nil)
			prop(t, c, "_oneOf/0/radius", `{"type": "number"}`, nil)
			c.Branch([]string{"_oneOf", "1"}, 1, nil, entry)
			prop(t, c, "_oneOf/1/type", `{"type": "string"}`, nil)
			prop(t, c, "_oneOf/1/side", `{"type": "number"}`, nil)
		},
		want: []string{"_oneOf", "_oneOf/0(a)", "_oneOf/0/radius", "_oneOf/1(b)", "_oneOf/1/side", "type"},
	}, {
		name: "branches left empty go, and so does their group",
		build: func(t *testing.T, c *Collector) {
			prop(t, c, "kind", `{"type": "string"}`, nil)
			c.Group([]string{"_anyOf"}, "anyOf", entry)
			c.Branch([]string{"_anyOf", "0"}, 0, nil, entry)
			prop(t, c, "_anyOf/0/id", `{"type": "string"}`, "http://x/id")
			c.Branch([]string{"_anyOf", "1"}, 1, nil, entry)
			prop(t, c, "_anyOf/1/id", `{"type": "string"}`, "http://x/id")
		},
		want: []string{"kind", "id"},
	}, {
		name: "one branch left: its properties take its place",
		build: func(t *testing.T, c *Collector) {
			c.Group([]string{"_anyOf"}, "anyOf", entry)
			c.Branch([]string{"_anyOf", "0"}, 0, nil, entry)
			prop(t, c, "_anyOf/0/id", `{"type": "string"}`, nil)
			prop(t, c, "_anyOf/0/extra", `{"type": "object"}`, nil)
			prop(t, c, "_anyOf/0/extra/x", `{"type": "string"}`, nil)
			c.Branch([]string{"_anyOf", "1"}, 1, nil, entry)
			prop(t, c, "_anyOf/1/id", `{"type": "string"}`, nil)
		},
		// id is lifted first; the sole branch's own are then moved in the
		// order of the tool chain's stack: the last child first.
		want: []string{"id", "extra", "extra/x"},
	}, {
		name: "a property defined otherwise in a branch stays in the branches",
		build: func(t *testing.T, c *Collector) {
			c.Group([]string{"_oneOf"}, "oneOf", entry)
			c.Branch([]string{"_oneOf", "0"}, 0, "Circle", entry)
			prop(t, c, "_oneOf/0/size", `{"type": "number"}`, nil)
			c.Branch([]string{"_oneOf", "1"}, 1, nil, entry)
			prop(t, c, "_oneOf/1/size", `{"type": "string"}`, nil)
		},
		want: []string{"_oneOf", "_oneOf/0(Circle)", "_oneOf/0/size", "_oneOf/1(b)", "_oneOf/1/size"},
	}, {
		name: "branches relabelled after one goes",
		build: func(t *testing.T, c *Collector) {
			c.Group([]string{"_anyOf"}, "anyOf", entry)
			c.Branch([]string{"_anyOf", "0"}, 0, nil, entry)
			prop(t, c, "_anyOf/0/a", `{}`, nil)
			c.Branch([]string{"_anyOf", "1"}, 1, nil, entry)
			c.Branch([]string{"_anyOf", "2"}, 2, nil, entry)
			prop(t, c, "_anyOf/2/c", `{}`, nil)
		},
		want: []string{"_anyOf", "_anyOf/0(a)", "_anyOf/0/a", "_anyOf/2(b)", "_anyOf/2/c"},
	}, {
		name: "a subtree met again through the same reference becomes a definition",
		build: func(t *testing.T, c *Collector) {
			prop(t, c, "owner", `{}`, "http://x/owner")
			prop(t, c, "owner/phone", `{"type": "string"}`, "http://x/phone")
			prop(t, c, "owner/name", `{"type": "string"}`, "http://x/name")
			prop(t, c, "seller", `{}`, "http://x/seller")
			c.Reuse([]string{"owner"}, []string{"seller"}, "/agent.yaml#None")
		},
		want: []string{"owner->0", "seller->0"},
		// Entries sorted by path.
		defs: map[string][]string{"0": {"name", "phone"}},
	}, {
		name: "a reuse whose target left nothing makes no definition",
		build: func(t *testing.T, c *Collector) {
			prop(t, c, "a", `{}`, nil)
			prop(t, c, "b", `{}`, nil)
			c.Reuse([]string{"a"}, []string{"b"}, "k")
		},
		want: []string{"a", "b"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Collector{}
			tt.build(t, c)
			data, err := c.Resolve().JSON("x.a")
			if err != nil {
				t.Fatal(err)
			}
			got, defs := paths(t, data)
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("properties:\n got %q\nwant %q", got, tt.want)
			}
			if tt.defs == nil {
				tt.defs = map[string][]string{}
			}
			if fmt.Sprint(defs) != fmt.Sprint(tt.defs) {
				t.Errorf("defs: got %v, want %v", defs, tt.defs)
			}
		})
	}
}

// TestMerge checks how two occurrences of a path merge: what one lacks
// comes from the other, types and enum values are those both allow.
func TestMerge(t *testing.T) {
	c := &Collector{}
	prop(t, c, "v", `{"type": ["string", "number"], "enum": ["a", "b", 1]}`, nil)
	prop(t, c, "v", `{"type": ["number", "null"], "enum": [1, "b"], "title": "V", "readOnly": true}`, "http://x/v")
	var doc map[string]any
	data, err := c.Resolve().JSON("x.a")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := `[map[effectiveId:http://x/v enum:[b 1] id:http://x/v path:[v] read_only:true schema_type:number sources:[bblocks://x.a] title:V]]`
	if got := fmt.Sprint(doc["properties"]); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestJSON checks the members written and how: None, false and empty
// lists left out but for const; the @vocab's IRI as effectiveId; sources
// elsewhere than the entry document left out; compact, non-ASCII escaped.
func TestJSON(t *testing.T) {
	c := &Collector{}
	p := Property{Path: []string{"flag"}, Schema: schema(t, `{"const": false, "title": "", "description": "é 😀", "enum": []}`),
		Vocab: "https://v/", Source: Source{Loc: "https://elsewhere/schema.yaml"}}
	c.Visit(p.Path, p.Source, false)
	c.Property(p)
	want := `{"defs":{},"properties":[{"path":["flag"],"vocab":"https://v/","title":"","description":"\u00e9 \ud83d\ude00","const":false,"effectiveId":"https://v/flag"}]}`
	if got, err := c.Resolve().JSON("x.a"); err != nil || string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !(&Collector{}).Resolve().Empty() {
		t.Error("nothing recorded, yet not empty")
	}
}

// TestTraces checks _visited_properties.tsv (CRLF lines, a field quoted
// when it holds a tab) and _unbound_local_properties.tsv (the entry
// document's properties nothing binds).
func TestTraces(t *testing.T) {
	c := &Collector{}
	prop(t, c, "a", `{}`, "http://x/a")
	prop(t, c, "b", `{}`, nil)
	prop(t, c, "b/c", `{}`, nil)
	other := Source{Loc: "/_sources/x\ty.yaml"}
	c.Visit([]string{"d"}, other, false)
	c.Property(Property{Path: []string{"d"}, Schema: schema(t, `{}`), Source: other})
	loc := func(s Source) string { return "/w" + s.Loc }
	want := "path\t@id\tschema\r\n/a\thttp://x/a\t/w/build/annotated/a/schema.yaml\r\n/b\t\t/w/build/annotated/a/schema.yaml\r\n" +
		"/b/c\t\t/w/build/annotated/a/schema.yaml\r\n/d\t\t\"/w/_sources/x\ty.yaml\"\r\n"
	if got := string(c.Visited(loc)); got != want {
		t.Errorf("visited:\n got %q\nwant %q", got, want)
	}
	if got, want := string(c.Unbound()), "path\n/b\n/b/c\n"; got != want {
		t.Errorf("unbound: got %q, want %q", got, want)
	}
}

func ExampleCollector_Resolve() {
	// What package context tells a Collector while it builds the context
	// of a schema with an anyOf of two branches that share "type".
	src := Source{Loc: "/build/annotated/shape/schema.yaml", Entry: true}
	c := &Collector{}
	c.Group([]string{"_anyOf"}, "anyOf", src)
	for i, name := range []string{"radius", "side"} {
		branch := []string{"_anyOf", fmt.Sprint(i)}
		c.Branch(branch, i, nil, src)
		for _, p := range []string{"type", name} {
			path := append(branch[:2:2], p)
			s := ojson.NewObject()
			s.Set("type", "string")
			c.Visit(path, src, true)
			c.Property(Property{Path: path, Schema: s, Source: src})
		}
	}
	data, err := c.Resolve().JSON("ex.shape")
	if err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%s\n", data)
	// Output:
	// {"defs":{},"properties":[{"path":["_anyOf"],"sources":["bblocks://ex.shape"],"keyword":"anyOf"},{"path":["_anyOf","0"],"title":"a","sources":["bblocks://ex.shape"],"keyword":"branch"},{"path":["_anyOf","0","radius"],"schema_type":"string","sources":["bblocks://ex.shape"]},{"path":["_anyOf","1"],"title":"b","sources":["bblocks://ex.shape"],"keyword":"branch"},{"path":["_anyOf","1","side"],"schema_type":"string","sources":["bblocks://ex.shape"]},{"path":["type"],"schema_type":"string","sources":["bblocks://ex.shape"]}]}
}
