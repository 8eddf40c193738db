package wire

import "errors"

// ErrUngrouped is wrapped by the error Stream returns when its input is
// not what it can read as a stream: not grouped message by message in log
// order as jrpcld writes logs, not parseable, or with something Logs would
// report as a problem. The input must then be read whole, with ReadRDF and
// Logs, which report the problems exactly.
var ErrUngrouped = errors.New("RDF not grouped message by message as jrpcld writes logs")
