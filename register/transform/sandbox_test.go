package transform

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/bomb"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
)

// TestMain lets the tests run a Sandbox: started with ChildArg, the test
// binary is the sandbox's child.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == ChildArg {
		if err := ServeChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testLimit is the memory limit of the sandboxes of the tests that pass
// it: small, so that they stop the steps soon and use little memory.
const testLimit = 64 << 20

// newTestSandbox returns a sandbox whose child is the test binary, closed
// at the end of the test.
func newTestSandbox(t *testing.T, limit int64) *Sandbox {
	t.Helper()
	s := NewSandbox(limit, "raise it", os.Args[0], ChildArg)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSandboxStopsPastTheMemoryLimit: a jq program, a frame and SHACL
// rules that would take gigabytes, as transforms and as uplift steps, are
// stopped past the sandbox's limit, each with a *MemoryError naming the
// limit and no trace of the Go runtime; after each, the same sandbox runs
// a transform that fits and gives its output.
func TestSandboxStopsPastTheMemoryLimit(t *testing.T) {
	s := newTestSandbox(t, testLimit)
	frame, ladder := bomb.Frame(5, 2<<20)
	shapes, chain := bomb.Rules(1000, 0)
	json := []MediaType{{MIME: "application/json"}}
	turtle := []MediaType{{MIME: "text/turtle"}}
	loaded := func(code string) *Uplift {
		u, _, err := ParseUplift(UpliftFile, []byte("additionalSteps:\n  - type: "+code))
		if err != nil || len(u.Steps) != 1 {
			t.Fatalf("%s: %v", code, err)
		}
		return u
	}
	cases := []struct {
		name string
		run  func() error
	}{
		{"jq transform", func() error {
			_, err := s.Run(t.Context(), &Transform{ID: "bomb", Type: TypeJQ, Code: bomb.JQ, Outputs: json}, Input{Data: []byte(`{}`), MediaType: "application/json"})
			return err
		}},
		{"frame transform", func() error {
			_, err := s.Run(t.Context(), &Transform{ID: "bomb", Type: TypeJSONLDFrame, Code: frame, Outputs: json}, Input{Data: ladder, MediaType: "application/ld+json"})
			return err
		}},
		{"SHACL rules transform", func() error {
			_, err := s.Run(t.Context(), &Transform{ID: "bomb", Type: TypeSHACLRules, Code: shapes, Outputs: turtle}, Input{Data: chain, MediaType: "text/turtle"})
			return err
		}},
		{"jq step", func() error {
			_, err := s.Pre(t.Context(), loaded("jq\n    code: '"+bomb.JQ+"'"), map[string]any{}, func(string) {})
			return err
		}},
		{"SHACL step", func() error {
			g, err := readGraph(Input{Data: chain, MediaType: "text/turtle"}, false)
			if err != nil {
				t.Fatal(err)
			}
			u := loaded("shacl\n    code: |\n      " + strings.ReplaceAll(shapes, "\n", "\n      "))
			_, err = s.Post(t.Context(), u, g.triples, nil, func(string) {})
			return err
		}},
	}
	upper := &Transform{ID: "upper", Type: TypeJQ, Code: `with_entries(.key |= ascii_upcase)`, Outputs: json}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			var me *MemoryError
			if !errors.As(err, &me) || me.Limit != testLimit || me.Output {
				t.Fatalf("error %v, want a MemoryError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "stopped: past the memory limit of 64 MiB (raise it)") || strings.Contains(msg, "goroutine") || strings.Contains(msg, "runtime.") {
				t.Errorf("message %q", msg)
			}
			out, err := s.Run(t.Context(), upper, Input{Data: []byte(`{"a": 1}`), MediaType: "application/json"})
			if err != nil || string(out) != "{\n  \"A\": 1\n}" {
				t.Errorf("the next transform: %q, %v", out, err)
			}
		})
	}
}

// TestSandboxLikeThisProcess: a transform, a jq step and a SHACL step give
// in a sandbox what they give in this process, failures included.
func TestSandboxLikeThisProcess(t *testing.T) {
	s := newTestSandbox(t, DefaultMemoryLimit)
	turtle := []MediaType{{MIME: "text/turtle"}}
	tr := &Transform{ID: "agents", Type: TypeSHACLRules, Code: personRules, Outputs: turtle}
	in := Input{Data: []byte(personData), MediaType: "text/turtle", Prefixes: map[string]string{"ex": "http://example.org/"}}
	here, err1 := tr.Run(t.Context(), in)
	there, err2 := s.Run(t.Context(), tr, in)
	if err1 != nil || err2 != nil || string(here) != string(there) {
		t.Errorf("SHACL rules: %q, %v here; %q, %v in the sandbox", here, err1, there, err2)
	}
	for _, typ := range []string{TypeSPARQLUpdate, TypeSPARQLConstruct} {
		code := "DELETE { ?s ex:name ?n } INSERT { ?s ex:label ?n } WHERE { ?s ex:name ?n }"
		if typ == TypeSPARQLConstruct {
			code = "CONSTRUCT { ?s ex:label ?n } WHERE { ?s ex:name ?n }"
		}
		sp := &Transform{ID: "rename", Type: typ, Code: code, Outputs: turtle}
		here, err1 := sp.Run(t.Context(), in)
		there, err2 := s.Run(t.Context(), sp, in)
		if err1 != nil || err2 != nil || string(here) != string(there) || !strings.Contains(string(here), `ex:label "Alice"`) {
			t.Errorf("%s: %q, %v here; %q, %v in the sandbox", typ, here, err1, there, err2)
		}
		u, _, err := ParseUplift(UpliftFile, []byte("additionalSteps:\n  - type: "+typ+"\n    code: '"+code+"'\n"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := readGraph(in, true)
		if err != nil {
			t.Fatal(err)
		}
		post1, err1 := u.Post(t.Context(), g.triples, g.prefixes, func(string) {})
		post2, err2 := s.Post(t.Context(), u, g.triples, g.prefixes, func(string) {})
		if ok, diff := rdftest.Isomorphic(post1, post2); !ok || err1 != nil || err2 != nil || len(post1) == 0 {
			t.Errorf("%s step: %v here, %v in the sandbox: %s", typ, err1, err2, diff)
		}
	}
	bad := &Transform{ID: "bad", Type: TypeJQ, Code: `error("boom")`, Outputs: []MediaType{{MIME: "application/json"}}}
	_, err1 = bad.Run(t.Context(), Input{Data: []byte(`{}`)})
	_, err2 = s.Run(t.Context(), bad, Input{Data: []byte(`{}`)})
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("a failing jq program: %v here, %v in the sandbox", err1, err2)
	}

	u, _, err := ParseUplift(UpliftFile, []byte("additionalSteps:\n  - type: jq\n    code: '.n = .n * 2 | .s = \"é\\u0000\"'\n  - type: shacl\n    code: |\n      "+strings.ReplaceAll(personRules, "\n", "\n      ")))
	if err != nil {
		t.Fatal(err)
	}
	v := map[string]any{"n": 0.5}
	var notes1, notes2 []string
	pre1, err1 := u.Pre(t.Context(), v, func(m string) { notes1 = append(notes1, m) })
	pre2, err2 := s.Pre(t.Context(), u, v, func(m string) { notes2 = append(notes2, m) })
	if err1 != nil || err2 != nil || fmt.Sprint(pre1) != fmt.Sprint(pre2) || fmt.Sprint(pre1) != "map[n:1 s:é\x00]" {
		t.Errorf("jq step: %v, %v here; %v, %v in the sandbox", pre1, err1, pre2, err2)
	}
	g, err := readGraph(in, true)
	if err != nil {
		t.Fatal(err)
	}
	post1, err1 := u.Post(t.Context(), g.triples, nil, func(m string) { notes1 = append(notes1, m) })
	post2, err2 := s.Post(t.Context(), u, g.triples, nil, func(m string) { notes2 = append(notes2, m) })
	want, err := rdftest.ParseTurtle([]byte(personInferred), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range [][]rdf.Triple{post1, post2} {
		if ok, diff := rdftest.Isomorphic(got, want); !ok || err1 != nil || err2 != nil {
			t.Errorf("SHACL step: %v, %v: %s", err1, err2, diff)
		}
	}
	if strings.Join(notes1, "\n") != strings.Join(notes2, "\n") || len(notes1) != 2 {
		t.Errorf("notes %q here, %q in the sandbox", notes1, notes2)
	}
}

// TestSandboxStopsPastTheTimeLimit: a step that runs past the time limit
// is stopped, by the child when it takes more processor time than it may
// (a frame, which does not look at the time, and a SPARQL query whose
// own timeout is longer), by the sandbox when the
// child does not answer in time; the child is killed either way and the
// next step runs in a new one.
func TestSandboxStopsPastTheTimeLimit(t *testing.T) {
	json := []MediaType{{MIME: "application/json"}}
	frame, ladder := bomb.Frame(30, 1) // 2^30 embeddings: long, in little memory
	// A CONSTRUCT over five copies of a graph of 40 triples: 40^5
	// solutions, each kept out by a filter that needs them all.
	var forty strings.Builder
	for i := range 40 {
		fmt.Fprintf(&forty, "<http://e/s%d> <http://e/p> %d .\n", i, i)
	}
	product := "CONSTRUCT { ?a ?p ?b } WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f . ?g ?s ?h . ?i ?t ?j FILTER(?b + ?d + ?f + ?h + ?j < 0) }"
	endless := []struct {
		name string
		cpu  time.Duration // the limits of the sandbox
		wall time.Duration
		tr   *Transform
		in   []byte
	}{
		{"processor time", 300 * time.Millisecond, wallLimit, &Transform{ID: "frame", Type: TypeJSONLDFrame, Code: frame, Outputs: json}, ladder},
		{"wall-clock time", runLimit, 300 * time.Millisecond, &Transform{ID: "endless", Type: TypeJQ, Code: `last(range(1e15))`, Outputs: json}, []byte(`{}`)},
		{"SPARQL", 300 * time.Millisecond, wallLimit, &Transform{ID: "product", Type: TypeSPARQLConstruct, Code: product, Outputs: []MediaType{{MIME: "text/turtle"}}}, []byte(forty.String())},
	}
	for _, c := range endless {
		// A child of its own: it takes the limits when it starts.
		s := newTestSandbox(t, DefaultMemoryLimit)
		s.cpu, s.timeout = c.cpu, c.wall
		mt := "application/ld+json"
		if c.tr.Type == TypeSPARQLConstruct {
			mt = "text/turtle"
		}
		_, err := s.Run(t.Context(), c.tr, Input{Data: c.in, MediaType: mt})
		if err == nil || !strings.Contains(err.Error(), "stopped: it ran longer than the limit ("+s.cpu.String()+")") {
			t.Errorf("%s: error %v", c.name, err)
		}
		s.cpu, s.timeout = runLimit, wallLimit
		out, err := s.Run(t.Context(), &Transform{ID: "id", Type: TypeJQ, Code: `.`, Outputs: json}, Input{Data: []byte(`[1]`)})
		if err != nil || string(out) != "[\n  1\n]" {
			t.Errorf("%s: the next transform: %q, %v", c.name, out, err)
		}
	}
}

// TestSandboxRefusesLargeOutput: an output larger than a quarter of the
// limit is not taken back, with a *MemoryError that says so: here the
// triples a SHACL step infers, which share their long IRIs in the child
// (22,500 triples, a few MiB) and would take 45 MiB in a message.
func TestSandboxRefusesLargeOutput(t *testing.T) {
	s := newTestSandbox(t, testLimit)
	shapes, chain := bomb.Rules(150, 1<<10)
	g, err := readGraph(Input{Data: chain, MediaType: "text/turtle"}, false)
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := ParseUplift(UpliftFile, []byte("additionalSteps:\n  - type: shacl\n    code: |\n      "+strings.ReplaceAll(shapes, "\n", "\n      ")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Post(t.Context(), u, g.triples, nil, func(string) {})
	var me *MemoryError
	if !errors.As(err, &me) || !me.Output || !strings.Contains(err.Error(), "its output is larger than 16 MiB, a quarter of the memory limit of 64 MiB (raise it)") {
		t.Errorf("error %v", err)
	}
}

// TestSandboxCannotStart: a child that cannot be started fails the step
// with an error that says so.
func TestSandboxCannotStart(t *testing.T) {
	s := newTestSandbox(t, testLimit)
	s.command = []string{os.Args[0] + ".missing", ChildArg}
	_, err := s.Run(t.Context(), &Transform{ID: "id", Type: TypeJQ, Code: `.`, Outputs: []MediaType{{MIME: "application/json"}}}, Input{Data: []byte(`1`)})
	if err == nil || !strings.Contains(err.Error(), "not run: cannot start the process that bounds its memory") {
		t.Errorf("error %v", err)
	}
}
