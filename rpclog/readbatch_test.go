package rpclog

import (
	"errors"
	"io"
	"strings"
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
