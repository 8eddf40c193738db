package rpclog

import (
	"net/url"
	"path/filepath"
	"strings"
)

// A log's IRI names it in the graphs made of it: its messages are LOG#c2s-5
// and so on. The rules here give every log read by jrpcld and jrpcld-beam
// its IRI, so that the same file gets the same IRI from both.

// DefaultIRI returns the IRI a log is given when the user gives none: the
// file: URL of its absolute path, or file:///dev/stdin for standard input
// ("" or "-").
func DefaultIRI(file string) string {
	if file == "" || file == "-" {
		return "file:///dev/stdin"
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// IRI returns the IRI of the log read from file, one of inputs inputs, with
// base the IRI the user gave (--base): base itself for a single input, base
// with the file's name added for several ("stdin" for "-"), and
// DefaultIRI(file) without base.
func IRI(base, file string, inputs int) string {
	if base == "" {
		return DefaultIRI(file)
	}
	if inputs == 1 {
		return base
	}
	name := filepath.Base(file)
	if file == "-" {
		name = "stdin"
	}
	if !strings.HasSuffix(base, "/") && !strings.HasSuffix(base, "#") {
		base += "/"
	}
	return base + name
}

// SharedIRI finds two of files that IRI(base, file, len(files)) gives the
// same IRI: their statements would make one log. It returns the first pair
// found and their IRI; ok is false when each file has its own.
func SharedIRI(base string, files []string) (first, second, iri string, ok bool) {
	seen := make(map[string]string, len(files))
	for _, f := range files {
		iri := IRI(base, f, len(files))
		if other, dup := seen[iri]; dup {
			return other, f, iri, true
		}
		seen[iri] = f
	}
	return "", "", "", false
}
