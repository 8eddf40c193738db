package ordered

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

type item struct {
	seq int
	sq  int
}

// TestMapReorder: every value goes through the function exactly once, on
// several goroutines, and comes out in input order whatever order the
// workers finish in.
func TestMapReorder(t *testing.T) {
	const n = 2000
	in := make(chan *item, 8)
	go func() {
		for i := range n {
			in <- &item{seq: i}
		}
		close(in)
	}()
	var workers, calls atomic.Int32
	out := Map(4, in, func() func(*item) {
		workers.Add(1)
		r := rand.New(rand.NewPCG(uint64(workers.Load()), 1))
		return func(it *item) {
			calls.Add(1)
			if r.IntN(10) == 0 {
				time.Sleep(time.Duration(r.IntN(200)) * time.Microsecond)
			}
			it.sq = it.seq * it.seq
		}
	})
	next := 0
	Reorder(out, func(it *item) int { return it.seq }, func(it *item) bool {
		if it.seq != next || it.sq != it.seq*it.seq {
			t.Fatalf("got item %d (%d), want %d", it.seq, it.sq, next)
		}
		next++
		return true
	})
	if next != n || calls.Load() != n || workers.Load() != 4 {
		t.Errorf("%d emitted, %d calls, %d workers; want %d, %d, 4", next, calls.Load(), workers.Load(), n, n)
	}
}

// TestReorderStops: once emit returns false nothing more is emitted, the
// rest is drained, and the stages before finish (no goroutine is left).
func TestReorderStops(t *testing.T) {
	before := runtime.NumGoroutine()
	in := make(chan *item)
	go func() {
		for i := range 500 {
			in <- &item{seq: i}
		}
		close(in)
	}()
	out := Map(3, in, func() func(*item) { return func(*item) {} })
	emitted := 0
	Reorder(out, func(it *item) int { return it.seq }, func(it *item) bool {
		emitted++
		return emitted < 10
	})
	if emitted != 10 {
		t.Errorf("%d emitted after stopping at 10", emitted)
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines left, %d before", g, before)
	}
}

func TestWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if Workers() != 1 {
		t.Errorf("Workers() = %d with GOMAXPROCS 1", Workers())
	}
}
