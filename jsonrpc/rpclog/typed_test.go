package rpclog

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// checkTyped reads line typed and as decodeText does, and reports whether
// the typed read took it: its record is decodeText's (but Value, whose
// text is Raw), with the same Lens and the same classification.
func checkTyped(t *testing.T, r *Reader, line []byte) bool {
	t.Helper()
	lazy := []string{"params", "result"}
	tp, dp := r.newParser(), r.newParser()
	tp.Lazy, dp.Lazy = lazy, lazy
	tp.Lens, dp.Lens = make([]uint16, len(line)), make([]uint16, len(line))
	typed := r.decodeTyped(tp, line, 7, true, new(typedRecord), nil, nil)
	want := r.decodeText(dp, line, 7)
	if typed == nil {
		return false
	}
	if want.Err != nil || typed.Object == nil || typed.Value != nil {
		t.Fatalf("%s: typed %+v, decodeText %+v", line, typed, want)
	}
	got := *typed
	got.Object = nil
	got.Value = want.Value
	if !reflect.DeepEqual(&got, want) {
		t.Fatalf("%s:\ntyped     %+v\ndecodeText %+v", line, &got, want)
	}
	if !slices.Equal(tp.Lens, dp.Lens) {
		t.Fatalf("%s: Lens %v, decodeText notes %v", line, tp.Lens, dp.Lens)
	}
	if m, w := Classify(typed), Classify(want); !reflect.DeepEqual(m, w) {
		t.Fatalf("%s: classified %+v, from the value %+v", line, m, w)
	}
	o := typed.Object
	for _, x := range [][]byte{o.Params, o.Result} {
		if x != nil && !bytes.Contains(typed.Raw, x) {
			t.Fatalf("%s: member text %s not in Raw", line, x)
		}
	}
	return true
}

func TestTyped(t *testing.T) {
	r, err := NewReader(bytes.NewReader(nil), "log", ReaderOptions{MaxDepth: 8})
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]bool{
		`{"dir":"c2s","ts":"2026-11-21T23:20:01.905Z","msg":{"id":0,"jsonrpc":"2.0","method":"initialize","params":{"a":[1,{"b":"\u00e9"}]}}}`: true,
		` {"jsonrpc":"2.0","id":"x","result":{"content":[]}} `:                                                                                 true,
		`{"msg":{"jsonrpc":"2.0","method":"notifications/initialized"},"dir":"s2c"}`:                                                           true,
		`{"jsonrpc":"2.0","id":1e2,"result":"\ud83c\udf89"}`:                                                                                   true,
		`{"jsonrpc":"2.0","id":1,"result":[[[[[[[[1]]]]]]]]}`:                                                                                  false, // too deep
		`{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}`:                                                                                      false,
		`{"jsonrpc":"2.0","id":1,"result":["\ud800"]}`:                                                                                         false,
		`{"jsonrpc":"2.0","id":1,"id":2,"result":1}`:                                                                                           false,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`:                                                                            false,
		`{"jsonrpc":"2.0","id":1,"result":1,"extra":1}`:                                                                                        false,
		`{"dir":"x","msg":{"jsonrpc":"2.0","method":"m"}}`:                                                                                     false,
		`{"dir":"c2s","ts":5,"msg":{"jsonrpc":"2.0","method":"m"}}`:                                                                            false,
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m"},"jsonrpc":"2.0"}`:                                                                   false,
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m"}} x`:                                                                                 false,
		`{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"m"}`:                                                                                    false,
		`{"jsonrpc":"2.0","method":"m\u0041"}`:                                                                                                 false,
		`{"jsonrpc":"2.0","method":"rpc.m"}`:                                                                                                   false,
		`[{"jsonrpc":"2.0","method":"m"}]`:                                                                                                     false,
		`{"jsonrpc":"2.0","id":true,"result":1}`:                                                                                               false,
		`{"dir":"c2s","truncated":99,"msg":{"jsonrpc":"2.0","method":"m"}}`:                                                                    false,
		`{"dir":"c2s","session":"s-1","msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}`:                                                         true,
		`{"dir":"c2s","session":"s\u00e9","msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}`:                                                     false,
		`{"dir":"c2s","session":7,"msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}`:                                                             false,
		`{"dir":"c2s","session":"a","session":"b","msg":{"jsonrpc":"2.0","method":"m"}}`:                                                       false,
	} {
		if got := checkTyped(t, r, []byte(line)); got != want {
			t.Errorf("%s: read typed %v, want %v", line, got, want)
		}
	}
	for _, line := range bytes.Split(batchLog(60), []byte("\n")) {
		checkTyped(t, r, line)
	}
	// The corpus, bare and in envelopes: nearly every line is read typed.
	dir := shared.Dir(t, "corpus", "mcp-sessions")
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	lines, typed := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			lines++
			if checkTyped(t, r, sc.Bytes()) {
				typed++
			}
		}
	}
	if lines == 0 || typed < lines*9/10 {
		t.Errorf("%d of %d corpus lines read typed", typed, lines)
	}
}

// FuzzTyped: a line read typed gives the record, Lens and classification
// decodeText gives it.
func FuzzTyped(f *testing.F) {
	for _, s := range []string{
		`{"dir":"c2s","ts":"t","msg":{"id":0,"jsonrpc":"2.0","method":"initialize","params":{"a":[1,{"b":"c"}]}}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"content":[]}}`, `{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}`,
	} {
		f.Add([]byte(s))
	}
	r, err := NewReader(bytes.NewReader(nil), "log", ReaderOptions{MaxDepth: 8})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return
		}
		checkTyped(t, r, line)
	})
}

// testVoucher vouches for the values a parser of its own checks as clean,
// writing them in brackets, or, with refuse, for none.
type testVoucher struct {
	refuse bool
	p      jsonparse.Parser
}

func (v *testVoucher) Vouch(dst, text []byte, i, depth, maxDepth int) ([]byte, int, bool) {
	if v.refuse {
		return dst, i, false
	}
	v.p.MaxDepth = maxDepth
	end, clean, perr := v.p.Check(text, i, depth, false)
	if perr != nil || !clean {
		return dst, i, false
	}
	dst = append(dst, '<')
	dst = append(dst, text[i:end]...)
	return append(dst, '>'), end, true
}

// TestVouched: a Voucher changes nothing in the records of a typed read but
// their Vouched, which holds what it wrote for their params and result;
// one that refuses leaves the reader to check them.
func TestVouched(t *testing.T) {
	data := batchLog(3000)
	var lazy []string
	batches := func(vouch func() Voucher) <-chan *Batch {
		r, err := NewReader(bytes.NewReader(data), "log", ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r.Batches(BatchOptions{Classify: true, Lazy: lazy, Typed: true, Vouch: vouch}, nil)
	}
	vouched := [2]int{}
	for run := range 4 {
		// The voucher reads the Lazy members only.
		refuse := run%2 == 1
		lazy = []string{"params", "result"}[run/2:]
		plain := batches(nil)
		for b := range batches(func() Voucher { return &testVoucher{refuse: refuse} }) {
			w := <-plain
			if w == nil || len(b.Records) != len(w.Records) {
				t.Fatalf("refuse=%v: batch %d differs in length from the one read without a voucher", refuse, b.Seq)
			}
			for i, br := range b.Records {
				for k := range br.Vouched {
					var want []byte
					if o := br.Object; o != nil && !refuse && slices.Contains(lazy, vouchNames[k]) {
						if text := [][]byte{o.Params, o.Result}[k]; text != nil {
							want = append(append([]byte("<"), text...), '>')
							vouched[k]++
						}
					}
					if !bytes.Equal(br.Vouched[k], want) {
						t.Fatalf("refuse=%v, line %d: Vouched[%d] %q, want %q", refuse, br.Line, k, br.Vouched[k], want)
					}
				}
				g := *br.Record
				g.Vouched = [2][]byte{}
				if !reflect.DeepEqual(&g, w.Records[i].Record) || !reflect.DeepEqual(br.Message, w.Records[i].Message) {
					t.Fatalf("refuse=%v, line %d:\n%+v\nwithout a voucher\n%+v", refuse, br.Line, &g, w.Records[i].Record)
				}
			}
			b.Done()
			w.Done()
		}
		if w, ok := <-plain; ok {
			t.Fatalf("refuse=%v: batch %d only without a voucher", refuse, w.Seq)
		}
	}
	if vouched[0] == 0 || vouched[1] == 0 {
		t.Errorf("vouched for %d params and %d results", vouched[0], vouched[1])
	}
}
