package rules

import "errors"

// ErrNoSchemas is wrapped by Infer's error when the schemas it is given
// hold no version.
var ErrNoSchemas = errors.New("no MCP schemas")
