package rpclog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

// Generator writes synthetic logs of any size from real ones: it cycles
// through the template messages, giving each cycle fresh ids (requests and
// their responses keep matching) and later timestamps, so that a large log
// has the sizes, the kinds and the pairing of the recorded traffic.
type Generator struct {
	msgs     []genMsg
	envelope bool          // the templates had direction and time
	span     time.Duration // from the first to the last timestamp, plus a second
	idStep   int64         // numeric ids are shifted by a multiple of this
}

type genMsg struct {
	dir   jsonrpc.Direction
	ts    time.Time
	hasTS bool
	value any
	bytes []byte // the bytes of a message that is no JSON text (Record.Bytes), or nil
}

// NewGenerator reads the template messages of logs (any form a Reader
// reads). Unreadable records are left out; the bytes of a message an
// envelope held (Record.Bytes) are a template, written again as they are.
func NewGenerator(logs ...*Reader) (*Generator, error) {
	g := &Generator{idStep: 1}
	var first, last time.Time
	for _, r := range logs {
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.name, err)
			}
			if !rec.Kept() {
				continue
			}
			m := genMsg{dir: rec.Dir, value: rec.Value}
			if rec.Bytes {
				m.bytes = bytes.Clone(rec.Raw)
			}
			if rec.Dir != jsonrpc.NoDirection || rec.Bytes {
				g.envelope = true
			}
			if t, err := time.Parse(time.RFC3339Nano, rec.TS); err == nil {
				m.ts, m.hasTS = t, true
				if first.IsZero() || t.Before(first) {
					first = t
				}
				if t.After(last) {
					last = t
				}
			}
			g.noteIDs(rec.Value)
			g.msgs = append(g.msgs, m)
		}
	}
	if len(g.msgs) == 0 {
		return nil, errors.New("no template messages")
	}
	g.span = last.Sub(first) + time.Second
	return g, nil
}

// noteIDs makes idStep larger than every numeric id of the templates.
func (g *Generator) noteIDs(v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			g.noteIDs(e)
		}
	case map[string]any:
		if n, ok := x["id"].(json.Number); ok {
			if i, err := n.Int64(); err == nil && i >= g.idStep {
				g.idStep = i + 1
			}
		}
	}
}

// Generate writes n messages to w as JSON lines (envelopes when the templates
// had them, or held bytes).
func (g *Generator) Generate(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := 0; i < n; i++ {
		cycle := i / len(g.msgs)
		t := g.msgs[i%len(g.msgs)]
		v := g.freshIDs(t.value, cycle)
		var err error
		if g.envelope {
			env := map[string]any{"msg": v}
			if t.bytes != nil {
				env = map[string]any{"bytes": t.bytes} // encoding/json writes []byte in standard base64
			}
			if t.dir != jsonrpc.NoDirection {
				env["dir"] = t.dir
			}
			if t.hasTS {
				env["ts"] = t.ts.Add(time.Duration(cycle) * g.span).UTC().Format("2006-01-02T15:04:05.000Z07:00")
			}
			err = enc.Encode(env)
		} else {
			err = enc.Encode(v)
		}
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

// freshIDs returns v with its id (and its batch members' ids) made unique
// to the cycle: numbers shifted by cycle*idStep, strings suffixed.
func (g *Generator) freshIDs(v any, cycle int) any {
	if cycle == 0 {
		return v
	}
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = g.freshIDs(e, cycle)
		}
		return out
	case map[string]any:
		id, ok := x["id"]
		if !ok {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		switch id := id.(type) {
		case json.Number:
			if i, err := id.Int64(); err == nil {
				out["id"] = json.Number(strconv.FormatInt(i+int64(cycle)*g.idStep, 10))
			}
		case string:
			out["id"] = fmt.Sprintf("%s~%d", id, cycle)
		}
		return out
	}
	return v
}
