// Package gsp uploads RDF graphs to a SPARQL 1.1 Graph Store HTTP Protocol
// endpoint (https://www.w3.org/TR/sparql11-http-rdf-update/): Put replaces
// one graph of the store, Post adds to it, and Count asks the store's
// SPARQL endpoint how many statements a graph holds, to check an upload.
//
// An upload is done only when the store answers 200, 201 or 204 to the PUT
// or POST itself. Any other answer is an error: a redirect is followed only
// when it is a 307 or 308 to the same origin (scheme, host and port), where
// the request is sent again as it was; a redirect to another origin, a 301,
// 302 or 303 (which would turn the upload into a GET), or another 2xx (202
// Accepted) says nothing was stored.
//
// The caller gives a function that writes the graph. It is called once per
// upload: what it writes is kept in memory up to Client.MemoryLimit, and
// beyond that in a temporary file, and sent with a Content-Length (some
// stores, Virtuoso among them, answer 201 to a chunked body and store
// nothing). The same bytes are sent again by each retry, redirect and
// answer to a challenge.
//
// Credentials (Client.User and Client.Password, or the user information of
// the endpoint's URL, which is never sent as such) answer a server's
// challenge, a 401 with WWW-Authenticate: Digest (RFC 7616: MD5, SHA-256
// and their -sess variants, qop auth) when the server offers it, else
// Basic. They go only to the origin of the URL a call names, and after a
// first challenge with each request to it. No message of this package holds
// them: URLs in errors have their user information removed and the values
// of their own query parameters hidden (Redact).
//
// Connection errors and answers 5xx or 429 are retried a bounded number of
// times with exponential backoff (and the server's Retry-After, within the
// bound), while the context allows; a connection that is not made within
// Client.ConnectTimeout is retried too, a request not answered within
// Client.Timeout is not. An answer 415 to one media type is tried again
// with the next one the format can be sent as (N-Triples as Turtle, N-Quads
// as TriG).
//
// A retry after a failed POST may add twice what the server had already
// taken before the failure: triples are a set, so this only matters for
// blank nodes, which each upload creates anew.
package gsp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/rdf"
)

// Defaults of a Client's fields.
const (
	DefaultAttempts       = 4
	DefaultBackoff        = 500 * time.Millisecond
	DefaultMaxBackoff     = 10 * time.Second
	DefaultConnectTimeout = 30 * time.Second
	DefaultTimeout        = 5 * time.Minute
	DefaultMemoryLimit    = 8 << 20
)

// maxMessage is how much of a refusing server's answer a StatusError keeps.
const maxMessage = 512

// maxHops bounds the exchanges of one attempt: answers to challenges and
// redirects followed.
const maxHops = 8

// expectThreshold is the size of a body past which a request asks the
// server whether it wants it (Expect: 100-continue) before sending it, so
// that a challenge or a refusal does not cost the whole graph.
const expectThreshold = 1 << 20

// Client uploads graphs. The zero Client is ready to use, with the
// defaults above. A Client is safe for concurrent use; it remembers the
// challenge each origin sent, to answer it again without being asked, and
// the media type each endpoint took.
type Client struct {
	// HTTPClient sends the requests; nil means a client of this package's
	// own: ConnectTimeout, the proxies the environment names
	// (HTTP_PROXY, ...), and no keep-alive connections, so that nothing a
	// server sends after its answer is logged by net/http as an
	// unsolicited response on an idle connection. Its redirects are
	// never followed by net/http: the package follows those it may.
	HTTPClient *http.Client
	// Attempts bounds the requests one upload makes, the first included;
	// 0 means DefaultAttempts, 1 turns retries off.
	Attempts int
	// Backoff is the wait before the first retry, doubled before each
	// next one up to MaxBackoff; each wait is drawn between half of it and
	// all of it. A Retry-After from the server lengthens a wait, never past
	// MaxBackoff. 0 means the defaults.
	Backoff, MaxBackoff time.Duration
	// ConnectTimeout bounds the making of a connection (with its TLS
	// handshake) by the package's own HTTP client; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Timeout bounds each request whole, from connecting to the end of the
	// answer; 0 means DefaultTimeout. It must leave the store the time to
	// read and load the largest graph.
	Timeout time.Duration
	// Header holds fields added to every request.
	Header http.Header
	// User and Password answer the challenges of the origin of each URL a
	// call names. The user information of that URL, if any, is used instead
	// (giving both is an error).
	User, Password string
	// MemoryLimit is how many bytes of a graph are kept in memory; the rest
	// goes to a temporary file in TempDir (os.TempDir when empty), removed
	// when the upload ends. 0 means DefaultMemoryLimit.
	MemoryLimit int64
	TempDir     string

	once sync.Once
	hc   *http.Client

	mu      sync.Mutex
	auth    map[string]*challenge // by origin: the challenge last answered
	accepts map[string]string     // by endpoint and format: the media type taken
}

// Upload is what one Put or Post sent and how the store answered.
type Upload struct {
	// Statements is the number of statements sent (lines of N-Triples or
	// N-Quads), or -1 for another format.
	Statements int64
	Bytes      int64  // the size of the body
	MediaType  string // the media type the store took
	StatusCode int    // 200, 201 or 204
	Attempts   int    // requests made, retries included
}

// Put replaces the graph named graph at the Graph Store endpoint with the
// one write writes in format (a graph format: Turtle, N-Triples or
// JSON-LD). An empty graph names the store's default graph. write is
// called once.
func Put(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) (*Upload, error) {
	var c Client
	return c.Put(ctx, endpoint, graph, format, write)
}

// Post adds the graph write writes to the graph named graph, as Put
// describes; with format N-Quads and an empty graph, it adds the quads to
// the dataset, each to the graph it names, by a POST to the endpoint
// itself (not part of the protocol, but what Oxigraph and Apache Jena
// Fuseki do).
func Post(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) (*Upload, error) {
	var c Client
	return c.Post(ctx, endpoint, graph, format, write)
}

// Put is the function Put with c's settings.
func (c *Client) Put(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) (*Upload, error) {
	return c.upload(ctx, http.MethodPut, endpoint, graph, format, write)
}

// Post is the function Post with c's settings.
func (c *Client) Post(ctx context.Context, endpoint, graph string, format rdf.Format, write func(io.Writer) error) (*Upload, error) {
	return c.upload(ctx, http.MethodPost, endpoint, graph, format, write)
}

// login is the user and password sent to one origin.
type login struct {
	user, password string
	set            bool
}

// parseEndpoint reads an endpoint URL: http or https, with a host, no
// fragment. It returns the URL without its user information, and the
// credentials to use there. Its errors never quote the URL, which may hold
// a password.
func (c *Client) parseEndpoint(endpoint string) (*url.URL, login, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, login{}, fmt.Errorf("gsp: the URL %s does not parse: %v", Redact(endpoint), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, login{}, fmt.Errorf("gsp: %s is not an http or https URL", Redact(endpoint))
	}
	if u.Fragment != "" {
		return nil, login{}, fmt.Errorf("gsp: %s has a fragment", Redact(endpoint))
	}
	cred := login{user: c.User, password: c.Password, set: c.User != "" || c.Password != ""}
	if u.User != nil {
		if cred.set {
			return nil, login{}, fmt.Errorf("gsp: %s names a user, and so does the client: give one", Redact(endpoint))
		}
		p, _ := u.User.Password()
		cred = login{user: u.User.Username(), password: p, set: true}
		u.User = nil
	}
	return u, cred, nil
}

// target returns the request URL of an upload: the endpoint with
// ?graph=IRI, ?default, or nothing for a dataset.
func (c *Client) target(method, endpoint, graph string, format rdf.Format) (*url.URL, login, error) {
	u, cred, err := c.parseEndpoint(endpoint)
	if err != nil {
		return nil, login{}, err
	}
	var param string
	switch {
	case format == rdf.NQuads:
		if graph != "" {
			return nil, login{}, fmt.Errorf("gsp: N-Quads name their own graphs: upload them with an empty graph IRI, or write graph %s as N-Triples", graph)
		}
		if method != http.MethodPost {
			return nil, login{}, errors.New("gsp: N-Quads go to the whole dataset, which PUT would replace: use Post")
		}
	case format != rdf.Turtle && format != rdf.NTriples && format != rdf.JSONLD && format != rdf.JSONLDExpanded:
		return nil, login{}, fmt.Errorf("gsp: cannot upload %s", format)
	case graph == "":
		param = "default"
	default:
		if !rdf.HasScheme(graph) || rdf.CheckIRI(graph) != nil {
			return nil, login{}, fmt.Errorf("gsp: graph %q is not an absolute IRI", graph)
		}
		param = "graph=" + url.QueryEscape(graph)
	}
	if param != "" {
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += param
	}
	return u, cred, nil
}

// mediaTypes are the media types a body in format f can be sent as, the
// first preferred: N-Triples is Turtle, and N-Quads are TriG.
func mediaTypes(f rdf.Format) []string {
	switch f {
	case rdf.NTriples:
		return []string{"application/n-triples", "text/turtle"}
	case rdf.NQuads:
		return []string{"application/n-quads", "application/trig"}
	case rdf.Turtle:
		return []string{"text/turtle", "application/x-turtle"}
	}
	return []string{f.MediaType()}
}

// upload makes the attempts of one upload.
func (c *Client) upload(ctx context.Context, method, endpoint, graph string, format rdf.Format, write func(io.Writer) error) (*Upload, error) {
	u, cred, err := c.target(method, endpoint, graph, format)
	if err != nil {
		return nil, err
	}
	body, err := c.spool(format, write)
	if err != nil {
		return nil, fmt.Errorf("gsp: writing the graph: %w", err)
	}
	defer body.close()
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	most := c.MaxBackoff
	if most <= 0 {
		most = DefaultMaxBackoff
	}
	up := &Upload{Statements: body.statements, Bytes: body.size}
	for n := 1; ; n++ {
		up.Attempts = n
		retry, asked, err := c.attempt(ctx, method, u, cred, format, body, up)
		if err == nil {
			return up, nil
		}
		if !retry || n >= attempts {
			return nil, describe(err, method, u, n)
		}
		t := time.NewTimer(min(max(asked, c.backoff(n)), most))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("gsp: %s %s: %w (after %d attempts, the last: %v)", method, redactURL(u), ctx.Err(), n, unwrapStatus(err))
		case <-t.C:
		}
	}
}

// attempt makes one attempt of an upload: a request, and the requests that
// answer a challenge, follow a redirect or try another media type. It
// returns whether a failure may be retried and the wait the server asked
// for (Retry-After).
func (c *Client) attempt(ctx context.Context, method string, u *url.URL, cred login, format rdf.Format, body *spool, up *Upload) (retry bool, asked time.Duration, err error) {
	types := mediaTypes(format)
	key := u.String() + " " + format.String()
	start := 0
	c.mu.Lock()
	if mt, ok := c.accepts[key]; ok {
		for i, t := range types {
			if t == mt {
				start = i
			}
		}
	}
	c.mu.Unlock()
	for i := start; i < len(types); i++ {
		ans, err := c.exchange(ctx, method, u, cred, types[i], body, maxMessage)
		if err != nil {
			var te *TimeoutError
			if errors.As(err, &te) {
				return te.Connect, 0, err
			}
			if ctx.Err() != nil {
				return false, 0, ctx.Err()
			}
			var re *RedirectError
			if errors.As(err, &re) {
				return false, 0, err
			}
			return transient(err), 0, err
		}
		switch code := ans.code; {
		case code == http.StatusOK || code == http.StatusCreated || code == http.StatusNoContent:
			up.MediaType, up.StatusCode = types[i], code
			c.mu.Lock()
			if c.accepts == nil {
				c.accepts = map[string]string{}
			}
			c.accepts[key] = types[i]
			c.mu.Unlock()
			return false, 0, nil
		case code == http.StatusUnsupportedMediaType && i+1 < len(types):
			continue
		case code >= 200 && code <= 299:
			return false, 0, &StatusError{StatusCode: code, Status: ans.status,
				Message: "the server did not say the graph was stored (only 200, 201 or 204 do)"}
		default:
			hide := secrets(u, cred)
			se := &StatusError{StatusCode: code, Status: ans.status, Message: scrub(message([]byte(scrub(string(ans.body), hide))), hide), Challenge: scrub(ans.challenge, hide)}
			return code >= 500 || code == http.StatusTooManyRequests, retryAfter(ans.header.Get("Retry-After")), se
		}
	}
	panic("unreachable")
}

// describe gives the error of the last attempt (the nth) the method, the
// URL and the number of attempts.
func describe(err error, method string, u *url.URL, n int) error {
	switch e := err.(type) {
	case *StatusError:
		e.Method, e.URL, e.Attempts = method, redactURL(u), n
		return e
	case *RedirectError, *TimeoutError:
		if n > 1 {
			return fmt.Errorf("%w (after %d attempts)", err, n)
		}
		return err
	}
	if n > 1 {
		return fmt.Errorf("gsp: %s %s: %w (after %d attempts)", method, redactURL(u), err, n)
	}
	return fmt.Errorf("gsp: %s %s: %w", method, redactURL(u), err)
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

// answer is what the package keeps of a response: its status, header and
// the start of its body.
type answer struct {
	code      int
	status    string
	header    http.Header
	body      []byte
	challenge string // for a 401: what it asks for, printable
}

// httpClient returns the client requests go through: the caller's, made
// not to follow redirects, or the package's own.
func (c *Client) httpClient() *http.Client {
	c.once.Do(func() {
		if c.HTTPClient != nil {
			hc := *c.HTTPClient
			hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			c.hc = &hc
			return
		}
		connect := c.ConnectTimeout
		if connect <= 0 {
			connect = DefaultConnectTimeout
		}
		c.hc = &http.Client{
			Transport: &http.Transport{
				Proxy:                 http.ProxyFromEnvironment,
				DialContext:           (&net.Dialer{Timeout: connect}).DialContext,
				TLSHandshakeTimeout:   connect,
				DisableKeepAlives:     true,
				ExpectContinueTimeout: time.Second,
				ForceAttemptHTTP2:     true,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	})
	return c.hc
}

// exchange sends one request (body nil: none) and returns the answer,
// after answering a challenge when it has credentials and following a 307
// or 308 to the same origin. It keeps at most keep bytes of the body.
func (c *Client) exchange(ctx context.Context, method string, u *url.URL, cred login, mediaType string, body *spool, keep int) (*answer, error) {
	origin := originOf(u)
	challenged := false
	for hop := 0; hop < maxHops; hop++ {
		ans, err := c.do(ctx, method, u, cred, mediaType, body, keep)
		if err != nil {
			return nil, err
		}
		switch ans.code {
		case http.StatusUnauthorized:
			ch, printable := pickChallenge(ans.header.Values("WWW-Authenticate"))
			ans.challenge = printable
			if ch == nil || !cred.set || challenged && !ch.stale {
				return ans, nil
			}
			challenged = true
			c.mu.Lock()
			if c.auth == nil {
				c.auth = map[string]*challenge{}
			}
			c.auth[origin] = ch
			c.mu.Unlock()
			continue
		case http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			loc, err := u.Parse(ans.header.Get("Location"))
			if err != nil || ans.header.Get("Location") == "" {
				return nil, &RedirectError{Method: method, URL: redactURL(u), Status: ans.status, StatusCode: ans.code}
			}
			if originOf(loc) != origin || loc.User != nil {
				return nil, &RedirectError{Method: method, URL: redactURL(u), Status: ans.status, StatusCode: ans.code, Location: scrub(redactURL(loc), secrets(u, cred)), OtherHost: true}
			}
			loc.Fragment = ""
			u = loc
			continue
		case http.StatusMultipleChoices, http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusUseProxy:
			re := &RedirectError{Method: method, URL: redactURL(u), Status: ans.status, StatusCode: ans.code}
			if loc, err := u.Parse(ans.header.Get("Location")); err == nil && ans.header.Get("Location") != "" {
				re.Location, re.OtherHost = scrub(redactURL(loc), secrets(u, cred)), originOf(loc) != origin
			}
			return nil, re
		}
		return ans, nil
	}
	return nil, fmt.Errorf("more than %d redirects or challenges", maxHops)
}

// do makes one request and reads its answer, within Timeout.
func (c *Client) do(ctx context.Context, method string, u *url.URL, cred login, mediaType string, body *spool, keep int) (*answer, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if body != nil {
		req.ContentLength = body.size
		req.Body = http.NoBody
		if body.size > 0 {
			req.Body = io.NopCloser(body.reader())
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(body.reader()), nil }
			if body.size > expectThreshold {
				req.Header.Set("Expect", "100-continue")
			}
		}
		req.Header.Set("Content-Type", mediaType)
	} else if mediaType != "" {
		req.Header.Set("Accept", mediaType)
	}
	if cred.set {
		c.mu.Lock()
		ch := c.auth[originOf(u)]
		var authz string
		if ch != nil {
			authz = ch.authorization(method, u.RequestURI(), cred.user, cred.password)
		}
		c.mu.Unlock()
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		err = unwrapURLError(err)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case rctx.Err() != nil:
			return nil, &TimeoutError{Method: method, URL: redactURL(u), After: timeout}
		case isDialTimeout(err):
			connect := c.ConnectTimeout
			if connect <= 0 {
				connect = DefaultConnectTimeout
			}
			return nil, &TimeoutError{Method: method, URL: redactURL(u), Connect: true, After: connect}
		}
		return nil, err
	}
	defer resp.Body.Close()
	ans := &answer{code: resp.StatusCode, status: resp.Status, header: resp.Header}
	ans.body, err = io.ReadAll(io.LimitReader(resp.Body, int64(keep)+1))
	if err != nil && rctx.Err() != nil && ctx.Err() == nil {
		return nil, &TimeoutError{Method: method, URL: redactURL(u), After: timeout}
	}
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return ans, nil
}

// isDialTimeout reports whether err is a connection not made in time.
func isDialTimeout(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" && op.Timeout()
}

// transient reports whether a transport error is worth a retry: the
// connection was refused, reset or closed early.
func transient(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// unwrapURLError drops the *url.Error around a transport error: the
// caller's message names the method and URL itself, redacted.
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

// secrets returns what no message may show of a request to u with cred,
// though a server may quote it back (in the body of an error, a realm, a
// Location): the password, the user name, Basic's encoding of the two,
// and the values of u's query parameters other than graph and default (see
// Redact); each as it is and URL-encoded, the longest first. A user name
// or value shorter than three bytes is not one: hiding it would hide every
// word it is part of.
func secrets(u *url.URL, cred login) []string {
	var raw []string
	if cred.set {
		raw = append(raw, cred.password, base64.StdEncoding.EncodeToString([]byte(cred.user+":"+cred.password)))
		if len(cred.user) >= 3 {
			raw = append(raw, cred.user)
		}
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		name, value, ok := strings.Cut(p, "=")
		if ok && name != "graph" && name != "default" && len(value) >= 3 {
			raw = append(raw, value)
			if v, err := url.QueryUnescape(value); err == nil {
				raw = append(raw, v)
			}
		}
	}
	var out []string
	for _, s := range raw {
		if s != "" {
			out = append(out, s, url.QueryEscape(s), url.PathEscape(s))
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// scrub returns s with each of secrets replaced by xxxxx.
func scrub(s string, secrets []string) string {
	for _, x := range secrets {
		s = strings.ReplaceAll(s, x, "xxxxx")
	}
	return s
}

// originOf returns the origin of u: its scheme, host and port (the
// scheme's default when it names none).
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// Redact returns the URL u fit to print: without its user information
// (user and password), and with the value of each query parameter but
// graph and default hidden, since a store may take a key there. A string
// that does not parse as a URL, or has no authority, gives only its
// scheme, if it has one.
func Redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		if i := strings.Index(u, "://"); i > 0 && !strings.ContainsAny(u[:i], "@:/") {
			return termsafe.Escape(u[:i]) + "://..."
		}
		return "(a URL that does not parse)"
	}
	return redactURL(p)
}

// redactURL is Redact for a parsed URL.
func redactURL(u *url.URL) string {
	r := *u
	if r.Opaque != "" {
		return termsafe.Escape(r.Scheme) + ":..."
	}
	r.User = nil
	if r.RawQuery != "" {
		parts := strings.Split(r.RawQuery, "&")
		for i, p := range parts {
			name, _, hasValue := strings.Cut(p, "=")
			if hasValue && name != "graph" && name != "default" {
				parts[i] = name + "=xxxxx"
			}
		}
		r.RawQuery = strings.Join(parts, "&")
	}
	return termsafe.Escape(r.String())
}
