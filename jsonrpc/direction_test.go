package jsonrpc

import (
	"encoding/json"
	"testing"
)

func TestDirection(t *testing.T) {
	for _, c := range []struct {
		d        Direction
		s        string
		opposite Direction
	}{
		{NoDirection, "", NoDirection},
		{ClientToServer, "c2s", ServerToClient},
		{ServerToClient, "s2c", ClientToServer},
	} {
		if c.d.String() != c.s || c.d.Opposite() != c.opposite {
			t.Errorf("%d: String %q, Opposite %v", c.d, c.d.String(), c.d.Opposite())
		}
		if c.s != "" {
			if d, ok := ParseDirection(c.s); !ok || d != c.d {
				t.Errorf("ParseDirection(%q) = %v, %v", c.s, d, ok)
			}
		}
		b, err := json.Marshal(struct{ Dir Direction }{c.d})
		if err != nil {
			t.Fatal(err)
		}
		var back struct{ Dir Direction }
		if err := json.Unmarshal(b, &back); err != nil || back.Dir != c.d {
			t.Errorf("%s: round trip gives %v, %v", b, back.Dir, err)
		}
	}
	for _, bad := range []string{"C2S", "c2s ", "x", "-"} {
		if _, ok := ParseDirection(bad); ok {
			t.Errorf("ParseDirection(%q) accepted", bad)
		}
		var d Direction
		if d.UnmarshalText([]byte(bad)) == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
}
