package register

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/bomb"
	"github.com/jrpcld/jrpcld/register/transform"
)

// testSandbox runs the transforms and uplift steps of the builds of
// buildReg and of the differential test: the test binary is its child, so
// the outputs compared with the tool chain's are those of the sandbox.
var testSandbox *transform.Sandbox

// TestMain makes the test binary the child of the sandboxes when started
// with transform.ChildArg, and starts testSandbox otherwise.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == transform.ChildArg {
		if err := transform.ServeChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	testSandbox = transform.NewSandbox(transform.DefaultMemoryLimit, "", os.Args[0], transform.ChildArg)
	code := m.Run()
	testSandbox.Close()
	os.Exit(code)
}

// hostileBlocks returns the files of two blocks whose transforms and
// uplift steps take gigabytes (package bomb), below _sources/: t.hostile,
// whose transforms are a jq program, a frame and SHACL rules that do, and
// one jq transform that does not; t.hostile-steps, whose pre-uplift jq
// step does on its first example and whose post-uplift SHACL step does on
// its second.
func hostileBlocks() fstest.MapFS {
	frame, ladder := bomb.Frame(9, 256<<10)
	shapes, chain := bomb.Rules(1000, 0)
	indent := func(s string, n int) string {
		pad := "\n" + strings.Repeat(" ", n)
		return strings.TrimRight(strings.ReplaceAll(s, "\n", pad), " ")
	}
	meta := func(name string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"name": "` + name + `", "abstract": "` + name + `", "status": "under-development",
  "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`)}
	}
	// The second example of t.hostile-steps is a chain of 1000 nodes once
	// uplifted, which the SHACL rules of the step blow up.
	var nodes []string
	for i := range 1000 {
		nodes = append(nodes, fmt.Sprintf(`{"id": "http://example.org//%d", "p": "http://example.org//%d"}`, i, i+1))
	}
	return fstest.MapFS{
		"_sources/hostile/bblock.json": meta("Hostile transforms"),
		"_sources/hostile/schema.yaml": {Data: []byte("$schema: https://json-schema.org/draft/2020-12/schema\n")},
		"_sources/hostile/examples.yaml": {Data: []byte(`examples:
  - title: JSON
    snippets:
      - language: json
        code: '{"name": "Erin"}'
  - title: A ladder
    snippets:
      - language: jsonld
        code: |
          ` + string(ladder) + `
  - title: A chain
    snippets:
      - language: ttl
        code: |
          ` + indent(string(chain), 10) + `
`)},
		"_sources/hostile/transforms.yaml": {Data: []byte(`transforms:
  - id: jq-bomb
    type: jq
    code: '` + bomb.JQ + `'
  - id: upper
    type: jq
    code: 'with_entries(.key |= ascii_upcase)'
  - id: frame-bomb
    type: jsonld-frame
    inputs:
      mediaTypes: [application/ld+json]
    code: '` + frame + `'
  - id: rule-bomb
    type: shacl-af-rule
    inputs:
      mediaTypes: [text/turtle]
    code: |
      ` + indent(shapes, 6) + `
`)},
		"_sources/hostile-steps/bblock.json":    meta("Hostile uplift steps"),
		"_sources/hostile-steps/schema.yaml":    {Data: []byte("$schema: https://json-schema.org/draft/2020-12/schema\n")},
		"_sources/hostile-steps/context.jsonld": {Data: []byte(`{"@context": {"id": "@id", "p": {"@id": "http://example.org/p", "@type": "@id"}, "bomb": "http://example.org/bomb"}}`)},
		"_sources/hostile-steps/examples.yaml": {Data: []byte(`examples:
  - title: The jq step blows up
    snippets:
      - language: json
        code: '{"id": "http://example.org/x", "bomb": true}'
  - title: The SHACL step blows up
    snippets:
      - language: json
        code: '[` + strings.Join(nodes, ", ") + `]'
`)},
		"_sources/hostile-steps/semantic-uplift.yaml": {Data: []byte(`additionalSteps:
  - type: jq
    code: 'if type == "object" and .bomb then ` + bomb.JQ + ` else . end'
  - type: shacl
    code: |
      ` + indent(shapes, 6) + `
`)},
	}
}

// TestHostileSteps (issue 37, item 8): in a register whose transforms and
// uplift steps take gigabytes, built with a sandbox of 64 MiB, each is
// stopped and reported as failed with a message naming the limit (and no
// Go stack trace); the build goes on: the transform beside them gives its
// output, and every file of the other blocks is as a build of the register
// without the hostile blocks writes it.
func TestHostileSteps(t *testing.T) {
	src := os.DirFS(filepath.Join("..", "testdata", "ogc-registers", "transforms-uplift"))
	plain, hostile := fstest.MapFS{}, hostileBlocks()
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		plain[p] = &fstest.MapFile{Data: data}
		hostile[p] = plain[p]
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sandbox := transform.NewSandbox(transform.MinMemoryLimit, "raise it", os.Args[0], transform.ChildArg)
	defer sandbox.Close()
	builds := map[string]map[string][]byte{}
	var res *Result
	for name, tree := range map[string]fstest.MapFS{"plain": plain, "hostile": hostile} {
		reg, err := bblock.LoadRegister(tree, nil)
		if err != nil {
			t.Fatal(err)
		}
		files, r, err := build(reg, Options{BaseURL: "https://example.org/tu/", Date: "2000-01-01", Sandbox: sandbox})
		if err != nil {
			t.Fatal(err)
		}
		builds[name] = files
		if name == "hostile" {
			res = r
		}
	}

	const stopped = "stopped: past the memory limit of 64 MiB (raise it)"
	said := map[string]string{}
	for _, b := range res.Blocks {
		said[b.ID] = strings.Join(append(b.Warnings, b.Errors...), "\n")
		if strings.Contains(said[b.ID], "goroutine ") || strings.Contains(said[b.ID], "runtime.") {
			t.Errorf("%s: a Go stack trace in its messages:\n%s", b.ID, said[b.ID])
		}
	}
	for _, id := range []string{"jq-bomb", "frame-bomb", "rule-bomb"} {
		if !strings.Contains(said["t.hostile"], fmt.Sprintf("transform %q", id)) || !strings.Contains(said["t.hostile"], stopped) {
			t.Errorf("t.hostile: no warning that %s was stopped:\n%s", id, said["t.hostile"])
		}
	}
	hostileOut := builds["hostile"]
	if got := string(hostileOut["tests/hostile/transforms/example_1_1.upper.json"]); got != "{\n  \"NAME\": \"Erin\"\n}" {
		t.Errorf("upper's output beside the bombs: %q", got)
	}
	for _, p := range []string{"example_1_1.jq-bomb.json", "example_2_1.frame-bomb", "example_3_1.rule-bomb"} {
		if _, ok := hostileOut["tests/hostile/transforms/"+p]; ok {
			t.Errorf("%s: the output of a transform that was stopped", p)
		}
	}
	// The steps stop the uplift of their examples, as a step that fails
	// does in the tool chain: each example's report says why.
	var rep struct {
		Items []struct {
			Sections []struct {
				Entries []struct {
					Message string `json:"message"`
				} `json:"entries"`
			} `json:"sections"`
		} `json:"items"`
	}
	if err := json.Unmarshal(hostileOut["tests/hostile-steps/_report.json"], &rep); err != nil {
		t.Fatal(err)
	}
	for i, step := range []string{"pre-uplift jq step", "post-uplift shacl step"} {
		found := false
		for _, s := range rep.Items[i].Sections {
			for _, e := range s.Entries {
				found = found || strings.Contains(e.Message, step) && strings.Contains(e.Message, stopped)
			}
		}
		if !found {
			t.Errorf("example %d of t.hostile-steps: no error that its %s was stopped", i+1, step)
		}
	}

	// The other blocks' files are those of the build without the hostile
	// blocks; only the files that list every block differ.
	for p, want := range builds["plain"] {
		if !strings.Contains(p, "/") || strings.HasPrefix(p, "bblock/") || strings.HasPrefix(p, "tests/report.") {
			continue
		}
		if got, ok := hostileOut[p]; !ok || string(got) != string(want) {
			t.Errorf("%s differs once the hostile blocks are in the register", p)
		}
	}
}
