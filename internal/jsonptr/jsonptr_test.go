package jsonptr

import (
	"encoding/json"
	"testing"
)

// The pointers and answers are RFC 6901's examples (section 5).
func TestGet(t *testing.T) {
	var doc any
	json.Unmarshal([]byte(`{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}`), &doc)
	tests := []struct {
		ptr  string
		want string
	}{
		{"", `{"":0," ":7,"a/b":1,"c%d":2,"e^f":3,"foo":["bar","baz"],"g|h":4,"i\\j":5,"k\"l":6,"m~n":8}`},
		{"/foo", `["bar","baz"]`}, {"/foo/0", `"bar"`}, {"/", `0`}, {"/a~1b", `1`}, {"/c%d", `2`}, {"/e^f", `3`},
		{"/g|h", `4`}, {"/i\\j", `5`}, {"/k\"l", `6`}, {"/ ", `7`}, {"/m~0n", `8`},
	}
	for _, tt := range tests {
		v, err := Get(doc, tt.ptr)
		got, _ := json.Marshal(v)
		if err != nil || string(got) != tt.want {
			t.Errorf("Get(%q) = %s, %v; want %s", tt.ptr, got, err, tt.want)
		}
	}
	for _, bad := range []string{"foo", "/nope", "/foo/2", "/foo/-1", "/foo/x", "/foo/0/deeper"} {
		if _, err := Get(doc, bad); err == nil {
			t.Errorf("Get(%q) succeeded", bad)
		}
	}
}

func TestEscape(t *testing.T) {
	for _, s := range []string{"", "a", "a/b", "m~n", "~1", "/~/"} {
		if Unescape(Escape(s)) != s {
			t.Errorf("round trip of %q", s)
		}
	}
	if Escape("a/b~") != "a~1b~0" {
		t.Errorf("Escape(a/b~) = %q", Escape("a/b~"))
	}
}
