package fetch

import (
	"errors"
	"fmt"
)

// LimitError is the error of a download that passed one of the Fetcher's
// limits: its timeout or one of its Limits. Flag names the flag of "jrpcld
// fetch" that raises it.
type LimitError struct {
	URL  string // the file that passed it
	What string // what passed it, as "more than 5000 files"
	Flag string // such as "--max-files"
}

// Error names the file, the limit it passed and the flag that raises it.
func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s (raise the limit with %s)", e.URL, e.What, e.Flag)
}

// errTooBig is download's error for a body longer than its max.
var errTooBig = errors.New("too big")

// HashError is the error of a download whose content's sha256
// (mcp.ContentSHA256) is not the one pinned.
type HashError struct {
	URL       string
	Want, Got string
}

// Error names the file and both hashes.
func (e *HashError) Error() string {
	return fmt.Sprintf("%s: sha256 %s, but jrpcld pins %s: refused (the file is not the one jrpcld knows)", e.URL, e.Got, e.Want)
}

// errNotJSON is a scan's error for a text that is not JSON.
var errNotJSON = errors.New("not JSON")
