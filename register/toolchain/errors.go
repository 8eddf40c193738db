package toolchain

import (
	"errors"
	"fmt"
)

// ErrNoSchema is wrapped by the errors of Annotate and Build for a block
// without a schema.
var ErrNoSchema = errors.New("block has no schema")

// errReplayed stops a build that asked for a level a replay did not make.
var errReplayed = errors.New("a replayed walk's level was needed")

// ErrImport is wrapped by the errors for a reference into an imported
// register that no --import maps to a local copy.
var ErrImport = errors.New("needs an imported register")

// RemoteError reports a document jrpcld would have to fetch.
type RemoteError struct {
	URL string
}

// Error names the document and the ways to map it to a local file.
func (e *RemoteError) Error() string {
	return fmt.Sprintf("%s is remote: jrpcld does not fetch; map it to a local file with --map URL=FILE (or url-mappings in bblocks-config.yaml), the register it belongs to with --import URL=DIR, or a context with --context-map URL=FILE", e.URL)
}
