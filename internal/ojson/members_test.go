package ojson

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestMembersMarshalJSON proves MarshalJSON writes the members in the
// list's order (not sorted, a key twice if it stands twice), values of any
// Go type through encoding/json with HTML characters left as they are,
// keys with HTML characters escaped, and reports a value that is not JSON.
func TestMembersMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string // the text, by hand
	}{
		{"empty", Members{}, `{}`},
		{"nil", Members(nil), `{}`},
		{"order kept", Members{M("z", 1), M("a", "x"), M("m", true)}, `{"z":1,"a":"x","m":true}`},
		{"a key twice", Members{M("k", 1), M("k", 2)}, `{"k":1,"k":2}`},
		{"nested", Members{M("b", Members{M("y", nil), M("x", []int{1, 2})}), M("a", []Members{{M("q", "r")}})},
			`{"b":{"y":null,"x":[1,2]},"a":[{"q":"r"}]}`},
		{"html in a value", Members{M("h", "<a>&</a>")}, `{"h":"<a>&</a>"}`},
		{"html in a key", Members{M("<&>", 1)}, `{"\u003c\u0026\u003e":1}`},
		{"numbers as written", Members{M("n", json.Number("1.50"))}, `{"n":1.50}`},
		{"a struct and a map", Members{M("s", struct{ A int }{3}), M("m", map[string]int{"b": 2, "a": 1})}, `{"s":{"A":3},"m":{"a":1,"b":2}}`},
		{"inside a map", map[string]any{"o": Members{M("z", 1), M("a", 2)}}, `{"o":{"z":1,"a":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			// json.Marshal escapes the HTML characters of what a Marshaler
			// returns: the method's own text is checked too.
			if m, ok := tt.v.(Members); ok {
				if data, err = m.MarshalJSON(); err != nil {
					t.Fatal(err)
				}
			}
			if string(data) != tt.want {
				t.Errorf("got %s, want %s", data, tt.want)
			}
		})
	}
	_, err := Members{M("ok", 1), M("bad", func() {})}.MarshalJSON()
	if err == nil || !strings.Contains(err.Error(), `member "bad"`) {
		t.Errorf("a function value: error %v, want one naming the member", err)
	}
}

// TestMembersAccess proves Get and Has find the first member of a key, and
// Set replaces the first one in place or appends a new one.
func TestMembersAccess(t *testing.T) {
	o := Members{M("a", 1), M("b", 2), M("a", 3)}
	if v, ok := o.Get("a"); !ok || v != 1 {
		t.Errorf("Get(a) = %v, %v; want 1, true", v, ok)
	}
	if v, ok := o.Get("c"); ok || v != nil {
		t.Errorf("Get(c) = %v, %v; want nil, false", v, ok)
	}
	if !o.Has("b") || o.Has("c") || Members(nil).Has("a") {
		t.Error("Has is wrong")
	}
	o = o.Set("a", 9).Set("c", 4)
	want := Members{M("a", 9), M("b", 2), M("a", 3), M("c", 4)}
	if fmt.Sprint(o) != fmt.Sprint(want) {
		t.Errorf("after Set: %v, want %v", o, want)
	}
}

// TestMarshalIndent proves MarshalIndent indents by two spaces, keeps
// Members in order and HTML characters as they are, and ends in a newline.
func TestMarshalIndent(t *testing.T) {
	got, err := MarshalIndent(Members{M("z", "<p>"), M("a", []any{1, Members{}})})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"z\": \"<p>\",\n  \"a\": [\n    1,\n    {}\n  ]\n}\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := MarshalIndent(make(chan int)); err == nil {
		t.Error("a channel: no error")
	}
}

// Members writes a JSON object whose members stand in the order they were
// listed, as the tool chain's files want.
func ExampleMembers() {
	reg := Members{M("name", "Example register"), M("bblocks", []Members{{M("itemIdentifier", "a.b"), M("status", "stable")}})}
	data, _ := MarshalIndent(reg)
	fmt.Print(string(data))
	// Output:
	// {
	//   "name": "Example register",
	//   "bblocks": [
	//     {
	//       "itemIdentifier": "a.b",
	//       "status": "stable"
	//     }
	//   ]
	// }
}
