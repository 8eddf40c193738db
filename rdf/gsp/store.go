package gsp

import (
	"context"
	"io"
	"net/url"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/internal/netrc"
	"github.com/jrpcld/jrpcld/rdf"
)

// A Store uploads graphs to a Graph Store endpoint and verifies each, by
// counting the statements of the graph through the store's SPARQL query
// endpoint: an upload counts as done only once the store holds what was
// sent.
type Store struct {
	Endpoint string  // the Graph Store endpoint's URL
	Post     bool    // add to each graph (POST) rather than replace it (PUT)
	Client   *Client // the client that uploads
	// Query is the SPARQL query endpoint that counts, with the client
	// Queries; "" when the uploads are not verified. Guessed says it is
	// the one QueryBeside gives, not one the user gave: when it fails, an
	// upload is left unverified rather than failed.
	Query   string
	Queries *Client
	Guessed bool
}

// Stored is one upload and what its verification found.
type Stored struct {
	*Upload
	Verified bool  // the graph's statements were counted
	Held     int64 // how many, when Verified
	// Unverified is why a count through a guessed Query failed: the upload
	// stands, not verified.
	Unverified error
}

// Upload sends the graph write writes in format as the named graph graph,
// replacing it or adding to it, and then counts the statements the graph
// holds. The error is a *NotStoredError when the store did not take the
// graph, a *NotVerifiedError when the count failed (Query given), and an
// *IncompleteError when the graph holds fewer statements than were sent
// (or, replaced, another number).
func (s *Store) Upload(ctx context.Context, graph string, format rdf.Format, write func(io.Writer) error) (*Stored, error) {
	up := s.Client.Put
	if s.Post {
		up = s.Client.Post
	}
	res, err := up(ctx, s.Endpoint, graph, format, write)
	if err != nil {
		return nil, &NotStoredError{Graph: graph, Err: err}
	}
	st := &Stored{Upload: res}
	if s.Query == "" {
		return st, nil
	}
	n, err := s.Queries.Count(ctx, s.Query, graph)
	switch {
	case err != nil && s.Guessed:
		st.Unverified = err
		return st, nil
	case err != nil:
		return nil, &NotVerifiedError{Graph: graph, Err: err}
	case !s.Post && n != res.Statements, s.Post && n < res.Statements:
		return nil, &IncompleteError{Graph: graph, StatusCode: res.StatusCode, Held: n, Sent: res.Statements, Post: s.Post}
	}
	st.Verified, st.Held = true, n
	return st, nil
}

// QueryBeside returns the SPARQL query endpoint of a store whose Graph
// Store endpoint is u, for the layouts of Virtuoso (/sparql-graph-crud,
// /sparql-graph-crud-auth: /sparql, /sparql-auth), Oxigraph (/store:
// /query) and Fuseki (/DATASET/data: /DATASET/sparql); "" for another.
func QueryBeside(u *url.URL) string {
	q := *u
	q.RawQuery, q.Fragment = "", ""
	dir, base := path.Split(strings.TrimSuffix(u.Path, "/"))
	switch {
	case base == "sparql-graph-crud":
		q.Path = dir + "sparql"
	case base == "sparql-graph-crud-auth":
		q.Path = dir + "sparql-auth"
	case base == "store" && dir == "/":
		q.Path = "/query"
	case base == "data" && dir != "/":
		q.Path = dir + "sparql"
	default:
		return ""
	}
	return q.String()
}

// QueryLogin returns the credentials to give the query endpoint q of the
// store at u, whose own are user and password: none besides those q holds;
// on the store's origin (scheme, host and port), the store's; on another,
// those ~/.netrc gives for q's host.
func QueryLogin(q, u *url.URL, user, password string) (string, string) {
	switch {
	case q.User != nil:
		return "", ""
	case sameOrigin(q, u):
		return user, password
	}
	if l, ok := NetrcLogin(q.Hostname()); ok {
		return l.User, l.Password
	}
	return "", ""
}

// NetrcLogin returns the login ~/.netrc (or $NETRC) gives for host. A file
// that cannot be read gives none.
func NetrcLogin(host string) (netrc.Login, bool) {
	p, err := netrc.Path()
	if err != nil {
		return netrc.Login{}, false
	}
	l, ok, err := netrc.Lookup(p, host)
	if err != nil || l.User == "" {
		return netrc.Login{}, false
	}
	return l, ok
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && a.Port() == b.Port()
}
