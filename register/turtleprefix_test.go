package register

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
)

// TestExampleTurtlePrefixes: the Turtle of each uplifted example of the
// embedded block and of the fixture declares only prefixes its statements
// use (rdflib writes the tool chain's so): jrpcld's own jlog: is not
// declared on graphs that do not hold it.
func TestExampleTurtlePrefixes(t *testing.T) {
	def, err := DefaultRegister()
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := bblock.LoadRegisterDir(fixtureDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, reg := range map[string]*bblock.Register{"embedded": def, "fixture": fixture} {
		t.Run(name, func(t *testing.T) {
			out, _ := buildReg(t, reg, Options{})
			files, _ := filepath.Glob(filepath.Join(out, "tests", "*", "example_*.ttl"))
			if len(files) == 0 {
				t.Fatal("no example Turtle written")
			}
			uplifted := 0
			for _, f := range files {
				if _, err := os.Stat(strings.TrimSuffix(f, ".ttl") + ".json"); err != nil {
					continue // a Turtle snippet, published as written
				}
				uplifted++
				text := string(readFile(t, f))
				head, body, _ := strings.Cut(text, "\n\n")
				for _, line := range strings.Split(head, "\n") {
					name, ok := strings.CutPrefix(line, "@prefix ")
					if !ok {
						continue
					}
					name, _, _ = strings.Cut(name, ":")
					if !strings.Contains(body, name+":") {
						t.Errorf("%s declares %s:, which its statements do not use:\n%s", f, name, text)
					}
				}
			}
			if uplifted == 0 {
				t.Error("no example uplifted from JSON")
			}
		})
	}
}
