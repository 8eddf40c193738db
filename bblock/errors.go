package bblock

import (
	"errors"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
)

// ErrLeavesTree is wrapped by the errors for a file reached through a
// symbolic link that leads outside the folder jrpcld was given (a register's
// _sources, a block folder, the copy of an import).
var ErrLeavesTree = errors.New("a symbolic link leads outside the folder")

// ErrNotRegular is wrapped by the errors for a name in a block's folder that
// is neither a file nor a folder (a named pipe, a device, a socket): reading
// one could wait for ever or never end, so it is refused before it is opened.
var ErrNotRegular = errors.New("not a regular file or folder")

// ErrNotImported is wrapped by ReadURL's error for a URL that no mapped
// import covers.
var ErrNotImported = errors.New("not in a mapped import")

// ErrNoMatch is wrapped by the error of a snippet whose json-path selects
// nothing: the tool chain skips such a snippet.
var ErrNoMatch = errors.New("selects nothing")

// ErrUnknownBlock is wrapped by errors that name a block id the register
// does not have.
var ErrUnknownBlock = errors.New("unknown building block")

// ErrNoRegister is wrapped by the errors for a folder given as a register
// source tree whose bblocks-config.yaml is missing or cannot be read.
var ErrNoRegister = errors.New("is not a building-block source tree")

// Problems is a list of problems; as an error it reports the errors among them.
type Problems []Problem

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity != diag.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Warnings returns the problems that are warnings.
func (ps Problems) Warnings() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == diag.Warning {
			out = append(out, p)
		}
	}
	return out
}

func (ps Problems) Error() string {
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.String())
	}
	return strings.Join(msgs, "\n")
}
