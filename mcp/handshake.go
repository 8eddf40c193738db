package mcp

import (
	"io"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// HandshakeLimit is how many messages of a log Negotiated reads at most:
// the handshake opens a session.
const HandshakeLimit = 10000

// Handshake is what a log's initialize handshake says of the version.
type Handshake struct {
	// Version is the protocolVersion of the server's answer to
	// initialize; or, when no answer is in the log, of the client's
	// request; "" when the log has neither.
	Version string
	// Answered tells that Version is the server's.
	Answered bool
	// Line is the line (from 1) of the message Version was read from.
	Line int
}

// Negotiated reads the first messages of the log r (HandshakeLimit at
// most) for its initialize handshake: a request "initialize" and the
// response to it, sent the other way (or anywhere in a log without
// directions). The error is an I/O error of r.
func Negotiated(r *rpclog.Reader) (Handshake, error) {
	var h Handshake
	type pending struct {
		dir jsonrpc.Direction
	}
	open := map[string]pending{}
	for n := 0; n < HandshakeLimit; n++ {
		rec, err := r.Next()
		if err == io.EOF {
			return h, nil
		}
		if err != nil {
			return h, err
		}
		if rec.Err != nil {
			continue
		}
		msgs := []any{rec.Value}
		if batch, ok := rec.Value.([]any); ok {
			msgs = batch
		}
		for _, v := range msgs {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			id, hasID := m["id"]
			if !hasID {
				continue
			}
			if method, _ := m["method"].(string); method == "initialize" {
				if rec.Dir == jsonrpc.ServerToClient {
					continue
				}
				open[jsonrpc.IDKey(id)] = pending{rec.Dir}
				if h.Version == "" {
					if p, ok := m["params"].(map[string]any); ok {
						if pv, ok := p["protocolVersion"].(string); ok {
							h.Version, h.Line = pv, rec.Line
						}
					}
				}
				continue
			}
			res, ok := m["result"].(map[string]any)
			if !ok {
				continue
			}
			req, ok := open[jsonrpc.IDKey(id)]
			if !ok || (req.dir != jsonrpc.NoDirection && rec.Dir != req.dir.Opposite()) {
				continue
			}
			if pv, ok := res["protocolVersion"].(string); ok {
				return Handshake{Version: pv, Answered: true, Line: rec.Line}, nil
			}
		}
	}
	return h, nil
}
