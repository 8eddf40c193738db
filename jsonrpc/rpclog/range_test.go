package rpclog

import (
	"bytes"
	"compress/gzip"
	"io"
	"reflect"
	"strings"
	"testing"
)

// rangeRecords reads the records of the ranges of input cut at cuts (with
// 0 and len(input) around them), each range by its own Reader with the
// number of lines of the ranges before it; it returns them all, and the
// lines each range counted.
func rangeRecords(t *testing.T, input []byte, cuts []int64, opts ReaderOptions) ([]lrGot, []int) {
	t.Helper()
	bounds := append(append([]int64{0}, cuts...), int64(len(input)))
	var out []lrGot
	var lines []int
	line := 0
	for i := 0; i+1 < len(bounds); i++ {
		rg := Range{Start: bounds[i], End: bounds[i+1], Line: line}
		r, err := NewRangeReader(bytes.NewReader(input[rg.Start:]), "in.jsonl", opts, rg)
		if err != nil {
			t.Fatalf("range %+v: %v", rg, err)
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("range %+v: %v", rg, err)
			}
			out = append(out, gotOf(t, rec))
		}
		lines = append(lines, r.line-line)
		line = r.line
	}
	return out, lines
}

// TestRangeReader cuts JSON lines logs at every offset past 0 (and at every pair
// of offsets for the short ones): the records of the ranges, one after
// the other, are those the whole log gives, with the same line numbers,
// and the lines the ranges count add up to the file's.
func TestRangeReader(t *testing.T) {
	long := `{"jsonrpc":"2.0","method":"` + strings.Repeat("x", 40) + `"}`
	for _, tc := range []struct {
		name  string
		input string
		opts  ReaderOptions
	}{
		{"messages", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":2}\n", ReaderOptions{}},
		{"no final break", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n[{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]", ReaderOptions{}},
		{"envelopes", `{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":"a","method":"m"}}` + "\n" +
			`{"dir":"up","ts":5,"msg":{"jsonrpc":"2.0","id":"a","result":{"k":1,"k":2}}}` + "\n", ReaderOptions{}},
		{"blank and bad lines", "\n\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\nnot json\n\n  \n{\"a\":\n}\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n\n", ReaderOptions{}},
		{"first line not JSON", "garbage\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", ReaderOptions{}},
		{"truncated first line", "{\"a\":[\n\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{\"b\":\n{}\n", ReaderOptions{}},
		{"byte order mark, CRLF", "\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\r\n", ReaderOptions{}},
		{"over-long lines", long + "\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n" + long + "\n" + long, ReaderOptions{MaxLineBytes: 40}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := []byte(tc.input)
			want, r, err := lrReadAll(t, input, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Splittable() {
				t.Fatal("the whole log is not Splittable")
			}
			check := func(cuts []int64) {
				t.Helper()
				got, lines := rangeRecords(t, input, cuts, tc.opts)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("cut at %v: records\n%+v\nwant\n%+v", cuts, got, want)
				}
				sum := 0
				for _, n := range lines {
					sum += n
				}
				if sum != r.line {
					t.Fatalf("cut at %v: the ranges count %v lines, the file has %d", cuts, lines, r.line)
				}
			}
			check(nil)
			n := int64(len(input))
			for a := int64(1); a <= n; a++ {
				check([]int64{a})
				if n <= 120 {
					for b := a; b <= n; b++ {
						check([]int64{a, b})
					}
				}
			}
		})
	}
}

func TestSplittable(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	for _, tc := range []struct {
		name, input string
		want        bool
	}{
		{"JSON lines", "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{}\n", true},
		{"one line", `[{"jsonrpc":"2.0","method":"a"}]`, true},
		{"blank lines first", "\n \n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", true},
		{"not JSON first", "hello\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", true},
		{"truncated first line", "{\"x\":\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", true},
		{"lone bracket first", "[\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{}\n", true},
		{"byte order mark", "\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", true},
		{"pretty-printed", "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\"\n}\n", false},
		{"gzip", gz("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n"), false},
		{"empty", "", false},
		{"blank", "\n\n", false},
		{"UTF-16", "\xff\xfe{\x00}\x00", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tc.input), "in", ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Splittable() {
				t.Error("Splittable before the first record")
			}
			r.Next()
			if got := r.Splittable(); got != tc.want {
				t.Errorf("Splittable() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRangeReaderBadRange(t *testing.T) {
	for _, rg := range []Range{{Start: -1, End: 3}, {Start: 5, End: 4}, {Start: 0, End: 4, Line: -2}} {
		if _, err := NewRangeReader(strings.NewReader("{}\n"), "in", ReaderOptions{}, rg); err == nil {
			t.Errorf("NewRangeReader(%+v): no error", rg)
		}
	}
}
