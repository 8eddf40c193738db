package gsp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
)

// maxResults bounds the answer to a count query the package reads.
const maxResults = 64 << 10

// Count returns how many statements the named graph graph holds, asking
// the SPARQL 1.1 query endpoint queryURL (a GET with the query, answered
// with SPARQL JSON results), with the client's credentials, timeouts and
// retries. After a Put it says whether the store holds what was sent; a
// store with a union default graph counts the same.
func (c *Client) Count(ctx context.Context, queryURL, graph string) (int64, error) {
	if !rdf.HasScheme(graph) || rdf.CheckIRI(graph) != nil {
		return 0, fmt.Errorf("gsp: graph %q is not an absolute IRI", graph)
	}
	u, cred, err := c.parseEndpoint(queryURL)
	if err != nil {
		return 0, err
	}
	q := "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <" + graph + "> { ?s ?p ?o } }"
	if u.RawQuery != "" {
		u.RawQuery += "&"
	}
	u.RawQuery += "query=" + url.QueryEscape(q)
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	for n := 1; ; n++ {
		ans, err := c.exchange(ctx, http.MethodGet, u, cred, "application/sparql-results+json", nil, maxResults)
		retry := false
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			if te, ok := err.(*TimeoutError); ok {
				retry = te.Connect
			} else if _, ok := err.(*RedirectError); !ok {
				retry = transient(err)
			}
		case ans.code == http.StatusOK:
			n, err := countOf(ans.body)
			if err != nil {
				return 0, fmt.Errorf("gsp: %s %s: %v", http.MethodGet, redactURL(u), scrub(err.Error(), secrets(u, cred)))
			}
			return n, nil
		default:
			hide := secrets(u, cred)
			err = &StatusError{StatusCode: ans.code, Status: ans.status, Message: scrub(message([]byte(scrub(string(ans.body), hide))), hide), Challenge: scrub(ans.challenge, hide)}
			retry = ans.code >= 500 || ans.code == http.StatusTooManyRequests
		}
		if !retry || n >= attempts {
			return 0, describe(err, http.MethodGet, u, n)
		}
		if err := sleep(ctx, c.backoff(n)); err != nil {
			return 0, err
		}
	}
}

// countOf reads the number ?n of SPARQL JSON results with one solution.
func countOf(body []byte) (int64, error) {
	if len(body) > maxResults {
		return 0, fmt.Errorf("the answer is longer than %d bytes: not the result of a count", maxResults)
	}
	var res struct {
		Results struct {
			Bindings []map[string]struct {
				Value string `json:"value"`
			} `json:"bindings"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return 0, fmt.Errorf("the answer is not SPARQL JSON results: %v", err)
	}
	if len(res.Results.Bindings) != 1 {
		return 0, fmt.Errorf("%d solutions to a count, want 1", len(res.Results.Bindings))
	}
	v, ok := res.Results.Bindings[0]["n"]
	if !ok {
		return 0, fmt.Errorf("the count is not bound")
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v.Value), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("the count %q is not a number", message([]byte(v.Value)))
	}
	return n, nil
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
