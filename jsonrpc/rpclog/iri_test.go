package rpclog

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultIRI(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ file, want string }{
		{"-", "file:///dev/stdin"},
		{"", "file:///dev/stdin"},
		{"/tmp/a b.jsonl", "file:///tmp/a%20b.jsonl"},
		{"/tmp/x/../c#1.jsonl", "file:///tmp/c%231.jsonl"},
		{"rel.jsonl", "file://" + filepath.ToSlash(wd) + "/rel.jsonl"},
	}
	for _, tt := range tests {
		if got := DefaultIRI(tt.file); got != tt.want {
			t.Errorf("DefaultIRI(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
}

func TestIRI(t *testing.T) {
	tests := []struct {
		base, file string
		inputs     int
		want       string
	}{
		{"", "/tmp/a.jsonl", 1, "file:///tmp/a.jsonl"},
		{"", "-", 2, "file:///dev/stdin"},
		{"http://ex.org/log", "/tmp/a.jsonl", 1, "http://ex.org/log"},
		{"http://ex.org/log", "-", 1, "http://ex.org/log"},
		{"http://ex.org/logs", "/tmp/a.jsonl", 2, "http://ex.org/logs/a.jsonl"},
		{"http://ex.org/logs/", "d/a.jsonl", 2, "http://ex.org/logs/a.jsonl"},
		{"http://ex.org/logs#", "a.jsonl", 3, "http://ex.org/logs#a.jsonl"},
		{"http://ex.org/logs", "-", 2, "http://ex.org/logs/stdin"},
	}
	for _, tt := range tests {
		if got := IRI(tt.base, tt.file, tt.inputs); got != tt.want {
			t.Errorf("IRI(%q, %q, %d) = %q, want %q", tt.base, tt.file, tt.inputs, got, tt.want)
		}
	}
}

func TestSharedIRI(t *testing.T) {
	tests := []struct {
		base                string
		files               []string
		first, second, want string
	}{
		{"http://ex.org/l", []string{"a/s.jsonl", "b/t.jsonl"}, "", "", ""},
		{"http://ex.org/l", []string{"a/s.jsonl", "x.jsonl", "b/s.jsonl"}, "a/s.jsonl", "b/s.jsonl", "http://ex.org/l/s.jsonl"},
		{"http://ex.org/l", []string{"stdin", "-"}, "stdin", "-", "http://ex.org/l/stdin"},
		{"http://ex.org/l", []string{"a/s.jsonl"}, "", "", ""},
		{"", []string{"s.jsonl", "./s.jsonl"}, "s.jsonl", "./s.jsonl", DefaultIRI("s.jsonl")},
	}
	for _, tt := range tests {
		first, second, iri, ok := SharedIRI(tt.base, tt.files)
		if ok != (tt.want != "") || first != tt.first || second != tt.second || iri != tt.want {
			t.Errorf("SharedIRI(%q, %q) = %q, %q, %q, %v; want %q, %q, %q", tt.base, tt.files, first, second, iri, ok, tt.first, tt.second, tt.want)
		}
	}
}
