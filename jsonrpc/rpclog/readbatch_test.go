package rpclog

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// TestReadBatch: a caller's own batch, filled and decoded on the caller's
// goroutine, holds the log's records in order; a read error ends the
// batch it falls in, with the error, and the log.
func TestReadBatch(t *testing.T) {
	var log strings.Builder
	for i := range 300 {
		log.WriteString(`{"jsonrpc":"2.0","method":"m","id":` + strings.Repeat("1", 1+i%3) + "}\n")
	}
	broken := errors.New("disk gone")
	for _, tc := range []struct {
		name    string
		in      io.Reader
		records int
		err     error
	}{
		{"whole", strings.NewReader(log.String()), 300, nil},
		{"read error", io.MultiReader(strings.NewReader(log.String()), iotest.ErrReader(broken)), 300, broken},
	} {
		r, err := NewReader(tc.in, "log", ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		decode := r.BatchDecoder(BatchOptions{Classify: true})
		b := new(Batch)
		n, batches := 0, 0
		var gotErr error
		for seq := 0; r.ReadBatch(b, seq); seq++ {
			if b.Seq != seq {
				t.Fatalf("%s: batch %d has Seq %d", tc.name, seq, b.Seq)
			}
			decode(b)
			for _, rec := range b.Records {
				if rec.Err != nil || rec.Line != n+1 || rec.Message.Method != "m" {
					t.Fatalf("%s: record %d: line %d, method %q, error %v", tc.name, n, rec.Line, rec.Message.Method, rec.Err)
				}
				n++
			}
			if b.Err != nil {
				gotErr = b.Err
			}
			batches++
			b.Done()
		}
		if n != tc.records || !errors.Is(gotErr, tc.err) || (tc.err == nil) != (gotErr == nil) {
			t.Errorf("%s: %d records, error %v; want %d, %v", tc.name, n, gotErr, tc.records, tc.err)
		}
		if batches < 2 {
			t.Errorf("%s: %d batches for 300 records: the test does not cross a batch", tc.name, batches)
		}
		if r.ReadBatch(b, 99) || len(b.Records) != 0 {
			t.Errorf("%s: ReadBatch after the end read %d more records", tc.name, len(b.Records))
		}
	}
}

// TestTurns reads a log with goroutines that each take batches of their
// own: every record is read once, and the batches are paired in the log's
// order.
func TestTurns(t *testing.T) {
	var log strings.Builder
	const n = 3000 // several batches
	for i := range n {
		log.WriteString(`{"jsonrpc":"2.0","method":"m","id":` + strconv.Itoa(i) + "}\n")
	}
	r, err := NewReader(strings.NewReader(log.String()), "log", ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	turns := r.Turns()
	var paired []int // the batches' places in the log, in pairing order
	records := 0
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			b := new(Batch)
			for turns.Read(b) {
				ok := turns.Pair(b, func() {
					paired = append(paired, b.Seq)
					records += len(b.Records)
				})
				if !ok {
					t.Error("Pair reported false with no Stop")
				}
				b.Done()
			}
		})
	}
	wg.Wait()
	if records != n || len(paired) < 2 {
		t.Fatalf("%d records in %d batches: want %d in several", records, len(paired), n)
	}
	for i, seq := range paired {
		if seq != i {
			t.Fatalf("batches paired in the order %v", paired)
		}
	}
}

// TestTurnsStop: after Stop, Pair does not call its function.
func TestTurnsStop(t *testing.T) {
	r, err := NewReader(strings.NewReader(`{"jsonrpc":"2.0","method":"m"}`+"\n"), "log", ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	turns := r.Turns()
	b := new(Batch)
	if !turns.Read(b) {
		t.Fatal("Read reported the end of a log of one line")
	}
	turns.Stop()
	if turns.Pair(b, func() { t.Error("paired after Stop") }) {
		t.Error("Pair reported true after Stop")
	}
	if turns.Read(b) {
		t.Error("Read after the last batch reported true")
	}
}
