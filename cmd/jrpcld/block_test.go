package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"go.yaml.in/yaml/v3"
)

func TestContextCommand(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "context")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Context map[string]any `json:"@context"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	method, _ := doc.Context["method"].(map[string]any)
	if method["@id"] != "jrpc:hasMethod" || doc.Context["jrpc"] != "http://json-rpc.org/ontology#" || doc.Context["@version"] != 1.1 {
		t.Errorf("built context lacks what the embedded context.jsonld says: %v", doc.Context)
	}
	if code, _, errOut := jrpcld(t, "", "context", "extra"); code != cli.ExitUsage || !strings.Contains(errOut, `unexpected argument "extra"`) {
		t.Errorf("extra argument: %d %q", code, errOut)
	}
}

func TestAnnotateCommand(t *testing.T) {
	code, out, errOut := jrpcld(t, "", "annotate")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	if _, ok := doc["x-jsonld-extra-terms"]; !ok || !strings.Contains(out, "x-jsonld-id: http://json-rpc.org/ontology#hasMethod") {
		t.Errorf("annotated schema lacks annotations:\n%s", out)
	}
	code, out, _ = jrpcld(t, "", "annotate", "--format", "json")
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &doc) != nil {
		t.Errorf("--format json: exit %d, %.200s", code, out)
	}
	if code, _, _ := jrpcld(t, "", "annotate", "--format", "xml"); code != cli.ExitUsage {
		t.Errorf("--format xml: exit %d", code)
	}
}

func TestOntologyCommand(t *testing.T) {
	code, out, _ := jrpcld(t, "", "ontology")
	if code != cli.ExitOK || !strings.Contains(out, "jrpc:hasMethod") || !strings.Contains(out, "Classes") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if code, out, _ := jrpcld(t, "", "ontology", "--check"); code != cli.ExitOK || out != "" {
		t.Errorf("the embedded block declares every IRI its context produces: exit %d, %q", code, out)
	}
	dir := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	code, out, errOut := jrpcld(t, "", "ontology", "--check", "--bblock", dir, "--id", "mcp.json-rpc")
	if code != cli.ExitInvalid || out != "http://json-rpc.org/ontology#version\n" || !strings.Contains(errOut, "1 IRIs") {
		t.Errorf("published json-rpc: exit %d, %q, %q", code, out, errOut)
	}
	// validate --bblock surfaces the same check as a warning.
	_, _, errOut = jrpcld(t, `{"jsonrpc":"2.0","result":1,"id":1}`, "validate", "--bblock", dir, "--id", "mcp.json-rpc")
	if !strings.Contains(errOut, "produces http://json-rpc.org/ontology#version, which the ontology does not declare") {
		t.Errorf("validate --bblock: %q", errOut)
	}
}

func TestContextMap(t *testing.T) {
	dir := t.TempDir()
	block := filepath.Join(dir, "blk")
	os.Mkdir(block, 0o755)
	os.WriteFile(filepath.Join(block, "bblock.json"), []byte(`{"name": "B", "status": "stable", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`), 0o644)
	os.WriteFile(filepath.Join(block, "schema.yaml"), []byte("type: object\nproperties:\n  a: {type: string}\n"), 0o644)
	os.WriteFile(filepath.Join(block, "context.jsonld"), []byte(`{"@context": ["https://example.com/remote.jsonld", {"a": "ex:a"}]}`), 0o644)
	code, _, errOut := jrpcld(t, "", "context", "--bblock", block)
	if code != cli.ExitUsage || !strings.Contains(errOut, "https://example.com/remote.jsonld") || !strings.Contains(errOut, "--context-map") {
		t.Fatalf("unmapped remote context: exit %d, %q", code, errOut)
	}
	local := filepath.Join(dir, "remote.jsonld")
	os.WriteFile(local, []byte(`{"@context": {"ex": "http://example.com/ns#"}}`), 0o644)
	code, out, errOut := jrpcld(t, "", "context", "--bblock", block, "--context-map", "https://example.com/remote.jsonld="+local)
	if code != cli.ExitOK || !strings.Contains(out, `"a": "ex:a"`) {
		t.Errorf("mapped: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := jrpcld(t, "", "context", "--context-map", "nonsense"); code != cli.ExitUsage || !strings.Contains(errOut, "URL=FILE") {
		t.Errorf("bad --context-map: %d %q", code, errOut)
	}
}

// TestBuildContextMap: a register whose block names a remote context builds
// only when the reference is mapped to a local file.
func TestBuildContextMap(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	block := filepath.Join(src, "_sources", "blk")
	os.MkdirAll(block, 0o755)
	os.WriteFile(filepath.Join(src, "bblocks-config.yaml"), []byte("name: T\nidentifier-prefix: t.\nimports: []\n"), 0o644)
	os.WriteFile(filepath.Join(block, "bblock.json"), []byte(`{"name": "B", "status": "stable", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`), 0o644)
	os.WriteFile(filepath.Join(block, "schema.yaml"), []byte("type: object\nproperties:\n  a: {type: string}\n"), 0o644)
	os.WriteFile(filepath.Join(block, "context.jsonld"), []byte(`{"@context": ["https://example.com/remote.jsonld", {"a": "ex:a"}]}`), 0o644)
	os.WriteFile(filepath.Join(block, "examples.yaml"), []byte("- title: one\n  snippets:\n    - language: json\n      code: '{\"a\": \"x\"}'\n"), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := jrpcld(t, "", "build", src, "-o", out)
	if code != cli.ExitInvalid || !strings.Contains(stdout+stderr, "https://example.com/remote.jsonld") {
		t.Fatalf("unmapped: exit %d\n%s\n%s", code, stdout, stderr)
	}
	local := filepath.Join(dir, "remote.jsonld")
	os.WriteFile(local, []byte(`{"@context": {"ex": "http://example.com/ns#"}}`), 0o644)
	code, stdout, stderr = jrpcld(t, "", "build", src, "-o", out, "--context-map", "https://example.com/remote.jsonld="+local)
	if code != cli.ExitOK {
		t.Errorf("mapped: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
