package rdf

import "testing"

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		name     string
		f        Format
		gz, ok   bool
		readable string
	}{
		{"a.ttl", Turtle, false, true, "turtle"},
		{"A.TTL", Turtle, false, true, "turtle"},
		{"a.turtle", Turtle, false, true, "turtle"},
		{"dir.d/a.nt", NTriples, false, true, "ntriples"},
		{"a.nq.gz", NQuads, true, true, "nquads"},
		{"a.jsonld", JSONLD, false, true, "jsonld"},
		{"a.owl", RDFXML, false, true, "rdfxml"},
		{"a.rdf", RDFXML, false, true, "rdfxml"},
		{"a.jsonl", 0, false, false, ""},
		{"a.gz", 0, true, false, ""},
		{"a", 0, false, false, ""},
	} {
		f, gz, ok := FormatOf(c.name)
		if f != c.f || gz != c.gz || ok != c.ok {
			t.Errorf("FormatOf(%q) = %v, %v, %v; want %v, %v, %v", c.name, f, gz, ok, c.f, c.gz, c.ok)
		}
		if !ok {
			continue
		}
		if f.String() != c.readable {
			t.Errorf("%v.String() = %q, want %q", f, f.String(), c.readable)
		}
		if back, err := ParseFormat(f.String()); err != nil || back != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), back, err)
		}
		if back, ok := FormatForMediaType(f.MediaType() + "; charset=utf-8"); !ok || back != f && f != JSONLDExpanded {
			t.Errorf("FormatForMediaType(%q) = %v, %v", f.MediaType(), back, ok)
		}
	}
	for s, want := range map[string]Format{"TTL": Turtle, "nt": NTriples, "NQ": NQuads, "jsonld-expanded": JSONLDExpanded, "rdf": RDFXML} {
		if f, err := ParseFormat(s); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", s, f, err, want)
		}
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("ParseFormat(xml) succeeded")
	}
	if _, ok := FormatForMediaType("text/html"); ok {
		t.Error("text/html is an RDF format")
	}
	if RDFXML.Writable() || !JSONLDExpanded.Writable() || Format(-1).Writable() || Format(99).String() != "Format(99)" {
		t.Error("Writable or String of odd formats")
	}
}
