package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/schema/internal/bignum"
)

// planCases are schemas that use every keyword plans implement, in
// draft-07 and 2020-12, each with values on both sides of its rules. They
// seed FuzzPlan and run in TestPlanCases.
var planCases = []struct {
	schema string
	values []string
}{
	{`{"type":"object","required":["a","b"],"properties":{"a":{"type":"integer"},"b":{"const":"x"}},"additionalProperties":false}`,
		[]string{`{"a":1,"b":"x"}`, `{"a":1.0,"b":"x"}`, `{"a":1.5,"b":"x"}`, `{"a":1}`, `{"a":1,"b":"x","c":2}`, `{"a":1,"b":"\u0078"}`, `{"a":1e2,"b":"x"}`, `[]`, `"x"`}},
	{`{"type":["string","null"],"minLength":2,"maxLength":3,"pattern":"^a"}`,
		[]string{`"ab"`, `"a"`, `"abcd"`, `"ba"`, `null`, `"aé"`, `"a\u00e9"`, `"a🎉"`, `1`}},
	{`{"enum":[1,"1",null,{"a":[1,2]},[true]]}`,
		[]string{`1`, `1.0`, `10e-1`, `"1"`, `null`, `{"a":[1,2]}`, `{"a":[1.0,2]}`, `{"a":[2,1]}`, `[true]`, `[false]`, `2`}},
	{`{"minimum":1,"exclusiveMaximum":10,"multipleOf":0.5}`,
		[]string{`1`, `0.5`, `9.5`, `10`, `1.25`, `1e1`, `-0`, `"5"`, `99999999999999999999999`}},
	{`{"anyOf":[{"type":"string"},{"type":"object","required":["k"]}],"not":{"const":"no"}}`,
		[]string{`"s"`, `"no"`, `{"k":0}`, `{}`, `5`}},
	{`{"oneOf":[{"type":"integer"},{"minimum":2}]}`, []string{`1`, `3`, `2.5`, `"x"`}},
	{`{"if":{"properties":{"t":{"const":"a"}}},"then":{"required":["x"]},"else":{"required":["y"]}}`,
		[]string{`{"t":"a","x":1}`, `{"t":"a","y":1}`, `{"t":"b","y":1}`, `{"t":"b"}`, `[]`}},
	{`{"allOf":[{"$ref":"#/$defs/pos"},{"maximum":5}],"$defs":{"pos":{"exclusiveMinimum":0}}}`, []string{`1`, `0`, `6`, `5`}},
	{`{"patternProperties":{"^x-":{"type":"string"},"y$":{"type":"integer"}},"additionalProperties":{"type":"boolean"}}`,
		[]string{`{"x-a":"s","by":1,"z":true}`, `{"x-y":"s"}`, `{"x-y":1}`, `{"z":1}`, `{"\u0078-a":"s"}`}},
	{`{"minProperties":1,"maxProperties":2,"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"required":["d"]}}}`,
		[]string{`{"a":1,"b":2}`, `{"a":1}`, `{}`, `{"c":1,"d":2}`, `{"c":1}`, `{"a":1,"a":2}`, `{"x":1,"y":2,"z":3}`}},
	{`{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"},"minItems":1,"maxItems":3,"contains":{"const":true},"maxContains":1}`,
		[]string{`["a",1,true]`, `["a",1]`, `["a",1,true,true]`, `[]`, `[1]`, `["a","b",true]`, `["a",1,false]`}},
	{`{"contains":{"type":"integer"},"minContains":2}`, []string{`[1,2]`, `[1,"a"]`, `[]`, `{}`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"$ref":"#/definitions/s","minLength":5}`,
		[]string{`"ab"`, `1`, `"abcdef"`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","not":{"$ref":"#/definitions/d","const":"a","contains":{},"if":true,"then":false},"definitions":{"d":{"type":"object"}}}`,
		[]string{`{}`, `"a"`, `1`, `[]`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false,"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
		[]string{`["a"]`, `["a",1]`, `[1]`, `{"a":1}`, `{"a":1,"b":1}`, `{"c":1}`, `{"c":1,"d":1}`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","additionalItems":{"type":"integer"},"format":"uri","properties":{"u":{"format":"uri"}}}`,
		[]string{`[1,2]`, `[1,"a"]`, `"http://x"`, `"x"`, `{"u":"rel"}`, `{"u":"http://x/"}`}},
	{`{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"integer"}}}}}`,
		[]string{`{"v":1,"next":{"v":2,"next":{}}}`, `{"next":{"next":{"v":"x"}}}`}},
	{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, []string{`1`}},
	{`{"properties":{"ab":{"properties":{"é":{"const":"è"}}}},"patternProperties":{"^ab$":{"required":["z"]}}}`,
		[]string{`{"\u0061b":{"\u00e9":"\u00e8"}}`, `{"\u0061b":{"\u00e9":"\u00e8","z":0}}`, `{"a\u0062":{"é":"e"}}`, `{"ab":{"x":"\u00e8"}}`}},
	// A property name that holds a backslash, which the text escapes.
	{`{"properties":{"a\\b":{"type":"integer"},"c":{"type":"string"}},"required":["a\\b"],"additionalProperties":false}`,
		[]string{`{"a\\b":1}`, `{"a\\b":"x"}`, `{"a\b":1}`, `{"c":"s"}`, `{"a\u005cb":1,"c":"s"}`, `{"ab":1}`}},
	// Many properties (looked up by a map), and a required name
	// that is no property.
	{`{"properties":{"p0":{"type":"integer"},"p1":{},"p2":{},"p3":{"type":"integer"},"p4":{},"p5":{},"p6":{},"p7":{},"p8":{},"p9":{},"p10":{},"p11":{},"p12":{},"p13":{"type":"integer"}},"required":["p3","p13","q"]}`,
		[]string{`{"p3":1,"p13":2,"q":0}`, `{"p3":1,"p13":2}`, `{"p3":"x","p13":2,"q":1}`, `{"p\u0033":1,"p13":2,"q":0}`, `{"p13":2,"q":0}`, `{"p3":1,"p1\u0033":"x","q":0}`}},
	{`{"properties":{"a":{"type":"integer"}},"required":["q","a"]}`,
		[]string{`{"a":1,"q":0}`, `{"a":1}`, `{"\u0071":1,"a":2}`, `{"q":1}`}},
	{`true`, []string{`1`, `{}`}},
	{`false`, []string{`1`, `null`}},
	{`{"properties":{"a":false,"b":true}}`, []string{`{"a":1}`, `{"b":1}`, `{}`}},
}

// compileText compiles a schema from its text, loading nothing.
func compileText(text string, formats bool) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	c := newEngine(formats)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile("mem:///s.json")
	if err != nil {
		return nil, err
	}
	settle(sch, map[*jsonschema.Schema]bool{})
	return sch, nil
}

type refuseLoader struct{}

func (refuseLoader) Load(string) (any, error) { return nil, errors.New("no loading in tests") }

// samePlanVerdict checks the plan of sch on the value text against
// jsonschema's verdict: a plan may be unsure, never wrong, also where an
// object names a member twice (jsonschema sees the last one alone).
func samePlanVerdict(t *testing.T, what string, sch *jsonschema.Schema, n *node, text []byte) verdict {
	t.Helper()
	p := jsonparse.Parser{MaxDepth: 10000, LoneSurrogates: true}
	v, perr := p.Parse(text)
	if perr != nil {
		t.Fatalf("%s: %s: %v", what, text, perr)
	}
	var e evaluator
	got := e.run(n, bytes.TrimSpace(text))
	if nums := bignum.Needed(sch, v, matchPattern); len(nums) > 0 {
		// jsonschema must not see numbers too big to compute with where
		// it may need them. A plan that is sure did not need their
		// values: with other numbers in their place, jsonschema says
		// what the plan says.
		if got != unsure {
			for _, stand := range []json.Number{"7", "0.5"} {
				_, crashed, err := runValidate(sch, replaceBig(v, stand))
				if !crashed && (err == nil) != (got == valid) {
					t.Errorf("%s: %s: plan says %v, jsonschema valid %v with %s for each number too big", what, text, got, err == nil, stand)
				}
			}
		}
	} else {
		perr, crashed, err := runValidate(sch, v)
		want := err == nil
		switch {
		case perr != nil:
			// A pattern ran out of time: no verdict to hold the plan to.
		case crashed:
			t.Errorf("%s: %s: jsonschema crashed", what, text)
		case got == valid && !want || got == invalid && want:
			t.Errorf("%s: %s: plan says %v, jsonschema valid %v", what, text, got, want)
		}
	}
	// Knowing the extents a log reader notes (the members of an object
	// left undecoded), the plan says the same.
	if obj, ok := v.(map[string]any); ok {
		lp := jsonparse.Parser{MaxDepth: 10000, Lazy: slices.Collect(maps.Keys(obj)), Lens: make([]uint16, len(text)), LoneSurrogates: true}
		if _, perr := lp.Parse(text); perr != nil {
			t.Fatalf("%s: %s: lazily: %v", what, text, perr)
		}
		raw, lead := trimSpace(text)
		e := evaluator{idx: index{text: raw, lens: lp.Lens[lead : lead+len(raw)]}}
		if again := e.run(n, raw); again != got {
			t.Errorf("%s: %s: plan says %v knowing extents, %v without", what, text, again, got)
		}
	}
	return got
}

// replaceBig returns v with n in place of every number too big to compute
// with.
func replaceBig(v any, n json.Number) any {
	switch x := v.(type) {
	case json.Number:
		if bignum.TooBig(string(x)) {
			return n
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = replaceBig(e, n)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = replaceBig(e, n)
		}
		return out
	}
	return v
}

func (v verdict) String() string { return [...]string{"valid", "invalid", "unsure"}[v] }

// TestPlanCases: on the hand-written cases, plans agree with jsonschema,
// and are sure of every case but the cycle of references and a member
// named twice.
func TestPlanCases(t *testing.T) {
	for i, c := range planCases {
		for _, formats := range []bool{false, true} {
			sch, err := compileText(c.schema, formats)
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			n, err := planOf(sch)
			if err != nil {
				t.Fatalf("case %d: no plan: %v", i, err)
			}
			for _, v := range c.values {
				// Only a member named twice, and the cycle of references,
				// leave a plan unsure.
				if samePlanVerdict(t, c.schema, sch, n, []byte(v)) == unsure && !strings.Contains(c.schema, `"b":{"$ref":"#/$defs/a"}`) && v != `{"a":1,"a":2}` {
					t.Errorf("%s: %s: unsure", c.schema, v)
				}
			}
		}
	}
}

// TestUnplanned: a schema with a keyword plans do not implement gets none.
func TestUnplanned(t *testing.T) {
	for _, s := range []string{
		`{"unevaluatedProperties":false}`,
		`{"properties":{"a":{"uniqueItems":true}}}`,
		`{"propertyNames":{"maxLength":3}}`,
		`{"$dynamicRef":"#x","$defs":{"x":{"$dynamicAnchor":"x"}}}`,
	} {
		sch, err := compileText(s, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := planOf(sch); !errors.Is(err, errUnplanned) {
			t.Errorf("%s: plan %v", s, err)
		}
	}
}

// FuzzPlan: for any schema jsonschema compiles (loading nothing) and any
// value, a plan that is sure agrees with jsonschema.
func FuzzPlan(f *testing.F) {
	for _, c := range planCases {
		for _, v := range c.values {
			f.Add(c.schema, v, false)
		}
	}
	f.Add(`{"type":"object","properties":{"content":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/t"},{"$ref":"#/$defs/i"}]}}},"$defs":{"t":{"type":"object","properties":{"type":{"const":"text"},"text":{"type":"string"}},"required":["type","text"]},"i":{"type":"object","properties":{"type":{"const":"image"},"data":{"type":"string","format":"byte"}},"required":["type","data"]}}}`,
		`{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AA=="}]}`, true)
	// A member named twice, under not, oneOf and if (issue 23, item 11).
	for _, s := range []string{
		`{"not":{"properties":{"params":{"properties":{"a":{"type":"string"}}}}}}`,
		`{"oneOf":[{"properties":{"a":{"type":"string"}}},true]}`,
		`{"if":{"properties":{"a":{"type":"string"}}},"then":false}`,
	} {
		f.Add(s, `{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":"x"},"id":1}`, false)
		f.Add(s, `{"a":1,"a":"x"}`, false)
		f.Add(s, `{"a":"x","b":{"a":1,"a":2},"a":1}`, false)
	}
	// Numbers too big to compute with, and ECMA-262 patterns (issue 23,
	// items 12, 13 and 15).
	for _, c := range []struct{ schema, value string }{
		{`{"minimum":0}`, `1E1001`},
		{`{"anyOf":[{"type":"number"},{"minimum":0}]}`, `1E1000001`},
		{`{"if":{"type":"string"},"then":{"multipleOf":2},"else":{"type":"integer"}}`, `[1E999999]`},
		{`{"items":{"const":1}}`, `[1e-1001,1]`},
		{`{"enum":[[1,2]]}`, `[1,1E1001]`},
		{`{"type":"integer"}`, `100000000000000000000000000000000000000000000000000000000e-1001`},
		{`{"pattern":"^\s$"}`, `" "`},
		{`{"pattern":"^(?!x)"}`, `"x"`},
		{`{"patternProperties":{"^(?=a)\w+$":{"type":"string"}}}`, `{"ab":1,"b":1}`},
		{`{"not":{"pattern":"^(a+)+$"}}`, `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"`},
	} {
		f.Add(c.schema, c.value, false)
	}
	// Lone surrogate escapes, which the log reader reads as U+FFFD
	// (issue 23, item 8).
	for _, c := range []struct{ schema, value string }{
		{`{"const":"\ufffd"}`, `"\ud800"`},
		{`{"enum":["a\ufffd"]}`, `"a\udc00"`},
		{`{"pattern":"^.$","maxLength":1}`, `"\udbff"`},
		{`{"uniqueItems":true}`, `["\ud800","\ufffd"]`},
		{`{"propertyNames":{"const":"\ufffd"},"required":["\ufffd"]}`, `{"\udfff":1}`},
		{`{"properties":{"\ufffd":{"type":"string"}}}`, `{"\ud800":1,"\udc00":"x"}`},
		{`{"not":{"properties":{"params":{"properties":{"a":{"format":"uri"}}}}}}`, `{"params":{"a":"http://x/\ud800"}}`},
	} {
		f.Add(c.schema, c.value, false)
		f.Add(c.schema, c.value, true)
	}
	f.Fuzz(func(t *testing.T, schemaText, value string, formats bool) {
		if !json.Valid([]byte(value)) {
			return
		}
		sch, err := compileText(schemaText, formats)
		if err != nil {
			return
		}
		n, err := planOf(sch)
		if err != nil {
			return
		}
		p := jsonparse.Parser{MaxDepth: 10000, LoneSurrogates: true}
		if _, perr := p.Parse([]byte(value)); perr != nil {
			return // not JSON the log reader takes (invalid UTF-8, ...)
		}
		samePlanVerdict(t, schemaText, sch, n, []byte(value))
	})
}

// TestPlanCorpus: every definition of the official MCP schemas, and the
// JSON-RPC block's schema, has a plan, and on every corpus message (and its
// params and result) it agrees with jsonschema, sure of each.
func TestPlanCorpus(t *testing.T) {
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	files, _ := filepath.Glob(filepath.Join(corpus, "*-stdio.jsonl"))
	var texts [][]byte
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			texts = append(texts, append([]byte(nil), line...))
			for _, k := range []string{"params", "result"} {
				if m := (&index{}).member(line, k); m != nil {
					texts = append(texts, append([]byte(nil), m...))
				}
			}
		}
		f.Close()
	}
	if len(texts) < 150 {
		t.Fatalf("%d texts from the corpus", len(texts))
	}
	schemas := map[string]string{"jsonrpc": "../bblock/jsonrpc/schema.yaml"}
	for _, v := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		schemas[v] = shared.Dir(t, "reference", "mcp-schema", v, "schema.json")
	}
	for name, file := range schemas {
		t.Run(name, func(t *testing.T) {
			s, err := CompileFile(file)
			if err != nil {
				t.Fatal(err)
			}
			doc, _ := s.store.Doc(s.url)
			refs := []string{"#"}
			for _, k := range []string{"$defs", "definitions"} {
				defs, _ := doc.(map[string]any)[k].(map[string]any)
				for d := range defs {
					refs = append(refs, d)
				}
			}
			sort.Strings(refs)
			checked := 0
			for _, ref := range refs {
				sch, err := s.definition(ref)
				if err != nil {
					t.Fatal(err)
				}
				n := s.plan(sch)
				if n == nil {
					t.Errorf("%s: no plan", ref)
					continue
				}
				for _, text := range texts {
					if samePlanVerdict(t, name+" "+ref, sch, n, text) == unsure {
						t.Errorf("%s %s: %s: unsure", name, ref, text)
					}
					checked++
				}
			}
			t.Logf("%d definitions, %d verdicts", len(refs), checked)
		})
	}
}

// TestKnownValues: a value the log reader has measured (rpclog.Record.Lens,
// evaluator.idx) is jumped over by a plan that does not look inside it, and read by one
// that does. The known extent given here is deliberately too short, so the
// verdicts tell which way the plan went.
func TestKnownValues(t *testing.T) {
	text := []byte(`{"params":[1,"x"],"id":1}`)
	lens := make([]uint16, len(text))
	lens[10] = 4 // `[1,"` of `[1,"x"]`
	tests := []struct {
		schema string
		want   verdict // with the short extent known
	}{
		// Only the end of params matters: the jump lands inside it, where
		// no member name starts, and the plan gives up.
		{`{"properties":{"params":{"type":"array"}}}`, unsure},
		{`{"properties":{"params":true}}`, unsure},
		// The items are checked, so params is read whole.
		{`{"properties":{"params":{"items":{"type":["number","string"]}}}}`, valid},
		{`{"properties":{"params":{"minItems":2}}}`, valid},
	}
	for _, tt := range tests {
		sch, err := compileText(tt.schema, false)
		if err != nil {
			t.Fatal(err)
		}
		n, err := planOf(sch)
		if err != nil {
			t.Fatalf("%s: no plan: %v", tt.schema, err)
		}
		e := evaluator{idx: index{text: text, lens: lens}}
		if got := e.run(n, text); got != tt.want {
			t.Errorf("%s: %v with a known extent, want %v", tt.schema, got, tt.want)
		}
		if got := samePlanVerdict(t, tt.schema, sch, n, text); got != valid && tt.want != invalid {
			t.Errorf("%s: %v without, want valid", tt.schema, got)
		}
	}
}
