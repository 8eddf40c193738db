package rules_test

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl"
	"github.com/jrpcld/jrpcld/rdf/sparql"
	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"
	"github.com/jrpcld/jrpcld/schema"
)

// graphLogs are logs that break the rules the graph's shapes check, and
// keep them in tricky ways, with the version their messages without a
// handshake take: 2025-03-26, which has batches, so that the shapes, which
// read the version of a handshake only, and the rules agree.
func graphLogs() map[string][]string {
	const v = "2025-06-18"
	batch := func(ids ...int) string {
		var ms []string
		for _, id := range ids {
			ms = append(ms, req("", id, "ping", ""))
		}
		return c("[" + strings.Join(ms, ",") + "]")
	}
	interleaved, _ := weave(
		lines(session(v, v), batch(1, 2), s(res(1, "{}")), s(res(2, "{}")), s(res(7, "{}"))),
		lines(c(req("", 5, "ping", "")), s(res(5, "{}")), session("2025-03-26", "2025-03-26"), batch(1), s(res(1, "{}")), s(res(1, "{}"))),
		lines(c(req("", 5, "ping", "")), s(res(5, "{}"))),
	)
	return map[string][]string{
		"interleaved sessions": interleaved,
		"without sessions": lines(c(req("", 9, "ping", "")), s(res(9, "{}")), session(v, v),
			s(`[`+res(3, "{}")+`,`+`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`+`]`),
			batch(4), s(res(4, "{}")), session("2025-03-26", "2025-03-26"), batch(5), s(res(5, "{}"))),
		// Ids: used twice by the client, in a batch too; kept by the
		// server's own id 1, the string "1", and a new session.
		"ids": lines(session(v, v), c(req("", 1, "ping", "")), s(res(1, "{}")), c(req("", 1, "ping", "")), s(res(1, "{}")),
			s(req("", 1, "ping", "")), c(res(1, "{}")), c(req("", "1", "ping", "")), s(res("1", "{}")),
			batch(2, 2), s(res(2, "{}")), s(res(2, "{}")), session(v, v), c(req("", 1, "ping", "")), s(res(1, "{}"))),
		// One side alone: an answer to nothing may answer what the log
		// does not show.
		"server side alone": lines(s(res(0, `{"protocolVersion":"`+v+`","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)), s(res(3, "{}"))),
	}
}

// ruleFindings checks the log text with the rules, the messages without a
// handshake of version v, and returns the findings (those about sessions
// as wholes too).
func ruleFindings(t *testing.T, text, v string) []schema.Finding {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(text), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := rules.Scan(r)
	if err != nil {
		t.Fatal(err)
	}
	vs.Settle(v, rules.Given, "the test's")
	rc := rules.NewChecker(rules.Options{Versions: vs})
	sc, _ := schema.NewChecker(nil, "")
	sc.Observe(rc)
	r, _ = rpclog.NewReader(strings.NewReader(text), "log", rpclog.ReaderOptions{})
	var out []schema.Finding
	if _, err := schema.ValidateLog(r, sc, "log", func(f schema.Finding) {
		if f.Rule != "" {
			out = append(out, f)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return append(out, rc.End()...)
}

// convertLog converts the log text, of IRI iri, with the default block
// into format f, with findings (nil for none).
func convertLog(t *testing.T, text, iri string, f rdf.Format, findings map[int][]diag.Diagnostic) []byte {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(text), iri, rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := convert.NewConverter(toolchaintest.DefaultContext(t))
	var buf bytes.Buffer
	if err := c.Convert(&buf, f, []convert.Log{{Reader: r, File: iri, IRI: iri, Findings: findings}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// byPosition returns findings by the position of their message, from 1.
func byPosition(fs []schema.Finding) map[int][]diag.Diagnostic {
	out := map[int][]diag.Diagnostic{}
	for _, f := range fs {
		out[f.Index+1] = append(out[f.Index+1], f.Diagnostic)
	}
	return out
}

// place writes where a finding is: its message's position, and ".N" for
// member N of a batch, whose pointer then points into the member; the
// pointer into that.
func place(f schema.Finding) (string, string) {
	pos := strconv.Itoa(f.Index + 1)
	if tok, rest, ok := strings.Cut(strings.TrimPrefix(f.Diagnostic.Pointer, "/"), "/"); strings.HasPrefix(f.Diagnostic.Pointer, "/") {
		if _, err := strconv.Atoi(tok); err == nil {
			if ok {
				rest = "/" + rest
			}
			return pos + "." + tok, rest
		}
	}
	return pos, f.Diagnostic.Pointer
}

// sharedLogs returns the enveloped MCP logs of ../shared (skipping the
// test when it is absent), by name.
func sharedLogs(t *testing.T) map[string]string {
	t.Helper()
	dir := shared.Dir(t, "reference", "mcp-logs")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.dir.jsonl"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*.session.jsonl"))
	out := map[string]string{}
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimPrefix(f, dir+string(filepath.Separator))] = string(b)
	}
	if len(out) == 0 {
		t.Fatalf("no enveloped log in %s", dir)
	}
	return out
}

// TestFindingsQuery: examples/queries/mcp/findings.rq, run by rdf/sparql
// on the graph a log converts to with its rule findings, gives each
// finding the rules made once, with its place, rule, severity, message,
// pointer and section; in the default graph and in a named one.
func TestFindingsQuery(t *testing.T) {
	text, err := os.ReadFile("../../examples/queries/mcp/findings.rq")
	if err != nil {
		t.Fatal(err)
	}
	q, err := sparql.ParseQuery(string(text), "")
	if err != nil {
		t.Fatal(err)
	}
	logs := map[string]string{}
	for name, l := range graphLogs() {
		logs[name] = strings.Join(l, "\n") + "\n"
	}
	if os.Getenv("JRPCLD_SHARED") != "" || shared.Present() {
		for name, l := range sharedLogs(t) {
			logs[name] = l
		}
	}
	total := 0
	for _, name := range slices.Sorted(maps.Keys(logs)) {
		fs := ruleFindings(t, logs[name], "2025-03-26")
		total += len(fs)
		var want []string
		for _, f := range fs {
			at, ptr := place(f)
			sev := "error"
			if f.Severity == diag.Warning {
				sev = "warning"
			}
			want = append(want, strings.Join([]string{at, f.Rule, sev, ptr, f.Message, f.Help}, " | "))
		}
		slices.Sort(want)
		for _, form := range []rdf.Format{rdf.NTriples, rdf.NQuads} {
			t.Run(name+"/"+form.String(), func(t *testing.T) {
				const iri = "http://example.com/log"
				data := convertLog(t, logs[name], iri, form, byPosition(fs))
				quads, _, err := rdf.Parse(data, form, "")
				if err != nil {
					t.Fatal(err)
				}
				ds := sparql.NewDataset()
				if err := ds.Add(quads...); err != nil {
					t.Fatal(err)
				}
				res, err := ds.Query(context.Background(), q, sparql.Options{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for sol := range res.Solutions() {
					row := map[string]string{}
					for i, v := range res.Vars {
						row[v] = sol[i].Value
					}
					at := row["position"]
					if row["member"] != "" {
						at += "." + row["member"]
					}
					if row["log"] != iri {
						t.Errorf("log %q", row["log"])
					}
					got = append(got, strings.Join([]string{at, row["rule"], row["severity"], row["pointer"], row["message"], row["section"]}, " | "))
				}
				if err := res.Err(); err != nil {
					t.Fatal(err)
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
	if total == 0 {
		t.Fatal("no findings: the check would be empty")
	}
}

// shapeRules are the rules examples/shapes/mcp.ttl has a shape for, each
// named after its rule.
var shapeRules = []string{"mcp-response-unmatched", "mcp-batch-removed", "mcp-lifecycle-initialize-first", "mcp-request-id-reused"}

// TestShapesAgreeWithRules: the shapes of examples/shapes/mcp.ttl named
// after a rule, run by rdf/shacl on the graph of a log alone (no
// findings in it), find the messages the rule finds, and no other.
func TestShapesAgreeWithRules(t *testing.T) {
	shapesText, err := os.ReadFile("../../examples/shapes/mcp.ttl")
	if err != nil {
		t.Fatal(err)
	}
	sq, _, err := rdf.Parse(shapesText, rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	var st []rdf.Triple
	for _, q := range sq {
		st = append(st, q.Triple)
	}
	shapes, err := shacl.Compile(st)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "https://jrpcld.github.io/shapes/mcp#"
	logs := map[string]string{}
	for name, l := range graphLogs() {
		logs[name] = strings.Join(l, "\n") + "\n"
	}
	if os.Getenv("JRPCLD_SHARED") != "" || shared.Present() {
		for name, l := range sharedLogs(t) {
			logs[name] = l
		}
	}
	seen := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(logs)) {
		t.Run(name, func(t *testing.T) {
			var want []string
			for _, f := range ruleFindings(t, logs[name], "2025-03-26") {
				if slices.Contains(shapeRules, f.Rule) {
					at, _ := place(f)
					want = append(want, at+" "+f.Rule)
					seen[f.Rule]++
				}
			}
			const iri = "http://example.com/log"
			data := convertLog(t, logs[name], iri, rdf.NTriples, nil)
			dq, _, err := rdf.Parse(data, rdf.NTriples, "")
			if err != nil {
				t.Fatal(err)
			}
			var dt []rdf.Triple
			for _, q := range dq {
				dt = append(dt, q.Triple)
			}
			report, err := shapes.Validate(shacl.NewGraph(dt))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range report.Results {
				rule, ok := strings.CutPrefix(r.Shape.Value, ns)
				if !ok || !slices.Contains(shapeRules, rule) {
					continue
				}
				at, ok := strings.CutPrefix(r.Focus.Value, iri+"#")
				if !ok {
					t.Errorf("focus %s", r.Focus)
					continue
				}
				for _, p := range []string{"c2s-", "s2c-", "m"} {
					at = strings.TrimPrefix(at, p)
				}
				got = append(got, at+" "+rule)
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("shapes found %v\nrules found %v", got, want)
			}
		})
	}
	t.Logf("findings of the rules the shapes check: %v", seen)
	for _, r := range shapeRules {
		if seen[r] == 0 {
			t.Errorf("no log breaks %s: the agreement is not tested", r)
		}
	}
}
