package regcache

import "errors"

// ErrNotFetched is wrapped by Dir's error for a register that is not in
// the cache, or whose copy there is not complete.
var ErrNotFetched = errors.New("not in the cache")
