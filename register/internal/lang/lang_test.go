package lang

import "testing"

func TestKinds(t *testing.T) {
	tests := []struct {
		lang, kind, checked, ext, media string
	}{
		{"json", JSON, JSON, ".json", "application/json"},
		{" Application/JSON ", JSON, JSON, ".json", "application/json"},
		{"json-ld", JSONLD, JSONLD, ".jsonld", "application/ld+json"},
		{"ttl", Turtle, Turtle, ".ttl", "text/turtle"},
		{"text/turtle", Turtle, Turtle, ".ttl", "text/turtle"},
		{"yml", YAML, YAML, ".yaml", "yml"},
		{"geojson", "", JSON, ".geojson", "application/geo+json"},
		{"application/geo+json", "", JSON, ".application.application.geo+json", "application/geo+json"},
		{"xml", "", "", ".xml", "application/xml"},
		{"application/zip", "", "", ".application.application.zip", "application/zip"},
		{"a b", "", "", ".a_b", "a b"},
		{"", "", "", ".txt", ""},
	}
	for _, tt := range tests {
		if got := Kind(tt.lang); got != tt.kind {
			t.Errorf("Kind(%q) = %q, want %q", tt.lang, got, tt.kind)
		}
		if got := Checked(tt.lang); got != tt.checked {
			t.Errorf("Checked(%q) = %q, want %q", tt.lang, got, tt.checked)
		}
		if got := SnippetExtension(tt.lang); got != tt.ext {
			t.Errorf("SnippetExtension(%q) = %q, want %q", tt.lang, got, tt.ext)
		}
		if got := MediaType(tt.lang); got != tt.media {
			t.Errorf("MediaType(%q) = %q, want %q", tt.lang, got, tt.media)
		}
	}
}

func TestFileNames(t *testing.T) {
	tests := []struct{ name, lang string }{
		{"a.json", "json"}, {"a.JSONLD", "jsonld"}, {"b-fail.ttl", "turtle"}, {"c.yml", "yaml"}, {"d.xml", "xml"}, {"README", ""},
	}
	for _, tt := range tests {
		if got := OfFile(tt.name); got != tt.lang {
			t.Errorf("OfFile(%q) = %q, want %q", tt.name, got, tt.lang)
		}
	}
	stems := []struct{ base, lang, want string }{
		{"example_8_2", "application/geo+json", "example_8_2.application"},
		{"example_1_1", "json", "example_1_1"},
		{"example_1_2", "xml", "example_1_2"},
	}
	for _, tt := range stems {
		if got := SnippetStem(tt.base, tt.lang); got != tt.want {
			t.Errorf("SnippetStem(%q, %q) = %q, want %q", tt.base, tt.lang, got, tt.want)
		}
	}
}
