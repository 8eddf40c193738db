// Package toolchaintest gives the tests of several packages the contexts
// their messages are mapped with, as the tool chain builds them: that of the
// embedded JSON-RPC 2.0 block and that of the MCP block of ../shared.
package toolchaintest

import (
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// DefaultContext returns the context of the embedded JSON-RPC 2.0 block.
func DefaultContext(tb testing.TB) *ldctx.Processed {
	tb.Helper()
	ctx, _, err := toolchain.ForBlock(bblock.Default(), nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return ctx
}

// MCPContext returns the context of the MCP block of
// ../shared/reference/ogc-mcp-bblocks; without ../shared it skips tb, or
// fails it when JRPCLD_SHARED is set (see shared.Dir).
func MCPContext(tb testing.TB) *ldctx.Processed {
	tb.Helper()
	reg, err := bblock.LoadRegisterDir(shared.Dir(tb, "reference", "ogc-mcp-bblocks"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, _, err := toolchain.ForBlock(reg.Block("mcp.mcp"), reg, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return ctx
}

// MCPContextIfPresent returns the context of the MCP block when the tests
// use ../shared (see shared.Present), else nil without skipping tb: for
// fuzz targets, which run with or without it.
func MCPContextIfPresent(tb testing.TB) *ldctx.Processed {
	tb.Helper()
	if !shared.Present() {
		return nil
	}
	return MCPContext(tb)
}
