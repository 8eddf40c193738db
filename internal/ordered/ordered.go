// Package ordered is the one way jrpcld runs work on every core and still
// hands results on in input order: Map applies a function to a stream of
// values on several goroutines, Reorder puts the values back in sequence
// order. The log conversion, log reading and the streamed way back from RDF
// are built from these two.
package ordered

import (
	"runtime"
	"sync"
)

// Workers returns the number of goroutines a parallel stage runs on:
// GOMAXPROCS, at least 1.
func Workers() int { return max(1, runtime.GOMAXPROCS(0)) }

// Map starts n goroutines that apply a function to the values from in and
// send the values on the returned channel, in the order they finish. Each
// goroutine gets its own function from newWorker, so that it can keep
// scratch space. The returned channel, with the capacity of in, is closed
// once in is closed and every value has been sent. Whoever reads it must
// read it to its end (Reorder does), or the goroutines block.
func Map[T any](n int, in <-chan T, newWorker func() func(T)) <-chan T {
	out := make(chan T, cap(in))
	var wg sync.WaitGroup
	for range max(n, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newWorker()
			for v := range in {
				f(v)
				out <- v
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// Reorder calls emit, on the calling goroutine, with the values from in in
// the order of their sequence numbers (0, 1, 2, ..., as seq tells), holding
// back those that come early. Once emit returns false it calls it no more
// and drains in, so that the stages that send on in can finish; it returns
// when in is closed. Every sequence number must come exactly once.
func Reorder[T any](in <-chan T, seq func(T) int, emit func(T) bool) {
	pending := map[int]T{}
	next := 0
	going := true
	for v := range in {
		if !going {
			continue // drain
		}
		pending[seq(v)] = v
		for going {
			v, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			going = emit(v)
		}
	}
}
