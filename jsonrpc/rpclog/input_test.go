package rpclog

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
)

// lrBomb returns n copies of a gzip member that holds 4 MiB of blank
// lines (1 MiB each: spaces and a newline), which gzip shrinks more than
// 1000 times: a small decompression bomb, made fast.
func lrBomb(t testing.TB, n int) []byte {
	t.Helper()
	line := append(bytes.Repeat([]byte(" "), 1<<20-1), '\n')
	member := lrGzip(t, bytes.Repeat(line, 4))
	if ratio := (4 << 20) / len(member); ratio <= 1000 {
		t.Fatalf("the gzip member shrinks only %d times", ratio)
	}
	return bytes.Repeat(member, n)
}

// TestReaderGzipLimits: a gzip input that decompresses to more than
// MaxDecompressedBytes, or past 64 MiB to more than MaxCompressionRatio
// bytes per compressed byte, ends with one error record that names the
// limit and its flag, after the messages on the lines read in full; below
// the limits, and without gzip, nothing is refused. Next and Batches agree.
func TestReaderGzipLimits(t *testing.T) {
	const msg = `{"jsonrpc":"2.0","method":"m"}` + "\n" // 31 bytes
	messages := []byte(strings.Repeat(msg, 1000))
	bomb := lrBomb(t, 20) // 80 MiB
	newlines := lrGzip(t, bytes.Repeat([]byte("\n"), 4<<20))
	tests := []struct {
		name     string
		in       []byte
		opts     ReaderOptions
		messages int    // records read before the last
		line     int    // of the last record, when an error (at least, when lines is set)
		lines    bool   // the line of the last record depends on buffer sizes
		last     string // regular expression the last record's error matches, or "" for none
	}{
		{name: "over the decompressed size", in: lrGzip(t, messages), opts: ReaderOptions{MaxDecompressedBytes: 10000},
			messages: 322, line: 323, last: "^the gzip input decompresses to more than 10000 bytes, the limit: raise it with --max-decompressed-bytes$"},
		{name: "over the decompressed size in KiB", in: lrGzip(t, messages), opts: ReaderOptions{MaxDecompressedBytes: 10 << 10},
			messages: 330, line: 331, last: "more than 10 KiB, the limit"},
		{name: "exactly the decompressed size", in: lrGzip(t, messages), opts: ReaderOptions{MaxDecompressedBytes: int64(len(messages))},
			messages: 1000},
		{name: "the size limit is for gzip input", in: messages, opts: ReaderOptions{MaxDecompressedBytes: 10},
			messages: 1000},
		{name: "newlines over the decompressed size", in: newlines, opts: ReaderOptions{MaxDecompressedBytes: 1 << 20},
			line: 1<<20 + 1, last: "more than 1 MiB, the limit: raise it with --max-decompressed-bytes"},
		{name: "over the compression ratio", in: bomb, line: 64, lines: true,
			last: `the gzip input expands more than 1000 times \(64\.\d MiB from \d+ bytes\): refused as a likely decompression bomb; if the log is genuine, raise the limit with --max-compression-ratio$`},
		{name: "a ratio the limit allows", in: bomb, opts: ReaderOptions{MaxCompressionRatio: 2000, MaxDecompressedBytes: 70 << 20},
			line: 71, last: "more than 70 MiB, the limit"},
	}
	for _, tt := range tests {
		for _, batches := range []bool{false, true} {
			name := tt.name
			if batches {
				name += "/Batches"
			}
			t.Run(name, func(t *testing.T) {
				recs := lrRecords(t, tt.in, tt.opts, batches)
				n := len(recs)
				if tt.last != "" {
					n--
				}
				if n != tt.messages {
					t.Fatalf("%d records before the last, want %d", n, tt.messages)
				}
				for i, rec := range recs[:n] {
					if rec.err != nil || rec.line != i+1 {
						t.Fatalf("record %d: line %d, error %v", i, rec.line, rec.err)
					}
				}
				if tt.last == "" {
					return
				}
				e := recs[n].err
				if e == nil || e.Line != tt.line && (!tt.lines || e.Line < tt.line) || e.File != "in.jsonl" || e.Code != lrPE || e.Severity != diag.Error || !regexp.MustCompile(tt.last).MatchString(e.Message) {
					t.Errorf("last record %+v, want an error on line %d containing %q", e, tt.line, tt.last)
				}
			})
		}
	}
}

// lrRecords reads every record of input with Next, or with Batches, and
// fails on an I/O error.
func lrRecords(t *testing.T, input []byte, opts ReaderOptions, batches bool) []lrGot {
	t.Helper()
	r, err := NewReader(bytes.NewReader(input), "in.jsonl", opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []lrGot
	for !batches {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		g := lrGot{line: rec.Line, warnings: rec.Warnings}
		if rec.Err != nil {
			g.err = rec.Err.(*diag.Diagnostic)
		}
		out = append(out, g)
	}
	for b := range r.Batches(BatchOptions{}, nil) {
		if b.Err != nil {
			t.Fatal(b.Err)
		}
		for _, br := range b.Records {
			g := lrGot{line: br.Line, warnings: br.Warnings}
			if br.Err != nil {
				g.err = br.Err.(*diag.Diagnostic)
			}
			out = append(out, g)
		}
		b.Done()
	}
	return out
}

// TestReaderWholeInputBatches: the records about the whole input (empty,
// UTF-16) and the warnings about duplicate members come through Batches as
// through Next.
func TestReaderWholeInputBatches(t *testing.T) {
	for _, in := range []string{"", "\n \n", lrUTF("{}\n", "UTF-16LE"),
		"{\"a\":1,\"a\":2}\n{\"b\":[{\"c\":1,\"c\":1}]}\n",
		"{\n\"a\": 1,\n\"a\": 2\n}\n"} {
		next := lrRecords(t, []byte(in), ReaderOptions{}, false)
		par := lrRecords(t, []byte(in), ReaderOptions{}, true)
		if len(next) != len(par) || len(next) == 0 {
			t.Fatalf("%q: %d records through Batches, %d through Next", in, len(par), len(next))
		}
		for i := range next {
			n, p := next[i], par[i]
			if n.line != p.line || (n.err == nil) != (p.err == nil) || n.err != nil && n.err.Error() != p.err.Error() || len(n.warnings) != len(p.warnings) {
				t.Fatalf("%q record %d: %+v through Batches, %+v through Next", in, i, p, n)
			}
			for j := range n.warnings {
				if n.warnings[j] != p.warnings[j] {
					t.Fatalf("%q record %d: warning %+v through Batches, %+v through Next", in, i, p.warnings[j], n.warnings[j])
				}
			}
		}
		if next[0].err == nil && len(next[0].warnings) == 0 {
			t.Fatalf("%q: neither an error nor a warning", in)
		}
	}
}

// TestDuplicateWarning: the warning about a duplicate member reads as the
// issue asks: file, line, the name, what is kept, the pointer.
func TestDuplicateWarning(t *testing.T) {
	recs, _, err := lrReadAll(t, []byte("\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"params\":{\"x\":1,\"x\":2,\"x\":3},\"method\":\"m\"}\n"), ReaderOptions{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	var got []string
	for _, w := range recs[0].warnings {
		got = append(got, w.String())
	}
	want := []string{
		`in.jsonl:3: warning: member "x" appears 3 times in one object: the last one is used (at /params/x)`,
		`in.jsonl:3: warning: member "id" appears twice in one object: the last one is used (at /id)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEmptyGzip: an empty gzip stream is an empty input, said so.
func TestEmptyGzip(t *testing.T) {
	recs, _, err := lrReadAll(t, lrGzip(t, nil), ReaderOptions{})
	if err != nil || len(recs) != 1 || recs[0].err == nil ||
		recs[0].err.String() != "in.jsonl: empty input: the gzip data decompresses to nothing, no JSON-RPC message" {
		t.Fatalf("records %+v, %v; want one, empty input", recs, err)
	}
}

// TestSizeString: sizes in errors read as a person writes them.
func TestSizeString(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 500: "500 bytes", 10000: "10000 bytes", 10 << 10: "10 KiB",
		65568 << 10: "64.0 MiB", 16 << 30: "16 GiB", 3 << 29: "1.5 GiB", 70 << 20: "70 MiB"} {
		if got := sizeString(n); got != want {
			t.Errorf("sizeString(%d) = %q, want %q", n, got, want)
		}
	}
}
