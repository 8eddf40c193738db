package record

import (
	"bytes"
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

// MaxBody is the most of a request body, or of a JSON response, that Proxy
// reads to record; a longer one is refused (413) or not recorded.
const MaxBody = 256 << 20

// Proxy is a reverse proxy for MCP's Streamable HTTP transport that records
// what passes: each request body sent by POST (a message or a batch), as
// sent by the client; each JSON response body, and each event of an SSE
// response (to a POST, or the stream a GET opens), as sent by the server.
// Responses stream through as they come. Requests to the upstream URL's
// path, or to "/", go to the upstream URL; others to the same path on the
// upstream's host (the OAuth metadata a client may look up there). Other
// bodies (202 Accepted, DELETE, an HTML error page) pass unrecorded; Warn is
// told of a response body that is neither JSON nor SSE.
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
				p.warn("%s %s: upstream %s: %v", r.Method, r.URL.Path, p.Upstream, err)
				http.Error(w, "jrpcld record: upstream: "+err.Error(), http.StatusBadGateway)
			},
		}
	})
	if r.Method == http.MethodPost && r.Body != nil {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
		r.Body.Close()
		if err != nil {
			http.Error(w, "jrpcld record: reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(body) > MaxBody {
			http.Error(w, fmt.Sprintf("jrpcld record: a request body over %d bytes", MaxBody), http.StatusRequestEntityTooLarge)
			return
		}
		if len(bytes.TrimSpace(body)) > 0 {
			if err := p.Log.Record(jsonrpc.ClientToServer, body); err != nil {
				p.warn("log: %v", err)
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	p.rp.ServeHTTP(w, r)
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
	switch {
	case mt == "text/event-stream":
		sp := &sseParser{emit: func(data []byte) {
			if err := p.Log.Record(jsonrpc.ServerToClient, data); err != nil {
				p.warn("log: %v", err)
			}
		}}
		resp.Body = &teeBody{r: resp.Body, p: sp}
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
		resp.Body.Close()
		if err != nil {
			return err
		}
		if len(body) > MaxBody {
			p.warn("%s %s: a JSON response over %d bytes is not recorded", req.Method, req.URL.Path, MaxBody)
		} else if len(bytes.TrimSpace(body)) > 0 {
			if err := p.Log.Record(jsonrpc.ServerToClient, body); err != nil {
				p.warn("log: %v", err)
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
	default:
		if resp.ContentLength != 0 && resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent && req.Method != http.MethodHead {
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

// teeBody is an SSE response body that feeds what is read of it to a
// parser, which records its events.
type teeBody struct {
	r      io.ReadCloser
	p      *sseParser
	closed bool
}

func (t *teeBody) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	t.p.Write(b[:n])
	if err != nil && !t.closed {
		t.closed = true
		t.p.Close()
	}
	return n, err
}

func (t *teeBody) Close() error {
	if !t.closed {
		t.closed = true
		t.p.Close()
	}
	return t.r.Close()
}
