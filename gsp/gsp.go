// Package gsp uploads RDF graphs to a SPARQL 1.1 Graph Store HTTP Protocol
// endpoint (https://www.w3.org/TR/sparql11-http-rdf-update/): Put replaces
// one graph of the store, Post adds to it.
//
// The graph is not held in memory: the caller gives a function that writes
// it, and each request streams what the function writes (chunked), so a
// retry writes it again. Connection errors and answers 5xx or 429 are
// retried a bounded number of times with exponential backoff (and the
// server's Retry-After, within the bound), while the context allows; any
// other answer fails at once with a *StatusError.
//
// A retry after a failed POST may add twice what the server had already
// taken before the failure: triples are a set, so this only matters for
// blank nodes, which each upload creates anew.
package gsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/rdf"
)

// Defaults of a Client's fields.
const (
	DefaultAttempts   = 4
	DefaultBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff = 10 * time.Second
)

// maxMessage is how much of a refusing server's answer a StatusError keeps.
const maxMessage = 512

// Client uploads graphs. The zero Client is ready to use, with the defaults
// above and http.DefaultClient.
type Client struct {
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Attempts bounds the requests one upload makes, the first included;
	// 0 means DefaultAttempts, 1 turns retries off.
	Attempts int
	// Backoff is the wait before the first retry, doubled before each
	// next one up to MaxBackoff; each wait is drawn between half of it and
	// all of it. A Retry-After from the server lengthens a wait, never past
	// MaxBackoff. 0 means the defaults.
	Backoff, MaxBackoff time.Duration
	// Header holds fields added to every request, such as Authorization.
	Header http.Header
}

// StatusError is the answer of a server that refused an upload: a status
// other than 2xx, after the retries when it was 5xx or 429.
type StatusError struct {
	Method     string // PUT or POST
	URL        string // the request's URL, any password hidden
	StatusCode int    // such as 400
	Status     string // such as "400 Bad Request"
	// Message is the start of the answer's body (at most 512 bytes), made
	// safe to print on a terminal.
	Message  string
	Attempts int // requests made
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("gsp: %s %s: %s", e.Method, e.URL, e.Status)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Put replaces the graph named graph at the Graph Store endpoint with the
// one write writes in format (a graph format: Turtle, N-Triples or
// JSON-LD). An empty graph names the store's default graph. write may be
// called once per attempt; it must write the same graph each time.
func Put(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) error {
	var c Client
	return c.Put(ctx, endpoint, graph, format, write)
}

// Post adds the graph write writes to the graph named graph, as Put
// describes; with format N-Quads and an empty graph, it adds the quads to
// the dataset, each to the graph it names, by a POST to the endpoint
// itself (not part of the protocol, but what Oxigraph and Apache Jena
// Fuseki do).
func Post(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) error {
	var c Client
	return c.Post(ctx, endpoint, graph, format, write)
}

// Put is the function Put with c's settings.
func (c *Client) Put(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) error {
	return c.upload(ctx, http.MethodPut, endpoint, graph, format, write)
}

// Post is the function Post with c's settings.
func (c *Client) Post(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) error {
	return c.upload(ctx, http.MethodPost, endpoint, graph, format, write)
}

// target returns the request URL: the endpoint with ?graph=IRI, ?default,
// or nothing for a dataset.
func target(method, endpoint, graph string, format rdf.Format) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("gsp: endpoint: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("gsp: endpoint %q is not an http or https URL", u.Redacted())
	}
	if u.Fragment != "" {
		return "", fmt.Errorf("gsp: endpoint %q has a fragment", u.Redacted())
	}
	var param string
	switch {
	case format == rdf.NQuads:
		if graph != "" {
			return "", fmt.Errorf("gsp: N-Quads name their own graphs: upload them with an empty graph IRI, or write graph %s as N-Triples", graph)
		}
		if method != http.MethodPost {
			return "", errors.New("gsp: N-Quads go to the whole dataset, which PUT would replace: use Post")
		}
	case format != rdf.Turtle && format != rdf.NTriples && format != rdf.JSONLD && format != rdf.JSONLDExpanded:
		return "", fmt.Errorf("gsp: cannot upload %s", format)
	case graph == "":
		param = "default"
	default:
		if !rdf.HasScheme(graph) || rdf.CheckIRI(graph) != nil {
			return "", fmt.Errorf("gsp: graph %q is not an absolute IRI", graph)
		}
		param = "graph=" + url.QueryEscape(graph)
	}
	if param != "" {
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += param
	}
	return u.String(), nil
}

// errAborted ends a write the request no longer reads.
var errAborted = errors.New("gsp: request ended before the graph was written")

// upload makes the attempts of one upload.
func (c *Client) upload(ctx context.Context, method, endpoint, graph string, format rdf.Format, write func(io.Writer) error) error {
	u, err := target(method, endpoint, graph, format)
	if err != nil {
		return err
	}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	most := c.MaxBackoff
	if most <= 0 {
		most = DefaultMaxBackoff
	}
	for n := 1; ; n++ {
		retry, asked, err := c.attempt(ctx, method, u, format, write)
		if err == nil {
			return nil
		}
		if !retry || n >= attempts {
			return describe(err, method, u, n)
		}
		t := time.NewTimer(min(max(asked, c.backoff(n)), most))
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("gsp: %s %s: %w (after %d attempts, the last: %v)", method, redacted(u), ctx.Err(), n, unwrapStatus(err))
		case <-t.C:
		}
	}
}

// describe gives the error of the last attempt (the nth) the method, the
// URL and the number of attempts.
func describe(err error, method, u string, n int) error {
	if se, ok := err.(*StatusError); ok {
		se.Method, se.URL, se.Attempts = method, redacted(u), n
		return se
	}
	if n > 1 {
		return fmt.Errorf("gsp: %s %s: %w (after %d attempts)", method, redacted(u), err, n)
	}
	return fmt.Errorf("gsp: %s %s: %w", method, redacted(u), err)
}

// unwrapStatus returns a StatusError's status, for a message, and any other
// error as it is.
func unwrapStatus(err error) any {
	if se, ok := err.(*StatusError); ok {
		return se.Status
	}
	return err
}

// backoff returns the wait before retry n (n >= 1): Backoff doubled n-1
// times, at most MaxBackoff, drawn between half of it and all of it.
func (c *Client) backoff(n int) time.Duration {
	b, most := c.Backoff, c.MaxBackoff
	if b <= 0 {
		b = DefaultBackoff
	}
	if most <= 0 {
		most = DefaultMaxBackoff
	}
	d := min(b, most)
	for i := 1; i < n && d < most; i++ {
		d = min(2*d, most)
	}
	return d/2 + rand.N(d/2+1)
}

// attempt makes one request. It returns whether a failure may be retried
// and the wait the server asked for (Retry-After).
func (c *Client) attempt(ctx context.Context, method, u string, format rdf.Format, write func(io.Writer) error) (retry bool, asked time.Duration, err error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := write(pw)
		pw.CloseWithError(err) // nil: the body ends there
		done <- err
	}()
	req, err := http.NewRequestWithContext(ctx, method, u, pr)
	if err != nil {
		pr.CloseWithError(errAborted)
		<-done
		return false, 0, err
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Content-Type", format.MediaType())
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, doErr := hc.Do(req)
	var status *StatusError
	if doErr == nil {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxMessage+1))
			status = &StatusError{StatusCode: resp.StatusCode, Status: resp.Status, Message: message(msg)}
			asked = retryAfter(resp.Header.Get("Retry-After"))
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // so that the connection can be reused
		resp.Body.Close()
	}
	// The writer may still be blocked on a body nobody reads any more.
	pr.CloseWithError(errAborted)
	if werr := <-done; werr != nil && !errors.Is(werr, errAborted) && !errors.Is(werr, io.ErrClosedPipe) {
		return false, 0, fmt.Errorf("writing the graph: %w", werr)
	}
	switch {
	case doErr != nil:
		if ctx.Err() != nil {
			return false, 0, ctx.Err()
		}
		return transient(doErr), 0, unwrapURLError(doErr)
	case status != nil:
		return status.StatusCode >= 500 || status.StatusCode == http.StatusTooManyRequests, asked, status
	}
	return false, 0, nil
}

// transient reports whether a transport error is worth a retry: the
// connection was refused, reset or closed early, or timed out.
func transient(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// unwrapURLError drops the *url.Error around a transport error: the
// caller's message names the method and URL itself, with the password
// hidden.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfter reads a Retry-After field: seconds, or an HTTP date.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(min(s, 24*60*60)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// message makes the start of an answer's body fit to show: cut at
// maxMessage bytes (and at a character's start), white space folded, made
// safe for a terminal.
func message(b []byte) string {
	cut := len(b) > maxMessage
	if cut {
		b = b[:maxMessage]
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0; i++ {
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	s := termsafe.Escape(strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "\uFFFD")), " "))
	if cut {
		s += "..."
	}
	return s
}

// redacted returns u with any password hidden.
func redacted(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Redacted()
}
