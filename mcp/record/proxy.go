package record

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"

	"github.com/jrpcld/jrpcld/jsonrpc"
)

// Proxy is a reverse proxy for MCP's Streamable HTTP transport that records
// what passes: each request body sent by POST (a message or a batch), as
// sent by the client; each JSON response body, and each event of an SSE
// response (to a POST, or the stream a GET opens), as sent by the server.
// Responses stream through as they come. Requests to the upstream URL's
// path, or to "/", go to the upstream URL; others to the same path on the
// upstream's host (the OAuth metadata a client may look up there). Other
// bodies (202 Accepted, the answer to the DELETE that ends a session, an
// HTML error page) pass unrecorded; Warn is told of a response body that
// is neither JSON nor SSE, other than the answer to a DELETE.
//
// Each message is logged with its MCP session (Log.RecordIn): the
// Mcp-Session-Id header of the request, or of the response when the server
// names the session there. A request without the header waits for the
// response's headers to be logged, so that the initialize request that
// opens a session is logged in it.
//
// A body or an event is held in memory to be recorded up to the Log's Max
// bytes: a longer one passes unchanged, streamed, and is logged cut
// (Log.RecordCut). Each message is logged before the peer has it whole: a
// request with a session before the server has its last byte, one without
// before the client has the response's headers, a JSON response or an SSE
// event before the client has its last byte (for an event, the blank line
// that dispatches it). So a message is logged before any answer to it, and
// an event is logged only once the stream has dispatched it: the end of
// the stream inside an event discards that event, as a client does.
type Proxy struct {
	Upstream *url.URL
	Log      *Log
	// Warn, when not nil, is told what is not recorded and why.
	Warn func(msg string)
	// Transport makes the upstream requests (http.DefaultTransport when
	// nil).
	Transport http.RoundTripper

	once sync.Once
	rp   *httputil.ReverseProxy
}

// ServeHTTP forwards r upstream and the response back, recording both.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.once.Do(func() {
		p.rp = &httputil.ReverseProxy{
			Rewrite:        p.rewrite,
			ModifyResponse: p.modifyResponse,
			FlushInterval:  -1, // SSE events reach the client as they come
			Transport:      p.Transport,
			ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
				p.logHeld(r, "")
				p.warn("%s %s: upstream %s: %v", r.Method, r.URL.Path, p.Upstream, err)
				http.Error(w, "jrpcld record: upstream: "+err.Error(), http.StatusBadGateway)
			},
		}
	})
	if r.Method == http.MethodPost && r.Body != nil {
		body, rest, err := p.hold(r.Body)
		if err != nil {
			http.Error(w, "jrpcld record: reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		session := r.Header.Get(SessionHeader)
		if rest != nil {
			r.Body = p.tail(rest, session, jsonrpc.ClientToServer, body, r.Method+" "+r.URL.Path+": the request body")
		} else {
			if len(bytes.TrimSpace(body)) > 0 {
				if session == "" {
					// The server may name the session in its answer
					// (to initialize): the request is logged with it,
					// once the answer's headers are in.
					r = r.WithContext(context.WithValue(r.Context(), heldKey{}, &held{body: body}))
				} else {
					p.record(session, jsonrpc.ClientToServer, body)
				}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
	}
	p.rp.ServeHTTP(w, r)
}

// SessionHeader is the header of Streamable HTTP that names the MCP
// session; the proxy logs each message with its value.
const SessionHeader = "Mcp-Session-Id"

// heldKey is the context key of a request body without a session, not
// logged yet.
type heldKey struct{}

// held is a request body that waits for the response's headers to be
// logged with the session they name.
type held struct {
	body   []byte
	logged bool
}

// logHeld logs the request body r held, if any and not logged yet, in
// session.
func (p *Proxy) logHeld(r *http.Request, session string) {
	h, _ := r.Context().Value(heldKey{}).(*held)
	if h == nil || h.logged {
		return
	}
	h.logged = true
	p.record(session, jsonrpc.ClientToServer, h.body)
}

// record logs text, sent in direction dir in session, and warns of an
// error of the log.
func (p *Proxy) record(session string, dir jsonrpc.Direction, text []byte) {
	if err := p.Log.RecordIn(session, dir, text); err != nil {
		p.warn("log: %v", err)
	}
}

// rewrite points the outgoing request at the upstream.
func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	u := *p.Upstream
	in := pr.In.URL
	if in.Path != "/" && in.Path != "" && in.Path != u.Path {
		u.Path, u.RawPath = in.Path, in.RawPath
	}
	if in.RawQuery != "" {
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += in.RawQuery
	}
	pr.Out.URL = &u
	pr.Out.Host = ""
	// The recorder reads the responses: the transport asks for gzip and
	// undoes it, whatever the client accepts.
	pr.Out.Header.Del("Accept-Encoding")
}

// modifyResponse records a JSON response whole, and the events of an SSE
// response as they pass.
func (p *Proxy) modifyResponse(resp *http.Response) error {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	req := resp.Request
	session := resp.Header.Get(SessionHeader)
	if session == "" {
		session = req.Header.Get(SessionHeader)
	}
	p.logHeld(req, session)
	switch {
	case mt == "text/event-stream":
		what := req.Method + " " + req.URL.Path + ": the SSE stream"
		sp := &SSEParser{Max: p.Log.max(), Emit: func(e Event) {
			if !e.IsMessage() {
				return
			}
			var err error
			if e.Cut() {
				err = p.Log.RecordCutIn(session, jsonrpc.ServerToClient, e.Data, e.Len)
			} else {
				err = p.Log.RecordIn(session, jsonrpc.ServerToClient, e.Data)
			}
			if err != nil {
				p.warn("log: %v", err)
			}
		}}
		resp.Body = &sseBody{r: resp.Body, p: sp, end: func(n int64) {
			if n > 0 {
				p.warn("%s ended inside an event (%d bytes of data and no blank line after them): not recorded, as the client does not dispatch it", what, n)
			}
		}}
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		body, rest, err := p.hold(resp.Body)
		if err != nil {
			return err
		}
		if rest != nil {
			resp.Body = p.tail(rest, session, jsonrpc.ServerToClient, body, req.Method+" "+req.URL.Path+": the JSON response")
			break
		}
		if len(bytes.TrimSpace(body)) > 0 {
			p.record(session, jsonrpc.ServerToClient, body)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
	default:
		// A DELETE ends the session (Streamable HTTP): its answer carries
		// no message, whatever its body, and is no problem.
		if resp.ContentLength != 0 && resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent && req.Method != http.MethodHead && req.Method != http.MethodDelete {
			p.warn("%s %s: %s response of type %q, neither JSON nor SSE: not recorded", req.Method, req.URL.Path, resp.Status, mt)
		}
	}
	return nil
}

func (p *Proxy) warn(format string, args ...any) {
	if p.Warn != nil {
		p.Warn(fmt.Sprintf(format, args...))
	}
}

// hold reads a body to record it: the whole body, closed, when it is at
// most the Log's Max bytes long (rest is nil); otherwise its first Max+1
// bytes, and rest, the whole body to stream on (those bytes, then the rest
// of body).
func (p *Proxy) hold(body io.ReadCloser) (head []byte, rest io.ReadCloser, err error) {
	max := p.Log.max()
	head, err = io.ReadAll(io.LimitReader(body, int64(max)+1))
	if err != nil || len(head) <= max {
		body.Close()
		return head, nil, err
	}
	return head, readCloser{io.MultiReader(bytes.NewReader(head), body), body}, nil
}

// tail returns rest, a body too long to hold (what names it in warnings),
// streamed on: it is logged cut, with head, its first bytes, once it has
// all been read and before its last byte is handed on.
func (p *Proxy) tail(rest io.ReadCloser, session string, dir jsonrpc.Direction, head []byte, what string) io.ReadCloser {
	head = bytes.Clone(head[:min(len(head), cutKeep)])
	return &tailBody{br: bufio.NewReaderSize(rest, 32<<10), c: rest, end: func(n int64, err error) {
		if err != nil {
			p.warn("%s, over %d bytes, ended after %d bytes (%v): not recorded", what, p.Log.max(), n, err)
			return
		}
		if err := p.Log.RecordCutIn(session, dir, head, n); err != nil {
			p.warn("log: %v", err)
		}
	}}
}

// readCloser is a Reader with the Close of another.
type readCloser struct {
	io.Reader
	io.Closer
}

// tailBody passes a body on, counting its bytes, and calls end once it has
// ended: before its last byte is handed on (it looks one byte ahead), with
// a nil error; or with the error that ended it, or on Close before its end.
type tailBody struct {
	br  *bufio.Reader
	c   io.Closer
	n   int64
	end func(n int64, err error)
}

func (t *tailBody) Read(b []byte) (int, error) {
	n, err := t.br.Read(b)
	t.n += int64(n)
	if err == nil && n > 0 {
		// Is that the end?
		_, err = t.br.Peek(1)
		if err != io.EOF {
			return n, nil // more, or an error the next Read returns
		}
	}
	if err == io.EOF {
		t.done(nil)
	} else if err != nil {
		t.done(err)
	}
	return n, err
}

func (t *tailBody) done(err error) {
	if t.end != nil {
		t.end(t.n, err)
		t.end = nil
	}
}

func (t *tailBody) Close() error {
	t.done(errors.New("closed before its end"))
	return t.c.Close()
}

// sseBody is an SSE response body that feeds what is read of it to a
// parser, which records its events, and calls end with what the parser
// discards when the body ends or is closed.
type sseBody struct {
	r   io.ReadCloser
	p   *SSEParser
	end func(n int64)
}

func (s *sseBody) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	s.p.Write(b[:n])
	if err != nil {
		s.done()
	}
	return n, err
}

func (s *sseBody) done() {
	if s.end != nil {
		s.end(s.p.Close())
		s.end = nil
	}
}

func (s *sseBody) Close() error {
	s.done()
	return s.r.Close()
}
