package gsp

import (
	"fmt"
	"net/http"
	"time"
)

// StatusError is the answer of a server that refused an upload or a query:
// a status other than the ones that say it was done, after the retries
// when it was 5xx or 429.
type StatusError struct {
	Method     string // PUT, POST or GET
	URL        string // the request's URL, redacted (see Redact)
	StatusCode int    // such as 400
	Status     string // such as "400 Bad Request"
	// Message is the start of the answer's body (at most 512 bytes), made
	// safe to print on a terminal, or what the status means for an upload.
	Message string
	// Challenge is, for a 401, the authentication the server asks for
	// (such as `Digest realm="SPARQL"`), safe to print.
	Challenge string
	Attempts  int // requests made
}

// Error names the request, the status and what the server said.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("gsp: %s %s: %s", e.Method, e.URL, e.Status)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	if e.Challenge != "" {
		s += ": the server asks for " + e.Challenge
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// RedirectError is an answer 3xx the package did not follow: nothing is
// known to be stored.
type RedirectError struct {
	Method     string
	URL        string // the request's URL, redacted
	Status     string // such as "302 Found"
	Location   string // where the server points, redacted; "" if it names none
	OtherHost  bool   // Location is on another origin
	StatusCode int
}

// Error names the request, where it was sent and why it was not followed.
func (e *RedirectError) Error() string {
	where := "without a Location"
	if e.Location != "" {
		where = "to " + e.Location
	}
	why := "only a 307 or 308 to the same origin is followed"
	switch {
	case e.OtherHost:
		why = "another origin than the endpoint's: not followed, and no credential goes there"
	case e.StatusCode == http.StatusMovedPermanently || e.StatusCode == http.StatusFound || e.StatusCode == http.StatusSeeOther:
		why = "not followed: it would turn the upload into a GET"
	}
	return fmt.Sprintf("gsp: %s %s: the server answered %s, redirecting %s (%s): nothing is known to be stored", e.Method, e.URL, e.Status, where, why)
}

// TimeoutError is a request that did not get its answer in time: no
// connection within ConnectTimeout, or no whole answer within Timeout.
type TimeoutError struct {
	Method  string
	URL     string // redacted
	Connect bool   // the connection was not made in time
	After   time.Duration
}

// Error names the request and the time it was given.
func (e *TimeoutError) Error() string {
	if e.Connect {
		return fmt.Sprintf("gsp: %s %s: no connection within %v", e.Method, e.URL, e.After)
	}
	return fmt.Sprintf("gsp: %s %s: no answer within %v", e.Method, e.URL, e.After)
}

// Timeout reports true: a TimeoutError is a timeout.
func (e *TimeoutError) Timeout() bool { return true }

// NotStoredError is an upload of Store.Upload the store did not take.
type NotStoredError struct {
	Graph string // the named graph
	Err   error  // why: a *StatusError, *RedirectError, *TimeoutError, ...
}

func (e *NotStoredError) Error() string {
	return fmt.Sprintf("graph <%s> not stored: %v", e.Graph, e.Err)
}

func (e *NotStoredError) Unwrap() error { return e.Err }

// NotVerifiedError is an upload of Store.Upload whose statements could not
// be counted through the query endpoint the user gave.
type NotVerifiedError struct {
	Graph string
	Err   error
}

func (e *NotVerifiedError) Error() string {
	return fmt.Sprintf("graph <%s> not verified: %v", e.Graph, e.Err)
}

func (e *NotVerifiedError) Unwrap() error { return e.Err }

// IncompleteError is an upload of Store.Upload the store answered as done,
// after which the graph holds fewer statements than were sent, or, for a
// graph replaced, another number.
type IncompleteError struct {
	Graph      string
	StatusCode int   // the store's answer to the upload
	Held, Sent int64 // statements the graph holds, and statements sent
	Post       bool  // the graph was added to, not replaced
}

func (e *IncompleteError) Error() string {
	if e.Post {
		return fmt.Sprintf("graph <%s> not stored whole: the store answered %d, but the graph holds %d statements, fewer than the %d sent", e.Graph, e.StatusCode, e.Held, e.Sent)
	}
	return fmt.Sprintf("graph <%s> not stored whole: the store answered %d, but the graph holds %d statements of the %d sent", e.Graph, e.StatusCode, e.Held, e.Sent)
}
