package record

// StartError is the error of Run when the server could not be started;
// NotFound tells that the command does not exist.
type StartError struct {
	Err      error
	NotFound bool
}

// Error returns Err's message.
func (e *StartError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *StartError) Unwrap() error { return e.Err }

// passError is an error of passLines: of the log, or of the writer.
type passError struct {
	err error
	log bool
}

func (e *passError) Error() string { return e.err.Error() }

func (e *passError) Unwrap() error { return e.err }
