package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestUnknownNames: a value a flag names that jrpcld does not have (an MCP
// version, a block, a definition, a format, a log, a file, a command) is a
// usage error, exit 2, whose message lists what jrpcld has or names the
// nearest; no check is switched off with a warning and exit 0 instead.
// Each case says what the message must hold.
func TestUnknownNames(t *testing.T) {
	tmp := t.TempDir()
	msgs := filepath.Join(tmp, "m.jsonl")
	write(t, msgs, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	// An MCP schema folder with two versions (a schema that allows all is
	// enough: the flag is refused before any is read).
	schemas := filepath.Join(tmp, "mcp")
	for _, v := range []string{"2025-06-18", "2025-11-25"} {
		os.MkdirAll(filepath.Join(schemas, v), 0o755)
		write(t, filepath.Join(schemas, v, "schema.json"), `{"$schema":"http://json-schema.org/draft-07/schema#"}`)
	}
	defs := filepath.Join(tmp, "defs.json")
	write(t, defs, `{"$defs":{"JSONRPCRequest":{"type":"object"},"JSONRPCNotification":{"type":"object"}}}`)
	allows := filepath.Join(tmp, "true.json")
	write(t, allows, "true")
	noShapes := filepath.Join(tmp, "none.ttl")
	write(t, noShapes, "@prefix sh: <http://www.w3.org/ns/shacl#> .\n<urn:x> a <urn:Thing> .\n<urn:s> a sh:NodeShape ; sh:property [ sh:path <urn:p> ; sh:minCount 1 ] .\n")
	nq := filepath.Join(tmp, "log.nq")
	if code, _, errOut := jrpcld(t, "", "rdf", "-q", "--base", "http://example.org/log", "-o", nq, msgs); code != cli.ExitOK {
		t.Fatalf("rdf: %d %s", code, errOut)
	}
	fixture := filepath.Join("..", "..", "register", "testdata", "fixture")
	tests := []struct {
		name string
		args []string
		want []string // each in the message
	}{
		{"validate --mcp-version", []string{"validate", "--mcp", "--mcp-schemas", schemas, "--mcp-version", "2025-11-26", msgs},
			[]string{`--mcp-version "2025-11-26": no schema for this MCP version in ` + schemas, `did you mean "2025-11-25"?`, `it has 2025-06-18, 2025-11-25`}},
		{"stats --mcp-version", []string{"stats", "--mcp", "--mcp-schemas", schemas, "--mcp-version", "2024-11-05", msgs},
			[]string{`--mcp-version "2024-11-05": no schema for this MCP version`, `it has 2025-06-18, 2025-11-25`}},
		{"stats --mcp-version of a graph", []string{"stats", "--mcp", "--mcp-schemas", schemas, "--mcp-version", "2025-11-26", nq},
			[]string{`it has 2025-06-18, 2025-11-25`}},
		{"--mcp-version not a version", []string{"validate", "--mcp", "--mcp-schemas", schemas, "--mcp-version", "latest", msgs},
			[]string{`--mcp-version "latest": want a version such as`}},
		{"--definition of the embedded block", []string{"validate", "--definition", "Requst", msgs},
			[]string{`"Requst": no such definition`, `did you mean "Request"?`}},
		{"--definition far from any", []string{"validate", "--definition", "Zebra", msgs},
			[]string{`"Zebra": no such definition`, `Batch, BatchRequest, BatchResponse, Error`}},
		{"--definition as a pointer", []string{"validate", "--definition", "#/$defs/Requst", msgs},
			[]string{`no such definition`, `did you mean "Request"?`}},
		{"--definition of --schema", []string{"validate", "--schema", defs, "--definition", "JSONRPCRequst", msgs},
			[]string{`did you mean "JSONRPCRequest"?`}},
		{"--definition of a schema that is true", []string{"validate", "--schema", allows, "--definition", "X", msgs},
			[]string{`"X": no such definition`, `it has none`}},
		{"validate --id without --bblock", []string{"validate", "--id", "mcp.mcp", msgs},
			[]string{`block "mcp.mcp"`, `without --bblock the only block is the embedded jrpcld.json-rpc`}},
		{"context --id without --bblock", []string{"context", "--id", "nope"}, []string{`the embedded jrpcld.json-rpc`}},
		{"annotate --id without --bblock", []string{"annotate", "--id", "nope"}, []string{`the embedded jrpcld.json-rpc`}},
		{"ontology --id without --bblock", []string{"ontology", "--id", "nope"}, []string{`the embedded jrpcld.json-rpc`}},
		{"examples --id without --bblock", []string{"examples", "--id", "nope"}, []string{`the embedded jrpcld.json-rpc`}},
		{"turtle --id without --bblock", []string{"turtle", "--id", "nope", msgs}, []string{`the embedded jrpcld.json-rpc`}},
		{"json --id without --bblock", []string{"json", "--id", "nope", nq}, []string{`the embedded jrpcld.json-rpc`}},
		{"stats --id without --bblock", []string{"stats", "--id", "nope", msgs}, []string{`the embedded jrpcld.json-rpc`}},
		{"shacl --id without --bblock", []string{"shacl", "--shapes", filepath.Join("..", "..", "examples", "shapes", "jsonrpc.ttl"), "--id", "nope", msgs}, []string{`the embedded jrpcld.json-rpc`}},
		{"--id in a register", []string{"validate", "--bblock", fixture, "--id", "fx.pont", msgs},
			[]string{`unknown building block "fx.pont"`, `did you mean "fx.point"?`, `it has fx.labelled-point, fx.point, fx.remote`}},
		{"build --filter", []string{"build", fixture, "-o", filepath.Join(tmp, "b"), "--filter", "fx.pont"},
			[]string{`unknown building block "fx.pont"`, `did you mean "fx.point"?`, `fx.labelled-point, fx.point, fx.remote`}},
		{"validate --format", []string{"validate", "--format", "xml", msgs}, []string{"text, json or sarif"}},
		{"stats --format", []string{"stats", "--format", "yaml", msgs}, []string{"text or json"}},
		{"rdf --format", []string{"rdf", "--format", "trig", msgs}, []string{"turtle, ntriples, nquads, jsonld or jsonld-expanded"}},
		{"rdf -o .xml", []string{"rdf", "-o", filepath.Join(tmp, "out.xml"), msgs}, []string{"jrpcld does not write RDF/XML", ".ttl, .nt, .nq"}},
		{"annotate --format", []string{"annotate", "--format", "toml"}, []string{"yaml or json"}},
		{"shacl --format", []string{"shacl", "--shapes", noShapes, "--format", "xml", msgs}, []string{"text, turtle or json"}},
		{"--engine", []string{"turtle", "--engine", "fast", msgs}, []string{"compiled or json-gold"}},
		{"json --from", []string{"json", "--from", "rdfxml", nq}, []string{"turtle, ntriples, nquads or jsonld"}},
		{"import --from", []string{"import", "--from", "har", msgs}, []string{"inspector, mcp-recorder or vcr"}},
		{"--push-method", []string{"rdf", "--push", "http://127.0.0.1:1/store", "--push-method", "patch", msgs}, []string{"put or post"}},
		{"--quiet", []string{"rdf", "--quiet=some", msgs}, []string{"true, false or all"}},
		{"completion", []string{"completion", "tcsh"}, []string{"bash, zsh, fish or powershell"}},
		{"help", []string{"help", "valdate"}, []string{`did you mean "validate"?`}},
		{"fetch mcp-schema", []string{"fetch", "mcp-schema"}, []string{`"mcp-schema" is not an http:// or https:// URL`, `did you mean mcp-schemas?`}},
		{"json --graph", []string{"json", "--graph", "http://example.org/lg", nq},
			[]string{`no log <http://example.org/lg> in the input`, `it has <http://example.org/log>`}},
		{"--context-map to no file", []string{"context", "--context-map", "http://example.org/c.jsonld=" + filepath.Join(tmp, "nope.jsonld")},
			[]string{"nope.jsonld", "no such file"}},
		{"validate --shapes with no target", []string{"validate", "--shapes", noShapes, msgs},
			[]string{noShapes + ": no shape with a target", "nothing would be checked"}},
		{"shacl --shapes with no target", []string{"shacl", "--shapes", noShapes, msgs},
			[]string{noShapes + ": no shape with a target", "nothing would be checked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := jrpcld(t, "", tt.args...)
			if code != cli.ExitUsage {
				t.Errorf("exit %d, want %d; stderr %q", code, cli.ExitUsage, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}
