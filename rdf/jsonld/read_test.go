package jsonld

import (
	"errors"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
)

// TestReadDepth: JSON-LD nested past encoding/json's bound of 10,000 is an
// error naming the line, the column and the limit, where it was
// encoding/json's "exceeded max depth"; 1,000 deep is read.
func TestReadDepth(t *testing.T) {
	doc := func(n int) string {
		return `{"@context": {"@vocab": "http://e/"},` + "\n" + strings.Repeat(`"a": {`+"\n", n-1) + `"b": 1` + strings.Repeat("}", n)
	}
	qs, err := Read([]byte(doc(1_000)))
	if err != nil || len(qs) != 1_000 {
		t.Fatalf("1,000 deep: %d statements, %v", len(qs), err)
	}
	_, err = Read([]byte(doc(10_001)))
	var d *diag.Diagnostic
	if !errors.As(err, &d) || d.Line != 10_001 || d.Column != 6 || d.Message != "JSON-LD: nested more than 10000 deep" {
		t.Errorf("10,001 deep: %v", err)
	}
}
