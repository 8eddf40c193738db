package gold

import "errors"

// ErrRemoteContext is wrapped by errors for a context that names another
// context by URL: jrpcld never fetches one.
var ErrRemoteContext = errors.New("remote context")
