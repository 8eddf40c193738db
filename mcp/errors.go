package mcp

import (
	"errors"
	"fmt"
)

// RecordingError is the error of ReadRecording for a recording that is not in the
// format asked for: Pointer is a JSON pointer to what is wrong.
type RecordingError struct {
	Recorder Recorder
	Pointer  string
	Msg      string
}

// Error says which format the recording is not, what is wrong and where.
func (e *RecordingError) Error() string {
	at := e.Pointer
	if at == "" {
		at = "/"
	}
	return fmt.Sprintf("not %s: %s (at %s)", describe(e.Recorder), e.Msg, at)
}

// ErrNoMessages is the error of ReadRecording for a recording of the right format
// that holds no message: an empty log would be written, which no reader
// of logs takes for one.
var ErrNoMessages = errors.New("the recording holds no MCP message: nothing to import")

// ErrNoSchema is wrapped by Set.Schema's error for a version that has no
// schema in the folder.
var ErrNoSchema = errors.New("no schema for this MCP version")
