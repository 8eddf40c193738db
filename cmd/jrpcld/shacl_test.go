package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

const jsonrpcShapes = "../../examples/shapes/jsonrpc.ttl"

// TestSHACLSession: the example session fails the JSON-RPC shapes only
// by its unanswered ping, in each report format, and whatever form its
// graph is given in (the log, or the graph jrpcld rdf writes of it).
func TestSHACLSession(t *testing.T) {
	session := "../../examples/session.jsonl"
	dir := t.TempDir()
	var inputs []string
	for _, f := range []string{"turtle", "ntriples", "jsonld"} {
		ext := map[string]string{"turtle": ".ttl", "ntriples": ".nt", "jsonld": ".jsonld"}[f]
		out := filepath.Join(dir, "session"+ext)
		if code, _, errOut := jrpcld(t, "", "rdf", "-q", "--format", f, "--base", "file://"+filepath.Join(dir, "session.jsonl"), "-o", out, session); code != cli.ExitOK {
			t.Fatalf("rdf %s: exit %d: %s", f, code, errOut)
		}
		inputs = append(inputs, out)
	}
	for _, in := range append([]string{session}, inputs...) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			code, out, errOut := jrpcld(t, "", "shacl", "--shapes", jsonrpcShapes, in)
			if code != cli.ExitInvalid || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			for _, want := range []string{"Conforms: false\nResults (1):\n", "Violation in MinCountConstraintComponent:",
				"session.jsonl#c2s-13>", "Message: the request is never answered"} {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %q:\n%s", want, out)
				}
			}
		})
	}

	// Turtle: the W3C report graph, read back by an independent parser.
	code, out, _ := jrpcld(t, "", "shacl", "--format", "turtle", "--shapes", jsonrpcShapes, session)
	ts := rdftest.Rapper(t, []byte(out), "")
	conforms, results := "", 0
	for _, tr := range ts {
		switch tr.P {
		case "http://www.w3.org/ns/shacl#conforms":
			conforms = tr.O.Value
		case "http://www.w3.org/ns/shacl#result":
			results++
		}
	}
	if code != cli.ExitInvalid || conforms != "false" || results != 1 {
		t.Errorf("turtle: exit %d, sh:conforms %q, %d results\n%s", code, conforms, results, out)
	}

	// JSON lines: one result, then the summary.
	code, out, _ = jrpcld(t, "", "shacl", "--format", "json", "--shapes", jsonrpcShapes, session)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res, sum map[string]any
	if code != cli.ExitInvalid || len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &res) != nil || json.Unmarshal([]byte(lines[1]), &sum) != nil {
		t.Fatalf("json: exit %d\n%s", code, out)
	}
	if res["resultPath"] != "^<https://jrpcld.github.io/ns/log#answers>" || !strings.HasSuffix(res["focusNode"].(string), "#c2s-13>") {
		t.Errorf("json result %v", res)
	}
	if s := sum["summary"].(map[string]any); s["conforms"] != false || s["results"] != 1.0 {
		t.Errorf("json summary %v", sum)
	}
}

// TestSHACLExamples: each shape of examples/shapes fires on a log made to
// break it, and on nothing else (docs/shacl.md lists what each checks).
func TestSHACLExamples(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "bad.jsonl")
	lines := []string{
		`{"dir":"c2s","ts":"2026-01-01T00:00:01Z","msg":{"jsonrpc":"2.0","id":1,"method":"rpc.secret"}}`,
		`{"dir":"s2c","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":1,"result":{}}}`,
		`{"dir":"c2s","ts":"2026-01-01T00:00:02Z","msg":{"jsonrpc":"2.0","id":2,"method":"a"}}`,
		`{"dir":"s2c","ts":"2026-01-01T00:00:03Z","msg":{"jsonrpc":"2.0","id":2,"error":{"code":-32650,"message":"odd"}}}`,
		`{"dir":"c2s","ts":"2026-01-01T00:00:04Z","msg":{"jsonrpc":"2.0","id":3,"method":"b"}}`,
		`{"dir":"s2c","ts":"2026-01-01T00:00:05Z","msg":{"jsonrpc":"2.0","id":3,"error":{"code":-32050,"message":""}}}`,
		`{"dir":"s2c","ts":"2026-01-01T00:00:06Z","msg":{"jsonrpc":"2.0","id":9,"result":{}}}`,
		`{"dir":"c2s","ts":"2026-01-01T00:00:07Z","msg":{"jsonrpc":"1.0","id":4,"method":"c"}}`,
	}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := jrpcld(t, "", "shacl", "--format", "json", "--shapes", jsonrpcShapes, log)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		json.Unmarshal([]byte(l), &m)
		if m["focusNode"] == nil {
			continue
		}
		focus := m["focusNode"].(string)
		focus = focus[strings.LastIndexByte(focus, '#')+1:]
		got = append(got, strings.TrimPrefix(m["resultSeverity"].(string), "http://www.w3.org/ns/shacl#")+" "+focus+" "+m["resultMessage"].(string))
	}
	slices.Sort(got)
	want := []string{
		"Violation c2s-8> the message is not a valid JSON-RPC 2.0 message (jrpcld validate says why)",
		"Violation c2s-8> the request is never answered", // the invalid message is typed a request too
		"Violation s2c-4> the error code is in the range JSON-RPC 2.0 reserves (-32768 to -32000) but is not one it defines (-32700, -32600, -32601, -32602, -32603) or leaves to servers (-32099 to -32000)",
		"Violation s2c-7> the response answers no request of the log (same id, sent the other way, earlier)",
		"Warning c2s-1> the method name is empty or starts with \"rpc.\", which JSON-RPC 2.0 reserves",
		"Warning s2c-2> the response is timestamped before its request",
		"Warning s2c-6> the error has no message",
	}
	if code != cli.ExitInvalid || !slices.Equal(got, want) {
		t.Errorf("exit %d; results:\n  %s\nwant:\n  %s\n%s", code, strings.Join(got, "\n  "), strings.Join(want, "\n  "), out)
	}
}

// TestSHACLMCP: the MCP shapes pass the example session, but for its
// unanswered ping (a JSON-RPC shape), with the MCP block.
func TestSHACLMCP(t *testing.T) {
	reg := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	code, out, _ := jrpcld(t, "", "shacl", "--format", "json", "--shapes", jsonrpcShapes, "--shapes", "../../examples/shapes/mcp.ttl",
		"--bblock", reg, "--id", "mcp.mcp", "../../examples/session.jsonl")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != cli.ExitInvalid || len(lines) != 2 || !strings.Contains(lines[0], "the request is never answered") {
		t.Errorf("exit %d\n%s", code, out)
	}
	// Without tools/list, the tool call breaks :ToolCall; without
	// initialize first, the session breaks :SessionStartsWithInitialize.
	log := filepath.Join(t.TempDir(), "call.jsonl")
	os.WriteFile(log, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`+"\n"), 0o644)
	code, out, _ = jrpcld(t, "", "shacl", "--format", "json", "--shapes", "../../examples/shapes/mcp.ttl", "--bblock", reg, "--id", "mcp.mcp", log)
	for _, want := range []string{"tools/call without a tool name", "the first message of the session is not the initialize request"} {
		if !strings.Contains(out, want) {
			t.Errorf("no result of %s: exit %d\n%s", want, code, out)
		}
	}
}

// TestSHACLUsage: mistakes are exit 2 with one clear line.
func TestSHACLUsage(t *testing.T) {
	dir := t.TempDir()
	sparql := filepath.Join(dir, "sparql.ttl")
	os.WriteFile(sparql, []byte(`@prefix sh: <http://www.w3.org/ns/shacl#> .
<#S> sh:targetNode <#a> ; sh:js [ sh:jsFunctionName "f" ] .`), 0o644)
	broken := filepath.Join(dir, "broken.ttl")
	os.WriteFile(broken, []byte("@prefix sh: <http://www.w3.org/ns/shacl#> .\n<#S> sh:minCount .\n"), 0o644)
	good := filepath.Join(dir, "data.ttl")
	os.WriteFile(good, []byte("<http://example.org/a> <http://example.org/p> 1 .\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{good}, "give the shapes with --shapes FILE"},
		{[]string{"--shapes", jsonrpcShapes, "--format", "xml", good}, `--format must be text, turtle or json, not "xml"`},
		{[]string{"--shapes", sparql, good}, "sparql.ttl: shape <file://" + sparql + "#S>: SHACL-JS constraints (sh:js): not supported"},
		{[]string{"--shapes", broken, good}, "broken.ttl:2:"},
		{[]string{"--shapes", filepath.Join(dir, "none.ttl"), good}, "no such file"},
		{[]string{"--shapes", jsonrpcShapes, dir}, "is a folder"},
	} {
		code, out, errOut := jrpcld(t, "", append([]string{"shacl"}, tt.args...)...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, errOut, tt.want)
		}
	}
	if code, out, _ := jrpcld(t, "", "shacl", "--shapes", jsonrpcShapes, good); code != cli.ExitOK || !strings.Contains(out, "Conforms: true") {
		t.Errorf("conforming data: exit %d\n%s", code, out)
	}
}

// TestValidateShapes: validate --shapes adds the SHACL results to the
// log's problems, at the line of the message, in text and JSON.
func TestValidateShapes(t *testing.T) {
	session := "../../examples/session.jsonl"
	code, out, errOut := jrpcld(t, "", "validate", "--shapes", jsonrpcShapes, session)
	want := session + ":13: -32600 request: SHACL MinCountConstraintComponent: the request is never answered"
	if code != cli.ExitInvalid || !strings.Contains(out, want) || !strings.Contains(out, "shacl: 0 of 1 logs conform; 1 results, 1 violations\n") || errOut != "" {
		t.Errorf("exit %d\n%s%s\nwant %q", code, out, errOut, want)
	}
	code, out, _ = jrpcld(t, "", "validate", "--format", "json", "--shapes", jsonrpcShapes, session)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var first, sum map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[len(lines)-1]), &sum)
	s, _ := sum["summary"].(map[string]any)
	if code != cli.ExitInvalid || first["line"] != 13.0 || first["code"] != -32600.0 || first["severity"] != "error" || s == nil || s["shacl"] == nil {
		t.Errorf("json: exit %d\n%s", code, out)
	}
	if code, _, errOut := jrpcld(t, "", "validate", "--shapes", jsonrpcShapes); code != cli.ExitUsage || !strings.Contains(errOut, "not on standard input") {
		t.Errorf("stdin: exit %d, %s", code, errOut)
	}
}

// TestSHACLInferenceAndImports: --inference rdfs and owl:imports through
// --map, on a hand-made schema, shapes and data whose results are worked
// out by hand. The shapes want every ex:Person to have an ex:name. The
// schema says ex:owns has the domain ex:Person and ex:fullName is a
// sub-property of ex:name: with the schema in the data and its entailment,
// ex:bob (owns, no name) is a Person without a name and ex:ann (owns, a
// fullName) has one; without either, nobody is a Person.
func TestSHACLInferenceAndImports(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("@prefix ex: <http://example.org/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"+
			"@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix sh: <http://www.w3.org/ns/shacl#> .\n"+text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	shapes := write("shapes.ttl", `<http://example.org/shapes> owl:imports <http://example.org/far> .
ex:PersonShape sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .`)
	schema := write("schema.ttl", `<http://example.org/schema> owl:imports <http://example.org/more> .
ex:owns rdfs:domain ex:Person . ex:fullName rdfs:subPropertyOf ex:name .`)
	more := write("more.ttl", `ex:Employee rdfs:subClassOf ex:Person .`)
	people := `ex:bob ex:owns ex:rex . ex:ann ex:owns ex:tom ; ex:fullName "Ann" . ex:eve a ex:Employee .`
	data := write("data.ttl", people)
	importing := write("importing.ttl", "<http://example.org/data> owl:imports <http://example.org/schema> .\n"+people)
	const schemaMap, moreMap = "http://example.org/schema=", "http://example.org/more="
	for _, tt := range []struct {
		name  string
		args  []string
		code  int
		focus []string // the focus nodes of the results
		// what the note of imports not followed lists: the shapes' first;
		// schema.ttl given as DATA does not import more.ttl given beside it
		note string
	}{
		{"no inference", []string{data, schema, more}, cli.ExitInvalid, []string{"eve"}, "far>, <http://example.org/more"},
		{"rdfs", []string{"--inference", "rdfs", data, schema, more}, cli.ExitInvalid, []string{"bob", "eve"}, "far>, <http://example.org/more"},
		{"rdfs, schema not imported", []string{"--inference", "rdfs", importing}, cli.ExitOK, nil, "far>, <http://example.org/schema"},
		{"rdfs, schema imported", []string{"--inference", "rdfs", "--map", schemaMap + schema, "--map", moreMap + more, importing},
			cli.ExitInvalid, []string{"bob", "eve"}, "far"},
		{"imported, no inference", []string{"--map", schemaMap + schema, "--map", moreMap + more, importing},
			cli.ExitInvalid, []string{"eve"}, "far"},
		{"rdfs, half imported", []string{"--inference", "rdfs", "--map", schemaMap + schema, importing},
			cli.ExitInvalid, []string{"bob"}, "far>, <http://example.org/more"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"shacl", "--format", "json", "--shapes", shapes}, tt.args...)
			code, out, errOut := jrpcld(t, "", args...)
			var focus []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var r struct{ FocusNode string }
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				if r.FocusNode != "" {
					focus = append(focus, strings.TrimSuffix(strings.TrimPrefix(r.FocusNode, "<http://example.org/"), ">"))
				}
			}
			slices.Sort(focus)
			if code != tt.code || !slices.Equal(focus, tt.focus) {
				t.Errorf("exit %d, focus nodes %v; want %d, %v\n%s", code, focus, tt.code, tt.focus, errOut)
			}
			wantNote := "note: owl:imports not followed (jrpcld reads nothing from the network): <http://example.org/" + tt.note + ">; " +
				"to read a local copy, give --map URL=FILE\n"
			if !strings.HasSuffix(errOut, wantNote) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr %q, want one note ending %q", errOut, wantNote)
			}
		})
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--inference", "owlrl", data}, `--inference must be none or rdfs, not "owlrl"`},
		{[]string{"--map", "schema.ttl", data}, `--map "schema.ttl": it is not URL=FILE`},
		{[]string{"--map", "http://example.org/far=" + filepath.Join(dir, "none.ttl"), data}, "owl:imports <http://example.org/far>, mapped to " + filepath.Join(dir, "none.ttl")},
	} {
		code, _, errOut := jrpcld(t, "", append([]string{"shacl", "--shapes", shapes}, tt.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestValidateShapesInference: validate --shapes takes --inference and
// --map as shacl does. The shapes target rdf:Property, which only
// --inference rdfs gives a log's graph (rule rdf1: every predicate), and
// want an ex:never on each: no result without inference, and with it as
// many as shacl --inference rdfs finds on the same log (shacl's own
// results are held to hand-worked ones in TestSHACLInferenceAndImports).
// Their owl:imports, mapped to a file that is not there, must fail.
func TestValidateShapesInference(t *testing.T) {
	dir := t.TempDir()
	shapes := filepath.Join(dir, "shapes.ttl")
	os.WriteFile(shapes, []byte(`@prefix sh: <http://www.w3.org/ns/shacl#> .
<http://example.org/shapes> <http://www.w3.org/2002/07/owl#imports> <http://example.org/far> .
<http://example.org/S> sh:targetClass <http://www.w3.org/1999/02/22-rdf-syntax-ns#Property> ;
  sh:property [ sh:path <http://example.org/never> ; sh:minCount 1 ] .
`), 0o644)
	session := "../../examples/session.jsonl"
	results := func(out string) float64 {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var sum struct {
			Summary struct {
				Results float64
				Shacl   struct{ Results float64 }
			}
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return sum.Summary.Results + sum.Summary.Shacl.Results
	}
	code, out, errOut := jrpcld(t, "", "shacl", "--format", "json", "--inference", "rdfs", "--shapes", shapes, session)
	want := results(out)
	if code != cli.ExitInvalid || want < 10 {
		t.Fatalf("shacl: exit %d, %v results\n%s", code, want, errOut)
	}
	code, out, errOut = jrpcld(t, "", "validate", "--format", "json", "--shapes", shapes, session)
	if n := results(out); code != cli.ExitOK || n != 0 || !strings.Contains(errOut, "<http://example.org/far>; to read a local copy, give --map URL=FILE") {
		t.Errorf("without inference: exit %d, %v results, stderr %q", code, n, errOut)
	}
	code, out, _ = jrpcld(t, "", "validate", "--format", "json", "--inference", "rdfs", "--shapes", shapes, session)
	if n := results(out); code != cli.ExitInvalid || n != want {
		t.Errorf("with inference: exit %d, %v results, shacl finds %v", code, n, want)
	}
	for _, args := range [][]string{
		{"--inference", "rdfs", session},
		{"--shapes", shapes, "--map", "http://example.org/far=" + filepath.Join(dir, "none.ttl"), session},
		{"--shapes", shapes, "--inference", "owl", session},
	} {
		if code, _, errOut := jrpcld(t, "", append([]string{"validate"}, args...)...); code != cli.ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
