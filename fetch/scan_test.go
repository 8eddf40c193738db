package fetch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// decodedRefs returns the references of a JSON document as decoding it
// whole finds them (encoding/json): the strings of members named as one
// of keys, or of arrays that are; ok is false when it is not JSON.
func decodedRefs(data []byte, keys []string) (refs []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false // more after the document
	}
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case string:
			if slices.Contains(keys, key) {
				refs = append(refs, x)
			}
		}
	}
	walk(v, "")
	return refs, true
}

// scannedRefs returns the references scanJSON finds in data.
func scannedRefs(data []byte, keys []string) ([]string, error) {
	var refs []string
	d := &refDoc{keys: keys, link: func(s string) error { refs = append(refs, s); return nil }}
	return refs, scanJSON(bytes.NewReader(data), d)
}

// sameRefs compares the scan with decoding: the same references (as a
// multiset: a decoded object's members come in no order) when the text is
// JSON as jrpcld reads it (internal/jsonparse: valid UTF-8, no lone
// surrogate escapes, which encoding/json replaces), read whole and a byte
// at a time (so that every string crosses reads). Where an object names a
// member twice, decoding keeps the last; the scan finds them all.
func sameRefs(t *testing.T, data []byte, keys []string) {
	t.Helper()
	want, ok := decodedRefs(data, keys)
	p := jsonparse.Parser{MaxDepth: maxNesting, LoneSurrogates: true}
	if _, perr := p.Parse(data); perr != nil || len(p.Surrogates()) > 0 {
		ok = false
	}
	dups := len(p.Duplicates()) > 0
	for _, slow := range []bool{false, true} {
		var got []string
		d := &refDoc{keys: keys, link: func(s string) error { got = append(got, s); return nil }}
		var err error
		if slow {
			err = scanJSON(iotest.OneByteReader(bytes.NewReader(data)), d)
		} else {
			err = scanJSON(bytes.NewReader(data), d)
		}
		if !ok {
			// Not JSON: the scan may read it, or some of it, as it can.
			continue
		}
		if err != nil {
			if strings.Contains(err.Error(), "where a link was looked for") {
				continue
			}
			t.Fatalf("%q: scan: %v; encoding/json reads it", data, err)
		}
		sort.Strings(got)
		sort.Strings(want)
		if dups && isSubset(want, got) {
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: scan finds %q, decoding %q", data, got, want)
		}
	}
}

// isSubset reports whether the sorted a is part of the sorted b.
func isSubset(a, b []string) bool {
	i := 0
	for _, s := range b {
		if i < len(a) && a[i] == s {
			i++
		}
	}
	return i == len(a)
}

// TestScanJSON: the scan finds what decoding finds, in documents that
// nest references in objects and arrays, escape names and values, and hold
// long strings, literals and numbers; a text that is not JSON is an error.
func TestScanJSON(t *testing.T) {
	keys := []string{"$ref", "@context", "@import"}
	long := strings.Repeat(`a\"b\\`, 30000) // past the reader's buffer, with escapes
	for _, doc := range []string{
		`{"$ref":"a.json"}`,
		`{"type":"object","properties":{"x":{"$ref":"../x.json#/$defs/y"},"y":{"items":[{"$ref":"y.json"}]}}}`,
		`{"\u0024ref":"escaped-name.json","$ref2":"no.json","a":{"$ref":"b\/c\u002ejson"}}`,
		`{"@context":["a.jsonld",{"@import":"b.jsonld","x":"no"},["c.jsonld"]]}`,
		`{"$ref":{"$ref":"inner.json"},"x":"` + long + `","$ref ":"no"}`,
		`{"` + long + `":"no","n":[1,-2.5e+3,true,false,null,{}],"$ref":"after-long.json"}`,
		`["$ref",{"$ref":"in-array.json"}]`,
		`"$ref"`,
		`{"$ref":"a\\"}`,
		` {"$ref" : "space.json" } ` + "\n",
		`{"$ref":1,"$ref":"dup.json"}`, `{"$ref":"first.json","$ref":"dup.json"}`,
		`{}`, `[]`, `[[]]`, `{"a":{}}`, `0`, `-1.5`, `true`, `null`,
	} {
		sameRefs(t, []byte(doc), keys)
		if _, ok := decodedRefs([]byte(doc), keys); !ok {
			t.Errorf("%.40q is not JSON: the case proves nothing", doc)
		}
	}
	for _, bad := range []string{
		``, `{`, `{"$ref":"a.json"`, `{"$ref":"a.json"}}`, `{"$ref" "a"}`, `{"a":1,}`, `[1,]`, `[1 2]`,
		`{"$ref":"a.json"} x`, `tru`, `nulll`, `{"a":01x}`, `"abc`, `{1:2}`, `{"a":1]`, `[}`,
		strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1),
	} {
		if _, err := scannedRefs([]byte(bad), keys); !errors.Is(err, errNotJSON) {
			t.Errorf("%.40q: %v, want not JSON", bad, err)
		}
	}
}

// TestScanLongLink: a string longer than maxLink where a link is looked
// for is an error naming it; elsewhere it is read past.
func TestScanLongLink(t *testing.T) {
	long := strings.Repeat("x", maxLink)
	if _, err := scannedRefs([]byte(`{"$ref":"`+long+`"}`), []string{"$ref"}); err == nil || !strings.Contains(err.Error(), "where a link was looked for") {
		t.Errorf("err %v", err)
	}
	if refs, err := scannedRefs([]byte(`{"$ref":"a","b":"`+long+`"}`), []string{"$ref"}); err != nil || len(refs) != 1 {
		t.Errorf("%q, %v", refs, err)
	}
}

// TestRegisterDoc: a register.json is read for its baseURL, its blocks
// and their links, whether an object with "bblocks" or an array; other
// documents are no register.
func TestRegisterDoc(t *testing.T) {
	for _, c := range []struct {
		doc      string
		register bool
		base     string
		blocks   int
		links    string
	}{
		{`{"baseURL":"https://h/","bblocks":[{"schema":{"application/json":"a.json","application/yaml":"a.yaml"},"ldContext":"a.jsonld","ontology":"a.ttl","sourceSchema":"no"},{"schema":"b.json","documentation":{"x":"no"}}]}`,
			true, "https://h/", 2, "a.json a.yaml a.jsonld a.ttl b.json"},
		{`[{"schema":"a.json"},{"ldContext":"b.jsonld"}]`, true, "", 2, "a.json b.jsonld"},
		{`{"bblocks":[]}`, true, "", 0, ""},
		{`{"bblocks":[{"schema":{"x":{"y":"no"}},"x":{"schema":"no"}}],"baseURL":"https://late/"}`, true, "https://late/", 1, ""},
		{`{"name":"not a register"}`, false, "", 0, ""},
		{`{"bblocks":null}`, false, "", 0, ""},
		{`{"bblocks":{"schema":"a.json"}}`, false, "", 0, ""},
		{`{"x":{"bblocks":[]}}`, false, "", 0, ""},
	} {
		reg := &registerDoc{}
		var links []string
		reg.link = func(s string) error { links = append(links, s); return nil }
		err := scanJSON(strings.NewReader(c.doc), reg)
		if err != nil || reg.isRegister != c.register || reg.baseURL != c.base || (c.register && (reg.blocks != c.blocks || strings.Join(links, " ") != c.links)) {
			t.Errorf("%s: %v, register %v, base %q, %d blocks, links %q", c.doc, err, reg.isRegister, reg.baseURL, reg.blocks, links)
		}
	}
}

// FuzzScanJSON holds the scan to decoding with encoding/json: on every
// text encoding/json reads, the same references.
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{
		`{"$ref":"a.json"}`, `{"a":[{"$ref":"b"},{"@context":["c",{"@import":"d"}]}]}`,
		`{"\u0024ref":"x\"y"}`, `[1,2.5e3,true,null,"s"]`, `{"$ref":"a\\"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameRefs(t, data, []string{"$ref", "@context", "@import"})
	})
}
