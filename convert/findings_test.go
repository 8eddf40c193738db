package convert

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/convert/wire"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"
)

// findingsLog is a log of one session: a request, a batch whose second
// member reuses its id, and the answer to the first request.
const findingsLog = `{"dir":"c2s","session":"A","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"dir":"c2s","session":"A","msg":[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]}
{"dir":"s2c","session":"A","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
`

// convertFindings converts findingsLog with findings, to N-Triples: the
// text and its triples.
func convertFindings(t *testing.T, findings map[int][]diag.Diagnostic) (string, []rdf.Triple) {
	t.Helper()
	const L = "http://example.com/f"
	r, err := rpclog.NewReader(strings.NewReader(findingsLog), "f", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewConverter(toolchaintest.DefaultContext(t))
	var buf bytes.Buffer
	if err := c.Convert(&buf, rdf.NTriples, []Log{{Reader: r, File: "f", IRI: L, Findings: findings}}); err != nil {
		t.Fatal(err)
	}
	return buf.String(), graphOf(t, buf.String())
}

// TestFindings: each finding is a jlog:Finding node its message links with
// jlog:finding, with its rule, severity (sh:Violation, sh:Warning),
// message, pointer and section; one that points into a batch member is the
// member's, pointing into it. Nothing else of the graph changes, and the
// way back gives the log again, the findings left aside.
func TestFindings(t *testing.T) {
	const L = "http://example.com/f"
	const spec = "https://modelcontextprotocol.io/specification/2025-06-18/"
	findings := map[int][]diag.Diagnostic{
		2: {
			{Rule: "mcp-batch-removed", Severity: diag.Error, Message: "a batch", Help: spec + "basic/transports#sending-messages-to-the-server"},
			{Rule: "mcp-request-id-reused", Severity: diag.Error, Pointer: "/1/id", Message: "id 1 again", Help: spec + "basic#requests"},
		},
		3: {{Rule: "mcp-tool-not-listed", Severity: diag.Warning, Pointer: "/id", Message: "a warning", Help: "not an IRI"}},
	}
	nt, with := convertFindings(t, findings)
	_, without := convertFindings(t, nil)

	var found, rest []rdf.Triple
	for _, tr := range with {
		if tr.P == rdf.JLogFinding || isFindingNode(with, tr.S) {
			found = append(found, tr)
		} else {
			rest = append(rest, tr)
		}
	}
	if ok, why := rdftest.Isomorphic(rest, without); !ok {
		t.Errorf("the graph besides the findings differs from the one without: %s", why)
	}
	const (
		typ  = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
		jlog = "https://jrpcld.github.io/ns/log#"
		sh   = "http://www.w3.org/ns/shacl#"
		also = "<http://www.w3.org/2000/01/rdf-schema#seeAlso>"
	)
	want := `<` + L + `#c2s-2> <` + jlog + `finding> _:a .
_:a ` + typ + ` <` + jlog + `Finding> .
_:a <` + jlog + `rule> "mcp-batch-removed" .
_:a <` + jlog + `severity> <` + sh + `Violation> .
_:a <` + jlog + `message> "a batch" .
_:a <` + jlog + `pointer> "" .
_:a ` + also + ` <` + spec + `basic/transports#sending-messages-to-the-server> .
<` + L + `#c2s-2.1> <` + jlog + `finding> _:b .
_:b ` + typ + ` <` + jlog + `Finding> .
_:b <` + jlog + `rule> "mcp-request-id-reused" .
_:b <` + jlog + `severity> <` + sh + `Violation> .
_:b <` + jlog + `message> "id 1 again" .
_:b <` + jlog + `pointer> "/id" .
_:b ` + also + ` <` + spec + `basic#requests> .
<` + L + `#s2c-3> <` + jlog + `finding> _:c .
_:c ` + typ + ` <` + jlog + `Finding> .
_:c <` + jlog + `rule> "mcp-tool-not-listed" .
_:c <` + jlog + `severity> <` + sh + `Warning> .
_:c <` + jlog + `message> "a warning" .
_:c <` + jlog + `pointer> "/id" .
`
	if ok, why := rdftest.Isomorphic(found, graphOf(t, want)); !ok {
		t.Errorf("findings: %s", why)
	}

	// The way back, from the graph with findings.
	var back bytes.Buffer
	res, err := wire.NewDecoder(toolchaintest.DefaultContext(t)).WriteJSONL(&back, strings.NewReader(nt), rdf.NTriples, wire.JSONLOptions{Envelope: true})
	if err != nil || len(res.Problems) > 0 {
		t.Fatalf("the way back: %v %v", err, res.Problems)
	}
	got, wantLines := strings.Split(strings.TrimSpace(back.String()), "\n"), strings.Split(strings.TrimSpace(findingsLog), "\n")
	if len(got) != len(wantLines) {
		t.Fatalf("the way back:\n%s", back.String())
	}
	for i := range got {
		var a, b any
		if json.Unmarshal([]byte(got[i]), &a) != nil || json.Unmarshal([]byte(wantLines[i]), &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("line %d back: %s, want %s", i+1, got[i], wantLines[i])
		}
	}
}

// isFindingNode reports whether n is typed jlog:Finding in ts.
func isFindingNode(ts []rdf.Triple, n rdf.Term) bool {
	for _, tr := range ts {
		if tr.S == n && tr.P == rdf.RDFType && tr.O.Value == rdf.JLogFindingClass {
			return true
		}
	}
	return false
}

func TestMemberPointer(t *testing.T) {
	for _, x := range []struct {
		ptr  string
		n, i int
		rest string
		ok   bool
	}{
		{"/1/id", 2, 1, "/id", true},
		{"/0", 2, 0, "", true},
		{"/2/id", 2, 0, "", false},
		{"/01", 2, 0, "", false},
		{"/-1", 2, 0, "", false},
		{"", 2, 0, "", false},
		{"/id", 2, 0, "", false},
	} {
		i, rest, ok := memberPointer(x.ptr, x.n)
		if i != x.i || rest != x.rest || ok != x.ok {
			t.Errorf("memberPointer(%q, %d) = %d, %q, %v; want %d, %q, %v", x.ptr, x.n, i, rest, ok, x.i, x.rest, x.ok)
		}
	}
}

// TestFindingsPrefix: Turtle with findings declares sh:, whose severities
// they take; without findings it does not.
func TestFindingsPrefix(t *testing.T) {
	for _, x := range []struct {
		findings map[int][]diag.Diagnostic
		want     bool
	}{
		{map[int][]diag.Diagnostic{3: {{Rule: "r", Severity: diag.Warning, Message: "m"}}}, true},
		{map[int][]diag.Diagnostic{}, false},
		{nil, false},
	} {
		r, err := rpclog.NewReader(strings.NewReader(findingsLog), "f", rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := NewConverter(toolchaintest.DefaultContext(t)).Convert(&buf, rdf.Turtle, []Log{{Reader: r, File: "f", IRI: "http://example.com/f", Findings: x.findings}}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if got := strings.Contains(out, "@prefix sh: <http://www.w3.org/ns/shacl#> ."); got != x.want {
			t.Errorf("findings %v: sh: declared %v, want %v", x.findings, got, x.want)
		}
		if x.want && !strings.Contains(out, "jlog:severity sh:Warning") {
			t.Errorf("no sh:Warning:\n%s", out)
		}
	}
}
