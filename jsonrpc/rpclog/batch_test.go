package rpclog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// batchLog returns a log of n lines of several kinds, some of them broken.
func batchLog(n int) []byte {
	var b strings.Builder
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `{"dir":"c2s","ts":"t%d","msg":{"jsonrpc":"2.0","id":%d,"method":"m","params":{"a":[%d,{"b":"x"}]}}}`+"\n", i, i, i)
		case 1:
			if i%3 == 0 {
				// A member named twice inside a lazy value.
				fmt.Fprintf(&b, `{"dir":"s2c","msg":{"jsonrpc":"2.0","id":%d,"result":[1,2,{"c":null,"c":1}]}}`+"\n", i-1)
				break
			}
			fmt.Fprintf(&b, `{"dir":"s2c","msg":{"jsonrpc":"2.0","id":%d,"result":[1,2,{"c":null}]}}`+"\n", i-1)
		case 2:
			b.WriteString("not json\n")
		case 3:
			if i%4 == 0 {
				// A lone surrogate inside a lazy value, in a batch member.
				fmt.Fprintf(&b, `[{"jsonrpc":"2.0","method":"n","params":["\udc00%d"]},{"jsonrpc":"2.0","id":"x%d","method":"m"}]`+"\n", i, i)
				break
			}
			fmt.Fprintf(&b, `{"dir":"c2s","msg":[{"jsonrpc":"2.0","method":"n","params":[%d]},{"jsonrpc":"2.0","id":"x%d","method":"m"}]}`+"\n", i, i)
		default:
			b.WriteString(`{"dir":"x","msg":{}}` + "\n\n")
		}
	}
	return []byte(b.String())
}

// TestBatches: the records of Batches are those of Next, in the same order,
// classified as Classify classifies them, and lazy members hold their
// text.
// With Typed, the records read typed have no Value, and their text
// decodes to the value Next gives.
func TestBatches(t *testing.T) {
	for _, typed := range []bool{false, true} {
		t.Run(fmt.Sprint("typed=", typed), func(t *testing.T) { testBatches(t, typed) })
	}
}

func testBatches(t *testing.T, typed bool) {
	data := batchLog(3000)
	seq, err := NewReader(bytes.NewReader(data), "log", ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	par, _ := NewReader(bytes.NewReader(data), "log", ReaderOptions{})
	seen, lazy, dups, lones, objects := 0, 0, 0, 0, 0
	wantSeq := 0
	for b := range par.Batches(BatchOptions{Classify: true, Lazy: []string{"params", "result"}, Typed: typed}, nil) {
		if b.Seq != wantSeq || b.Err != nil {
			t.Fatalf("batch %d (error %v), want %d", b.Seq, b.Err, wantSeq)
		}
		wantSeq++
		for _, br := range b.Records {
			want, err := seq.Next()
			if err != nil {
				t.Fatalf("record %d: Next: %v", seen, err)
			}
			seen++
			if br.Line != want.Line || string(br.Raw) != string(want.Raw) || br.Dir != want.Dir || br.TS != want.TS || (br.Err == nil) != (want.Err == nil) {
				t.Fatalf("record %d: line %d %q, want line %d %q", seen, br.Line, br.Raw, want.Line, want.Raw)
			}
			if want.Err != nil {
				if br.Err.Error() != want.Err.Error() {
					t.Fatalf("line %d: error %v, want %v", br.Line, br.Err, want.Err)
				}
				continue
			}
			if !reflect.DeepEqual(br.Warnings, want.Warnings) {
				t.Fatalf("line %d: warnings %v, want %v", br.Line, br.Warnings, want.Warnings)
			}
			dups += len(br.Warnings)
			if !reflect.DeepEqual(br.Surrogates, want.Surrogates) {
				t.Fatalf("line %d: lone surrogates %v, want %v", br.Line, br.Surrogates, want.Surrogates)
			}
			lones += len(br.Surrogates)
			if got := Classify(want); !reflect.DeepEqual(br.Message, got) {
				t.Fatalf("line %d: classified %+v, want %+v", br.Line, br.Message, got)
			}
			if !reflect.DeepEqual(br.Problems, want.Problems) || br.TSRaw != want.TSRaw || br.DirRaw != want.DirRaw {
				t.Fatalf("line %d: envelope %+v, want %+v", br.Line, br.Record, want)
			}
			if br.Object != nil {
				objects++
				if !typed || br.Value != nil {
					t.Fatalf("line %d: read typed %v, with the value %v", br.Line, typed, br.Value)
				}
				br.Value, _ = jsonrpc.Decode(br.Raw)
			}
			lazy += materialize(br.Value)
			if !reflect.DeepEqual(br.Value, want.Value) {
				t.Fatalf("line %d: %#v, want %#v", br.Line, br.Value, want.Value)
			}
		}
		b.Done()
	}
	if typed != (objects > 0) {
		t.Errorf("typed %v: %d records read typed", typed, objects)
	}
	if _, err := seq.Next(); err != io.EOF || seen == 0 || lazy == 0 || dups == 0 || lones == 0 {
		t.Errorf("%d records, %d lazy values, %d members named twice, %d lone surrogates, then %v; want all of them", seen, lazy, dups, lones, err)
	}
}

// materialize decodes the undecoded values in v, in place, and counts them.
func materialize(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if u, ok := e.(jsonparse.Undecoded); ok {
				x[k], n = jsonparse.Decode(u), n+1
			} else {
				n += materialize(e)
			}
		}
	case []any:
		for _, e := range x {
			n += materialize(e)
		}
	}
	return n
}

// TestBatchesStop: closing stop ends the reading; no goroutine is left.
func TestBatchesStop(t *testing.T) {
	before := runtime.NumGoroutine()
	r, _ := NewReader(bytes.NewReader(batchLog(20000)), "log", ReaderOptions{})
	stop := make(chan struct{})
	got := 0
	for b := range r.Batches(BatchOptions{Classify: true}, stop) {
		got++
		if got == 3 {
			close(stop)
		}
		b.Done()
	}
	if got < 3 {
		t.Errorf("%d batches before the stop", got)
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines left, %d before", g, before)
	}
}

// TestBatchLens: with Lens asked for, each record decoded from a line (all
// but those the reader decoded to find the log's form) has one entry per byte of its Raw text, the undecoded values of its message
// have theirs at their place in Raw, and every extent noted is a whole
// JSON string, array or object of Raw.
func TestBatchLens(t *testing.T) {
	data := batchLog(600)
	r, err := NewReader(bytes.NewReader(data), "log", ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	undecoded := 0
	for b := range r.Batches(BatchOptions{Lazy: []string{"params", "result"}, Lens: true}, nil) {
		for _, br := range b.Records {
			if br.Err != nil {
				continue
			}
			if br.Lens == nil && undecoded == 0 {
				continue // decoded while the reader found the log's form
			}
			if len(br.Lens) != len(br.Raw) {
				t.Fatalf("line %d: %d lens for %d bytes of text %s", br.Line, len(br.Lens), len(br.Raw), br.Raw)
			}
			for i, n := range br.Lens {
				if n == 0 {
					continue
				}
				v := br.Raw[i : i+int(n)]
				if !strings.ContainsRune(`"{[`, rune(v[0])) || !json.Valid(v) {
					t.Fatalf("line %d: extent %d at %d is %s", br.Line, n, i, v)
				}
			}
			eachUndecoded(br.Value, func(u jsonparse.Undecoded) {
				undecoded++
				at := bytes.Index(br.Raw, u)
				if at < 0 || int(br.Lens[at]) != len(u) {
					t.Fatalf("line %d: the undecoded %s has no extent in %s", br.Line, u, br.Raw)
				}
			})
		}
		b.Done()
	}
	if undecoded == 0 {
		t.Fatal("no undecoded value read")
	}
}

// eachUndecoded calls f with each Undecoded value in v.
func eachUndecoded(v any, f func(jsonparse.Undecoded)) {
	switch x := v.(type) {
	case jsonparse.Undecoded:
		f(x)
	case map[string]any:
		for _, e := range x {
			eachUndecoded(e, f)
		}
	case []any:
		for _, e := range x {
			eachUndecoded(e, f)
		}
	}
}

// TestClassify: a message, or batch member, with a string that holds a
// lone surrogate is invalid, keeps the kind it has the form of, and names
// the string; one whose id holds one has no id to pair or write; the
// other members of a batch are untouched.
func TestClassify(t *testing.T) {
	type want struct {
		kind, shape jsonrpc.Kind
		hasID       bool
		pointers    []string // of the errors
	}
	for _, c := range []struct {
		line    string
		top     want
		members []want
	}{
		{line: `{"jsonrpc":"2.0","method":"m","params":["\udc00x"],"id":1}`,
			top: want{jsonrpc.KindInvalid, jsonrpc.KindRequest, true, []string{"/params/0"}}},
		{line: `{"jsonrpc":"2.0","method":"m","params":["x"],"id":1}`,
			top: want{jsonrpc.KindRequest, jsonrpc.KindRequest, true, nil}},
		{line: `{"jsonrpc":"2.0","result":"\ud800","id":"\udbff"}`,
			top: want{jsonrpc.KindInvalid, jsonrpc.KindResponse, false, []string{"/result", "/id"}}},
		{line: `{"jsonrpc":"1.0","method":"\ud800"}`,
			top: want{jsonrpc.KindInvalid, jsonrpc.KindNotification, false, []string{"/jsonrpc", "/method"}}},
		{line: `"\ud800"`, top: want{jsonrpc.KindInvalid, jsonrpc.KindInvalid, false, []string{"", ""}}},
		{line: `{"dir":"c2s","ts":"\ud800","msg":{"jsonrpc":"2.0","method":"m"}}`,
			top: want{jsonrpc.KindNotification, jsonrpc.KindNotification, false, nil}},
		{line: `[{"jsonrpc":"2.0","method":"m","id":1},{"jsonrpc":"2.0","method":"m","params":{"\udc00":1},"id":2},"\ud800"]`,
			top: want{jsonrpc.KindBatch, jsonrpc.KindBatch, false, []string{"/1/params/\ufffd", "/2", "/2"}},
			members: []want{{jsonrpc.KindRequest, jsonrpc.KindRequest, true, nil},
				{jsonrpc.KindInvalid, jsonrpc.KindRequest, true, []string{"/1/params/\ufffd"}},
				{jsonrpc.KindInvalid, jsonrpc.KindInvalid, false, []string{"/2", "/2"}}}},
	} {
		r, err := NewReader(strings.NewReader(c.line), "log", ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Next()
		if err != nil || rec.Err != nil {
			t.Fatalf("%s: %v %v", c.line, err, rec.Err)
		}
		m := Classify(rec)
		check := func(what string, m jsonrpc.Message, w want, all bool) {
			ds := m.Diagnostics
			if all {
				ds = m.AllDiagnostics()
			}
			var ptrs []string
			for _, d := range ds {
				if d.Severity == diag.Error {
					ptrs = append(ptrs, d.Pointer)
				}
			}
			if m.Kind != w.kind || m.Shape != w.shape || m.HasID != w.hasID || !reflect.DeepEqual(ptrs, w.pointers) || m.Valid() != (len(w.pointers) == 0) {
				t.Errorf("%s%s: %v shaped %v, id %v, errors at %q; want %v shaped %v, id %v, errors at %q",
					c.line, what, m.Kind, m.Shape, m.HasID, ptrs, w.kind, w.shape, w.hasID, w.pointers)
			}
		}
		check("", m, c.top, true)
		if len(m.Members) != len(c.members) {
			t.Fatalf("%s: %d members, want %d", c.line, len(m.Members), len(c.members))
		}
		for i, mm := range m.Members {
			check(fmt.Sprintf(" member %d", i), mm, c.members[i], false)
		}
	}
}
