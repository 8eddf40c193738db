package rpclog

import "github.com/jrpcld/jrpcld/diag"

// ReadError describes a part of a log that could not be read as a message.
// It is a diag.Diagnostic, with its place (File, Line, Column), its Code
// (-32700 for text that is not JSON, -32600 for JSON that is not an
// acceptable message or envelope) and its Message; errors.As finds the
// *diag.Diagnostic in it too.
type ReadError struct {
	diag.Diagnostic
}

// Error returns the error as "FILE:LINE[:COL]: message" (see
// diag.Diagnostic.String).
func (e *ReadError) Error() string { return e.Diagnostic.String() }

// Unwrap returns the diagnostic, so that errors.As finds it.
func (e *ReadError) Unwrap() error { return &e.Diagnostic }

// limitError is a gzip input over a limit of inflateLimiter; msg says
// which and the flag that raises it.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }
