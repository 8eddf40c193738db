package convert

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/jrpcld/jrpcld/convert/jlog"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// splitTestLog returns a log of n lines whose ids repeat across
// directions and across the log: answered and unanswered requests,
// responses to nothing, notifications, batches, messages that break the
// rules (some pairing by their shape) and lines that are not JSON.
func splitTestLog(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		dir := []string{"c2s", "s2c"}[r.IntN(2)]
		id := r.IntN(6)
		var msg string
		switch k := r.IntN(12); k {
		case 0, 1, 2:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m%d","params":{"i":%d}}`, id, i%3, i)
		case 3, 4:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"i":%d}}`, id, i)
		case 5:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":"%d","error":{"code":-1,"message":"e"}}`, id)
		case 6:
			msg = `{"jsonrpc":"2.0","method":"note"}`
		case 7:
			msg = fmt.Sprintf(`[{"jsonrpc":"2.0","id":%d,"method":"a"},{"jsonrpc":"2.0","id":%d.0,"result":1},{"bad":1}]`, id, id)
		case 8:
			msg = fmt.Sprintf(`{"jsonrpc":"1.0","id":%d,"result":2}`, id)
		case 9:
			b.WriteString("not JSON\n")
			continue
		case 10:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":"%d","method":"s"}`, id)
		default:
			msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"result":%d}`, i)
		}
		fmt.Fprintf(&b, `{"dir":%q,"ts":"2026-11-24T10:00:%02dZ","msg":%s}`+"\n", dir, i%60, msg)
	}
	return b.String()
}

// TestPairEntriesByID converts logs the way a log read in pieces is: the
// pairing entries grouped by id, each group replayed on its own Pairer in
// a random order of groups, then every record built from its Pairing, and
// the requests left open typed. The graph is the one Convert writes.
func TestPairEntriesByID(t *testing.T) {
	const iri = "http://example.com/log"
	r := rand.New(rand.NewPCG(1, 16))
	for i := range 4 {
		text := splitTestLog(r, 50+100*i)
		var want bytes.Buffer
		c := NewConverter(toolchaintest.DefaultContext(t))
		rd, err := rpclog.NewReader(strings.NewReader(text), "in", rpclog.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Convert(&want, rdf.NQuads, []Log{{Reader: rd, File: "in", IRI: iri}}); err != nil {
			t.Fatal(err)
		}
		wantQuads, err := rdftest.ParseNQuads(want.Bytes())
		if err != nil {
			t.Fatal(err)
		}

		// The records and their entries, grouped by id.
		rd, _ = rpclog.NewReader(strings.NewReader(text), "in", rpclog.ReaderOptions{})
		type record struct {
			rec *rpclog.Record
			m   jsonrpc.Message
		}
		var recs []record
		groups := map[string][]PairEntry{}
		for pos := 1; ; pos++ {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			rec.Raw = bytes.Clone(rec.Raw)
			var m jsonrpc.Message
			if rec.Err == nil {
				m = jsonrpc.Classify(rec.Value)
				for _, e := range PairEntries(nil, rec, pos, m) {
					groups[e.ID] = append(groups[e.ID], e)
				}
			}
			recs = append(recs, record{rec, m})
		}
		if len(groups) < 4 {
			t.Fatalf("only %d ids: the test log does not reuse ids across kinds", len(groups))
		}
		answers := map[[2]int]string{} // (pos, member) -> request
		var open []string
		keys := make([]string, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		for _, k := range keys {
			p := NewPairer(iri)
			for _, e := range groups[k] {
				if a := p.Pair(e); a != "" {
					answers[[2]int{e.Pos, e.Member}] = a
				}
			}
			open = append(open, p.Unanswered()...)
		}

		g, err := c.NewLogGraph(iri)
		if err != nil {
			t.Fatal(err)
		}
		var got []rdf.Triple
		first := true
		for i, x := range recs {
			if x.rec.Err != nil {
				continue
			}
			pos := i + 1
			p := Pairing{First: first, Answers: answers[[2]int{pos, -1}]}
			first = false
			if x.m.Kind == jsonrpc.KindBatch {
				p.Members = make([]string, len(x.m.Members))
				for j := range p.Members {
					p.Members[j] = answers[[2]int{pos, j}]
				}
			}
			got, _, err = g.Build(got, x.rec, pos, x.m, p)
			if err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, UnansweredTriples(open)...)
		gotQuads := make([]rdf.Quad, len(got))
		for j, tr := range got {
			gotQuads[j] = rdf.Quad{Triple: tr, G: rdf.NewIRI(iri)}
		}
		if ok, why := rdftest.IsomorphicQuads(gotQuads, wantQuads); !ok {
			t.Errorf("log %d (%d statements, Convert %d): %s", i, len(gotQuads), len(wantQuads), why)
		}
	}
}

// TestPositionText checks positionText against strconv.Itoa on the message
// IRIs jlog makes, and that it allocates nothing.
func TestPositionText(t *testing.T) {
	const log = "http://example.com/log"
	for _, dir := range []jsonrpc.Direction{jsonrpc.NoDirection, jsonrpc.ClientToServer, jsonrpc.ServerToClient} {
		for _, pos := range []int{1, 9, 10, 11, 99, 100, 101, 999, 1000, 65536, 1234567, 1 << 40} {
			iri := jlog.MessageIRI(log, dir, pos)
			if got, want := positionText(iri, pos), strconv.Itoa(pos); got != want {
				t.Errorf("positionText(%q, %d) = %q, want %q", iri, pos, got, want)
			}
		}
	}
	iri := jlog.MessageIRI(log, jsonrpc.ClientToServer, 123456)
	if n := testing.AllocsPerRun(100, func() { _ = positionText(iri, 123456) }); n != 0 {
		t.Errorf("positionText: %v allocations, want 0", n)
	}
}
