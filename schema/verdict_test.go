package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// verdicts returns whether each line of log is valid against the schema
// text, checked twice: as validate checks a log (params and result left
// undecoded when the schema has plans, which check messages first,
// jsonschema when a plan does not find a message valid) and with every
// message decoded and given to jsonschema alone.
func verdicts(t *testing.T, schemaText, log string) (plans, plain []bool) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, []byte(schemaText), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewChecker(s, "")
	r, err := rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(log, "\n")
	plans = make([]bool, lines)
	for i := range plans {
		plans[i] = true
	}
	if _, err := ValidateLog(r, c, "log.jsonl", func(f Finding) {
		if f.Severity == diag.Error {
			plans[f.Line-1] = false
		}
	}); err != nil {
		t.Fatal(err)
	}
	r, _ = rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
	alone, _ := NewChecker(s, "")
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err != nil {
			break
		}
		_, ds := alone.Check(rec.Value, rec.Dir, i)
		plain = append(plain, !diag.HasErrors(ds))
	}
	return plans, plain
}

// TestDuplicateMembersLastWins (issue 23, item 11): where an object names a
// member twice, the last one is the member, for the plans as for the
// decoder, under not, oneOf and if as anywhere: each message has the
// verdict of the same message without the first of the two members, with
// plans and without.
func TestDuplicateMembersLastWins(t *testing.T) {
	isString := `{"properties":{"params":{"properties":{"a":{"type":"string"}}}}}`
	schemas := []string{
		`{"not":` + isString + `}`,
		`{"oneOf":[` + isString + `,true]}`,
		`{"if":` + isString + `,"then":false}`,
		`{"anyOf":[{"not":` + isString + `},{"required":["id"],"properties":{"id":{"const":2}}}]}`,
	}
	pairs := [][2]string{ // with a member twice, and without the first one
		{`{"a":1,"a":"x"}`, `{"a":"x"}`},
		{`{"a":"x","a":1}`, `{"a":1}`},
		{`{"a":1,"b":[],"\u0061":"x"}`, `{"b":[],"a":"x"}`},
		{`{"a":"x","a":1,"a":"y"}`, `{"a":"y"}`},
	}
	var log strings.Builder
	for i, p := range pairs {
		for _, params := range p {
			fmt.Fprintf(&log, `{"jsonrpc":"2.0","method":"m","params":%s,"id":%d}`+"\n", params, i)
		}
	}
	for _, s := range schemas {
		plans, plain := verdicts(t, s, log.String())
		for i, p := range pairs {
			twice, once := 2*i, 2*i+1
			if plans[twice] != plain[once] || plain[twice] != plain[once] || plans[once] != plain[once] {
				t.Errorf("%s: params %s: valid %v with plans, %v without; without the first member: %v and %v",
					s, p[0], plans[twice], plain[twice], plans[once], plain[once])
			}
		}
	}
	// The case, as ajv and python-jsonschema judge it.
	plans, plain := verdicts(t, schemas[0], `{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":"x"},"id":1}`+"\n")
	if plans[0] || plain[0] {
		t.Errorf("issue's message: valid %v with plans, %v without; want invalid", plans[0], plain[0])
	}
}

// TestRefHidesSiblings (issue 23, item 14): before 2019-09, the members
// beside "$ref" are ignored (draft-07, section 8.3). Under not, a message
// that the referenced schema accepts is invalid whatever they say, with
// plans and without; and the plan compiled from what jsonschema compiles,
// before jrpcld corrects it, ignores them too. In 2019-09 and later they
// apply.
func TestRefHidesSiblings(t *testing.T) {
	siblings := []string{
		`"const":"a"`, `"enum":["a"]`, `"type":"string"`, `"contains":{}`, `"if":true,"then":false`,
		`"minProperties":10`, `"required":["zz"]`, `"properties":{"method":false}`,
		`"additionalProperties":false`, `"not":{}`, `"allOf":[false]`, `"anyOf":[false]`, `"oneOf":[false]`,
		`"propertyNames":{"maxLength":1}`, `"dependencies":{"method":["zz"]}`, `"maxProperties":1`,
	}
	msg := `{"jsonrpc":"2.0","method":"m","id":1}` + "\n"
	for _, draft := range []string{"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"} {
		for _, sib := range siblings {
			text := `{"$schema":"` + draft + `","not":{"$ref":"#/definitions/d",` + sib + `},"definitions":{"d":{"type":"object"}}}`
			// Later drafts apply the sibling, which fails the message
			// (contains applies to arrays only).
			want := !strings.Contains(draft, "draft-07") && !strings.HasPrefix(sib, `"contains"`)
			plans, plain := verdicts(t, text, msg)
			if plans[0] != want || plain[0] != want {
				t.Errorf("%s: valid %v with plans, %v without; want %v", text, plans[0], plain[0], want)
			}
			// The plan alone, of the schema as jsonschema compiles it.
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("mem:///s.json", doc); err != nil {
				t.Fatal(err)
			}
			sch, err := c.Compile("mem:///s.json")
			if err != nil {
				t.Fatal(err)
			}
			n, err := planOf(sch)
			if err != nil {
				continue // propertyNames and unevaluated keywords have no plan
			}
			var e evaluator
			if got := e.run(n, []byte(strings.TrimSpace(msg))); got == unsure || (got == valid) != want {
				t.Errorf("%s: plan of jsonschema's compilation: %v, want valid %v", text, got, want)
			}
		}
	}
	// The case, through Validate (jsonschema alone).
	file := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(file, []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","not":{"$ref":"#/definitions/d","const":"a"},"definitions":{"d":{"type":"object"}}}`), 0o644)
	s, err := CompileFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if probs := s.Validate(map[string]any{}); len(probs) != 1 {
		t.Errorf("{}: %v, want one problem (not)", probs)
	}
}

// TestPatterns (issue 23, item 15): patterns are ECMA-262, as ajv reads
// them (with the "u" flag), with plans and without: \s matches U+00A0 and
// the other Unicode spaces, lookaheads compile, \d and \w are ASCII.
func TestPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		valid   map[string]bool // value (JSON text) -> valid
	}{
		{`^\s$`, map[string]bool{`"\u00a0"`: true, `"\ufeff"`: true, `"\u2028"`: true, `"\u3000"`: true, `" "`: true, `"x"`: false, `"\u200b"`: false}},
		{`^(?!x)`, map[string]bool{`"y"`: true, `""`: true, `"x"`: false, `"xy"`: false}},
		{`^\d+$`, map[string]bool{`"42"`: true, `"٣"`: false, `"４"`: false}},
		{`^\w+$`, map[string]bool{`"a_1"`: true, `"é"`: false}},
		{`^(?<y>\d{4})-\k<y>$`, map[string]bool{`"2024-2024"`: true, `"2024-2025"`: false}},
		{`^[\u{1F600}-\u{1F64F}]$`, map[string]bool{`"😀"`: true, `"a"`: false}},
		{`^.$`, map[string]bool{`"😀"`: true, `"\n"`: false}},
		{`(?<=a)b`, map[string]bool{`"ab"`: true, `"cb"`: false}},
	}
	for _, tt := range tests {
		quoted, _ := json.Marshal(tt.pattern)
		for _, where := range []string{
			`{"properties":{"params":{"items":{"pattern":%s}}}}`,
			`{"properties":{"params":{"items":{"patternProperties":{%s:{"const":1}},"additionalProperties":false}}}}`,
		} {
			schema := fmt.Sprintf(where, quoted)
			var log strings.Builder
			var values []string
			for v := range tt.valid {
				values = append(values, v)
				value := v
				if strings.Contains(where, "patternProperties") {
					value = `{` + v + `:1}`
				}
				fmt.Fprintf(&log, `{"jsonrpc":"2.0","method":"m","params":[%s],"id":1}`+"\n", value)
			}
			plans, plain := verdicts(t, schema, log.String())
			for i, v := range values {
				if plans[i] != tt.valid[v] || plain[i] != tt.valid[v] {
					t.Errorf("%s: %s: valid %v with plans, %v without, want %v", schema, v, plans[i], plain[i], tt.valid[v])
				}
			}
		}
	}
}

// TestPatternTimeout (issue 23, item 15): a match that runs past
// MatchTimeout is a problem "could not be checked" naming the pattern and
// the value's pointer, with plans and without, in a value as in a member
// name, and the log goes on.
func TestPatternTimeout(t *testing.T) {
	evil := strings.Repeat("a", 40) + "!"
	for _, tt := range []struct{ schema, params, ptr, valid string }{
		{`{"properties":{"params":{"items":{"pattern":"^(a+)+$"}}}}`, `["aa","` + evil + `"]`, "/params/1", `["aaa"]`},
		{`{"properties":{"params":{"patternProperties":{"^(a|aa)+$":true}}}}`, `{"` + evil + `":1}`, "/params/" + evil, `{"aaa":1}`},
		{`{"properties":{"params":{"not":{"items":{"pattern":"^(a+)+$"}}}}}`, `["` + evil + `"]`, "/params/0", `["b"]`},
	} {
		file := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(file, []byte(tt.schema), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := CompileFile(file)
		if err != nil {
			t.Fatal(err)
		}
		log := `{"jsonrpc":"2.0","method":"m","params":` + tt.params + `,"id":1}` + "\n" +
			`{"jsonrpc":"2.0","method":"m","params":` + tt.valid + `,"id":2}` + "\n"
		var findings []Finding
		r, _ := rpclog.NewReader(strings.NewReader(log), "log.jsonl", rpclog.ReaderOptions{})
		c, _ := NewChecker(s, "")
		sum, err := ValidateLog(r, c, "log.jsonl", func(f Finding) { findings = append(findings, f) })
		if err != nil {
			t.Fatal(err)
		}
		c, _ = NewChecker(s, "")
		_, alone := c.Check(decode(t, strings.SplitN(log, "\n", 2)[0]), jsonrpc.NoDirection, 0)
		for i, probs := range [][]diag.Diagnostic{{}, alone} {
			if i == 0 {
				for _, f := range findings {
					probs = append(probs, f.Diagnostic)
				}
			}
			if len(probs) != 1 || probs[0].Pointer != tt.ptr || !strings.Contains(probs[0].Message, "could not be checked: the pattern") ||
				!strings.Contains(probs[0].Message, "did not complete within 1s") {
				t.Errorf("%s (plans %v): %v, want one problem at %s", tt.schema, i == 0, probs, tt.ptr)
			}
		}
		if sum.Messages != 2 || sum.Valid != 1 {
			t.Errorf("%s: %+v, want the second message checked, valid", tt.schema, sum)
		}
	}
}
