package convert

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/testkit/nodetest"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// jsonldJSInstall installs jsonld.js where the tests look for it (.ci/run
// does).
const jsonldJSInstall = `npm install --no-save --prefix "${XDG_CACHE_HOME:-$HOME/.cache}/jrpcld/npm" jsonld@9.0.0 (with the other packages .ci/run installs there, which --no-save would remove otherwise)`

// jsonldJS starts node on testdata/jsonldjs.js with the context ctx; it
// skips t without node or the npm package jsonld, or fails it when
// JRPCLD_SHARED is set.
func jsonldJS(t *testing.T, ctx any) (send func(id, base string, msg any) (string, error), stop func()) {
	t.Helper()
	bin, env := nodetest.Need(t, jsonldJSInstall, "jsonld")
	cmd := exec.Command(bin, filepath.Join("testdata", "jsonldjs.js"))
	cmd.Env = env
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(in)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	enc := json.NewEncoder(w)
	if err := enc.Encode(ctx); err != nil {
		t.Fatal(err)
	}
	send = func(id, base string, msg any) (string, error) {
		if err := enc.Encode(map[string]any{"id": id, "base": base, "msg": msg}); err != nil {
			return "", err
		}
		if err := w.Flush(); err != nil {
			return "", err
		}
		if !sc.Scan() {
			return "", fmt.Errorf("jsonldjs.js stopped: %v", sc.Err())
		}
		var res struct {
			NQ    *string `json:"nq"`
			Error string  `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			return "", err
		}
		if res.NQ == nil {
			return "", fmt.Errorf("jsonld.js: %s", res.Error)
		}
		return *res.NQ, nil
	}
	stop = func() {
		in.Close()
		cmd.Wait()
	}
	return send, stop
}

// mcpLogs returns the MCP logs of ../shared: the corpus and the logs of
// reference/mcp-logs, bare or with envelopes.
func mcpLogs(t *testing.T) []string {
	files := shared.CorpusFiles(t)
	root := shared.Dir(t, "reference", "mcp-logs")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestInvalidMessagesMatchJSONLDJS: every message of the MCP logs of
// ../shared, those that break the JSON-RPC rules among them, keeps in the
// log's graph every statement jsonld.js 9 (the JSON-LD processor of the
// OGC tool chain's viewer and of the held-out reference graphs) makes of it
// with the same context, and no other statement of the message's content:
// with the embedded JSON-RPC 2.0 block's context and with the MCP block's.
// The log layer's statements (jlog:*, and the message's rdf:type) are
// jrpcld's own and left out of the comparison.
func TestInvalidMessagesMatchJSONLDJS(t *testing.T) {
	files := mcpLogs(t)
	for _, tc := range []struct {
		name string
		ctx  *ldctx.Processed
	}{
		{"jsonrpc", toolchaintest.DefaultContext(t)},
		{"mcp", toolchaintest.MCPContext(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			send, stop := jsonldJS(t, tc.ctx.Value())
			defer stop()
			var messages, invalid, statements, invalidStatements, departures int
			for _, file := range files {
				const iri = "http://example.com/log"
				m, err := NewMapping(tc.ctx, iri)
				if err != nil {
					t.Fatal(err)
				}
				g := NewLogGraph(iri, m)
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				r, err := rpclog.NewReader(bytes.NewReader(data), file, rpclog.ReaderOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for pos := 1; ; pos++ {
					rec, err := r.Next()
					if err != nil {
						break
					}
					if rec.Err != nil {
						continue
					}
					obj, ok := rec.Value.(map[string]any)
					if !ok || hasAtKey(obj) {
						continue
					}
					kind := jsonrpc.Classify(rec.Value).Kind
					ts, _, err := g.Message(rec, pos)
					if err != nil {
						t.Fatalf("%s:%d: %v", file, rec.Line, err)
					}
					node := g.MessageIRI(rec.Dir, pos)
					ours, spaced := contentOf(ts, node)
					departures += spaced
					nq, err := send(node, iri, obj)
					if err != nil {
						t.Errorf("%s:%d: %v", file, rec.Line, err)
						continue
					}
					theirs, err := rdftest.ParseNTriples([]byte(nq))
					if err != nil {
						t.Fatalf("%s:%d: jsonld.js output: %v\n%s", file, rec.Line, err, nq)
					}
					messages++
					statements += len(theirs)
					if kind == jsonrpc.KindInvalid {
						invalid++
						invalidStatements += len(theirs)
					}
					if ok, diff := rdftest.Isomorphic(ours, theirs); !ok {
						t.Errorf("%s:%d (%s): differs from jsonld.js:\n%s", file, rec.Line, kind, diff)
					}
				}
			}
			if invalid == 0 {
				t.Errorf("no invalid message among %d", messages)
			}
			t.Logf("%d messages, %d statements of jsonld.js; %d invalid messages, %d statements; %d statements with an IRI made of a string with a space, which jsonld.js drops",
				messages, statements, invalid, invalidStatements, departures)
		})
	}
}

// hasAtKey reports whether a message has a member whose name starts with
// "@": jrpcld takes those as data, where a JSON-LD processor takes them as
// keywords (on purpose; README).
func hasAtKey(obj map[string]any) bool {
	for k := range obj {
		if strings.HasPrefix(k, "@") {
			return true
		}
	}
	return false
}

// contentOf returns the statements of ts that the block's context gives for
// the message at node: all but the log layer's (jlog:* predicates, the
// types of the message and of its jlog:problem nodes). Left out too, and
// counted, are the statements whose object is an IRI made of a string with
// a space (an "error" member of MCP's context, which is of type @id, holding
// "Connection failed"): jsonld.js drops them, json-gold and jrpcld keep
// them with the space percent-encoded (not a change of this test's concern).
func contentOf(ts []rdf.Triple, node string) (out []rdf.Triple, spaced int) {
	for _, tr := range ts {
		switch {
		case strings.HasPrefix(tr.P, rdf.JLogNS):
		case tr.P == rdf.RDFType && (tr.S.Value == node || strings.HasPrefix(tr.O.Value, rdf.JLogNS)):
		case tr.O.Kind == rdf.IRI && strings.Contains(tr.O.Value, "%20"):
			spaced++
		default:
			out = append(out, tr)
		}
	}
	return out, spaced
}
