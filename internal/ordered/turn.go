package ordered

import (
	"sync"
	"sync/atomic"
)

// Turn hands a turn from one piece of work to the next, in order, among
// goroutines that each take pieces in turn: Wait(n) returns once pieces 0
// to n-1 have each called Next. Stop ends the waiting for good.
type Turn struct {
	done    atomic.Int64
	stopped atomic.Bool
	mu      sync.Mutex
	cond    sync.Cond
}

// NewTurn returns a Turn at piece 0.
func NewTurn() *Turn {
	t := &Turn{}
	t.cond.L = &t.mu
	return t
}

// Wait waits for piece n's turn and reports true, or false once Stop has
// been called. It looks a few times before it sleeps: the turn is most
// often a moment away, on another core.
func (t *Turn) Wait(n int) bool {
	for range 200 {
		if t.stopped.Load() {
			return false
		}
		if t.done.Load() == int64(n) {
			return true
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.done.Load() != int64(n) && !t.stopped.Load() {
		t.cond.Wait()
	}
	return !t.stopped.Load()
}

// Next ends the turn of the piece that has it.
func (t *Turn) Next() {
	t.mu.Lock()
	t.done.Add(1)
	t.cond.Broadcast()
	t.mu.Unlock()
}

// Stop makes every Wait, now and later, report false.
func (t *Turn) Stop() {
	t.mu.Lock()
	t.stopped.Store(true)
	t.cond.Broadcast()
	t.mu.Unlock()
}
