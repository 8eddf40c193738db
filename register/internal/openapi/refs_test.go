package openapi

import "testing"

func TestIsURLRef(t *testing.T) {
	tests := []struct {
		ref  string
		want bool
	}{
		{"https://example.com/a.yaml", true},
		{"urn:x:y", true},
		{"git+ssh://host/r", true},
		{"schema.yaml", false},
		{"../a/schema.yaml#/x", false},
		{":no-scheme", false},
		{"1http://x", false},
		{"a/b:c", false},
		{"#/components", false},
	}
	for _, tt := range tests {
		if got := isURLRef(tt.ref); got != tt.want {
			t.Errorf("isURLRef(%q) = %v, want %v", tt.ref, got, tt.want)
		}
	}
}
