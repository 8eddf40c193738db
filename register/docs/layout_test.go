package docs

import "testing"

func TestRelLink(t *testing.T) {
	tests := []struct{ from, to, want string }{
		{"register.json", "annotated/a/schema.yaml", "annotated/a/schema.yaml"},
		{"annotated/a/schema.yaml", "annotated/b/schema.yaml", "../b/schema.yaml"},
		{"annotated/a/b/schema.yaml", "annotated/a/schema.yaml", "../schema.yaml"},
		{"tests/a/x.jsonld", "annotated/a/context.jsonld", "../../annotated/a/context.jsonld"},
		{"bblock/x.html", "tests/a/", "../tests/a/"},
		{"annotated/a/schema.yaml", "annotated/a/schema.yaml", "schema.yaml"},
		{"bblock/x.html", "tests/a b/x#1.json", "../tests/a%20b/x%231.json"},
	}
	for _, tt := range tests {
		if got := RelLink(tt.from, tt.to); got != tt.want {
			t.Errorf("RelLink(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
