package warnfold

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestWriter: the folding of -q, line by line: runs of warnings
// alike (IRIs, quoted strings, pointers and numbers aside) fold, anything
// else ends a run and passes in order, and lines may come in pieces.
func TestWriter(t *testing.T) {
	in := []string{
		"jrpcld x: warning: b: the context produces http://a/1, which the ontology does not declare\n",
		"jrpcld x: warning: b: the context produces http://a/2, which the ontology does not declare\n",
		"jrpcld x: warning: b: the context produces urn:x:y, which the ontology does not declare\n",
		"jrpcld x: something else\n",
		"f.jsonl:3: warning: id \"@id\" left out (at /id)\n",
		"f.jsonl:9: warning: id \"@type\" left out (at /params/0)\n",
		"jrpcld x: warning: one\n",
		"jrpcld x: warning: two\n",
		"no end",
	}
	want := "jrpcld x: warning: b: the context produces http://a/1, which the ontology does not declare (and 2 more like it; without -q, each is printed)\n" +
		"jrpcld x: something else\n" +
		"f.jsonl:3: warning: id \"@id\" left out (at /id) (and 1 more like it; without -q, each is printed)\n" +
		"jrpcld x: warning: one\njrpcld x: warning: two\nno end"
	var buf bytes.Buffer
	f := New(&buf, false)
	for _, s := range in {
		for len(s) > 0 { // in pieces of 7 bytes
			n := min(7, len(s))
			f.Write([]byte(s[:n]))
			s = s[n:]
		}
	}
	f.Flush()
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	f = New(&buf, true)
	f.Write([]byte(strings.Join(in, "")))
	f.Flush()
	if buf.String() != "jrpcld x: something else\nno end" {
		t.Errorf("dropping: %q", buf.String())
	}
}

// A run of warnings alike becomes one line; other lines pass in order.
func ExampleWriter() {
	w := New(os.Stdout, false)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(w, "jrpcld validate: warning: the context produces http://example.org/t%d, which the ontology does not declare\n", i)
	}
	fmt.Fprintln(w, "1 file, 5 messages: 5 valid")
	w.Flush()
	// Output:
	// jrpcld validate: warning: the context produces http://example.org/t1, which the ontology does not declare (and 2 more like it; without -q, each is printed)
	// 1 file, 5 messages: 5 valid
}
