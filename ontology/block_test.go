package ontology

import (
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// TestCheckBlock: the published json-rpc block's context produces jrpc:version,
// which its ontology does not declare (BBLOCKS.md names this defect); the
// embedded block declares every IRI its context produces.
func TestCheckBlock(t *testing.T) {
	undeclared, ok, err := CheckBlock(bblock.Default(), nil, toolchain.For(bblock.Default(), nil, nil).Terms)
	if err != nil || !ok || len(undeclared) != 0 {
		t.Errorf("default block: %v %v %v", undeclared, ok, err)
	}
	reg, err := bblock.LoadRegisterDir(shared.Dir(t, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	undeclared, ok, err = CheckBlock(reg.Block("mcp.json-rpc"), reg, toolchain.For(reg.Block("mcp.json-rpc"), reg, nil).Terms)
	if err != nil || !ok || strings.Join(undeclared, " ") != "http://json-rpc.org/ontology#version" {
		t.Errorf("mcp.json-rpc: %v %v %v", undeclared, ok, err)
	}
	// mcp's ontology, merged with json-rpc's, leaves many of its context's
	// IRIs undeclared (mcp:hasVersion among them); the check must name them.
	undeclared, ok, err = CheckBlock(reg.Block("mcp.mcp"), reg, toolchain.For(reg.Block("mcp.mcp"), reg, nil).Terms)
	if err != nil || !ok || len(undeclared) == 0 {
		t.Fatalf("mcp.mcp: %v %v %v", undeclared, ok, err)
	}
	found := false
	for _, iri := range undeclared {
		if iri == "http://modelcontextprotocol.io/ontology#hasVersion" {
			found = true
		}
		if strings.HasPrefix(iri, "http://json-rpc.org/ontology#") && iri != "http://json-rpc.org/ontology#version" {
			t.Errorf("%s is declared by the json-rpc ontology, merged in as a dependency", iri)
		}
	}
	if !found {
		t.Errorf("mcp:hasVersion not named: %v", undeclared)
	}
}
