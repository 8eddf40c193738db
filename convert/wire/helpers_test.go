package wire_test

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// convertWithIssues converts logs (IRI -> text), in IRI order, with ctx
// into format f: the way there whose output the tests read back.
func convertWithIssues(t testing.TB, ctx *ldctx.Processed, f rdf.Format, logs map[string]string) ([]byte, []diag.Diagnostic, error) {
	t.Helper()
	var ls []convert.Log
	for _, iri := range slices.Sorted(maps.Keys(logs)) {
		r, err := rpclog.NewReader(strings.NewReader(logs[iri]), iri, rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, convert.Log{Reader: r, File: iri, IRI: iri})
	}
	c := convert.NewConverter(ctx)
	var issues []diag.Diagnostic
	c.Report = func(i diag.Diagnostic) { issues = append(issues, i) }
	var buf bytes.Buffer
	err := c.Convert(&buf, f, ls)
	return buf.Bytes(), issues, err
}

// convertWith converts logs with ctx, failing t on an error.
func convertWith(t testing.TB, ctx *ldctx.Processed, f rdf.Format, logs map[string]string) []byte {
	t.Helper()
	out, _, err := convertWithIssues(t, ctx, f, logs)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// convertLogs converts logs with the embedded block's context.
func convertLogs(t testing.TB, f rdf.Format, logs map[string]string) (string, []diag.Diagnostic, error) {
	t.Helper()
	out, issues, err := convertWithIssues(t, toolchaintest.DefaultContext(t), f, logs)
	return string(out), issues, err
}

// convertString converts one log with the embedded block's context.
func convertString(t testing.TB, log string, f rdf.Format, iri string) (string, []diag.Diagnostic) {
	t.Helper()
	out, issues, err := convertLogs(t, f, map[string]string{iri: log})
	if err != nil {
		t.Fatal(err)
	}
	return out, issues
}
