package ordered

import (
	"sync"
	"testing"
)

// TestTurn: pieces taken by several goroutines in any order still pass
// their turns in order.
func TestTurn(t *testing.T) {
	const n = 5000
	turn := NewTurn()
	var next sync.Mutex
	taken := 0
	var order []int
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				k := taken
				taken++
				next.Unlock()
				if k >= n {
					return
				}
				if !turn.Wait(k) {
					t.Errorf("piece %d: Wait reported a stop", k)
					return
				}
				order = append(order, k) // safe: only the turn's holder appends
				turn.Next()
			}
		}()
	}
	wg.Wait()
	if len(order) != n {
		t.Fatalf("%d pieces passed, want %d", len(order), n)
	}
	for i, k := range order {
		if k != i {
			t.Fatalf("piece %d passed in place %d", k, i)
		}
	}
}

// TestTurnStop: Stop wakes the waiters, and later Waits report false.
func TestTurnStop(t *testing.T) {
	turn := NewTurn()
	woke := make(chan bool)
	for k := 1; k <= 3; k++ {
		go func() { woke <- turn.Wait(k) }()
	}
	turn.Stop()
	for range 3 {
		if <-woke {
			t.Error("a Wait reported its turn after Stop")
		}
	}
	if turn.Wait(0) {
		t.Error("Wait(0) after Stop reported the turn")
	}
}
