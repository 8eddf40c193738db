package shacl

// The differential tests: the JavaScript engines rdf-validate-shacl and
// shacl-engine (npm packages, run by node through testdata/peers.mjs) on
// the same files.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	_ "embed"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
)

//go:embed testdata/peers.mjs
var peersScript []byte

// peerPackages are the npm packages peers.mjs loads, at the versions the
// tests were written against; .ci/run installs them.
const peerPackages = "rdf-validate-shacl@0.6.5 shacl-engine@1.1.2 n3@1.26.0 rdf-ext@2.6.0"

// peerInstall is the command that installs them where the tests look.
const peerInstall = `npm install --no-save --no-audit --no-fund --prefix "${XDG_CACHE_HOME:-$HOME/.cache}/jrpcld/shacl-npm" ` + peerPackages

var peerEngines = []string{"rdf-validate-shacl", "shacl-engine"}

// peerCase is one validation for the engines: the shapes and data files.
type peerCase struct {
	Name   string   `json:"name"`
	Shapes []string `json:"shapes"`
	Data   []string `json:"data"`
}

// key is what the differential tests compare of a result: focus node,
// path, value, source shape, constraint component and severity, terms as
// sig writes them.
type key [6]string

const (
	kFocus = iota
	kPath
	kValue
	kShape
	kComponent
	kSeverity
)

func (k key) String() string {
	return fmt.Sprintf("focus=%s path=%s value=%s shape=%s component=%s severity=%s", k[0], k[1], k[2], k[3], k[4], k[5])
}

// peerOutcome is what an engine gave for a case.
type peerOutcome struct {
	Name     string `json:"name"`
	Engine   string `json:"engine"`
	Conforms bool   `json:"conforms"`
	Results  []key  `json:"results"`
	Error    string `json:"error"`
}

// requirePeers skips t, or fails it when JRPCLD_SHARED is set (CI).
func requirePeers(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("JRPCLD_SHARED") != "" {
		t.Fatalf(format+" (JRPCLD_SHARED is set, so this test must run)", args...)
	}
	t.Skipf(format, args...)
}

// runPeers runs both engines on the cases and returns their outcomes by
// engine and case name.
func runPeers(t testing.TB, cases []peerCase) map[string]map[string]peerOutcome {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		requirePeers(t, "node is not installed: %v", err)
	}
	var dirs []string
	if cache, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(cache, "jrpcld", "shacl-npm", "node_modules"))
	}
	dirs = append(dirs, filepath.SplitList(os.Getenv("NODE_PATH"))...)
	found := false
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "shacl-engine")); err == nil {
			found = true
		}
	}
	if !found {
		requirePeers(t, "the npm packages rdf-validate-shacl and shacl-engine are not installed; install them with: %s", peerInstall)
	}
	script := filepath.Join(t.TempDir(), "peers.mjs")
	if err := os.WriteFile(script, peersScript, 0o644); err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(map[string]any{"cases": cases})
	cmd := exec.Command(bin, script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+strings.Join(dirs, string(filepath.ListSeparator)))
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("peers.mjs: %v\n%s", err, stderr.Bytes())
	}
	res := map[string]map[string]peerOutcome{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var o peerOutcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatalf("peers.mjs wrote %q: %v", sc.Bytes(), err)
		}
		if res[o.Engine] == nil {
			res[o.Engine] = map[string]peerOutcome{}
		}
		res[o.Engine][o.Name] = o
	}
	return res
}

// loadFiles parses the files into one graph, the blank nodes of each file
// its own (as peers.mjs loads them): labels start with prefix and the
// file's index.
func loadFiles(t testing.TB, files []string, prefix string) []rdf.Triple {
	t.Helper()
	var all []rdf.Triple
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		syntax := rdf.Turtle
		if strings.HasSuffix(f, ".nt") {
			syntax = rdf.NTriples
		}
		qs, _, err := rdf.Parse(data, syntax, fileURL(f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		relabel := func(x rdf.Term) rdf.Term {
			if x.Kind == rdf.Blank {
				x.Value = prefix + strconv.Itoa(i) + "_" + x.Value
			}
			return x
		}
		for _, q := range qs {
			all = append(all, rdf.T(relabel(q.S), q.P, relabel(q.O)))
		}
	}
	return all
}

// sig writes a term as peers.mjs does: a blank node as the sorted
// descriptions of its triples, three levels deep.
func sig(t rdf.Term, g *Graph, depth int) string {
	switch t.Kind {
	case rdf.IRI:
		if t.Value == "" {
			return ""
		}
		return "<" + t.Value + ">"
	case rdf.Literal:
		s := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`).Replace(t.Value) + `"`
		if t.Lang != "" {
			return s + "@" + strings.ToLower(t.Lang)
		}
		if t.Datatype != rdf.XSDString {
			return s + "^^<" + t.Datatype + ">"
		}
		return s
	}
	if depth >= 3 {
		return "[]"
	}
	var parts []string
	for _, e := range g.Out(g.ID(t)) {
		parts = append(parts, "<"+g.Term(e.A).Value+"> "+sig(g.Term(e.B), g, depth+1))
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, "; ") + "]"
}

// ourOutcome is this package's outcome for a case.
type ourOutcome struct {
	conforms bool
	keys     []key
	shapes   *Shapes
	data     *Graph
	bySig    map[string]*shape // the shapes by the sig of their node
	err      error
}

// ourKeys validates a case with this package and writes its results as
// peers.mjs writes the engines'.
func ourKeys(t testing.TB, c peerCase) ourOutcome {
	shapesTriples := loadFiles(t, c.Shapes, "s")
	dataTriples := shapesTriples
	if !slices.Equal(c.Shapes, c.Data) {
		dataTriples = loadFiles(t, c.Data, "d")
	}
	shapes, err := Compile(shapesTriples)
	if err != nil {
		return ourOutcome{err: err}
	}
	data := NewGraph(dataTriples)
	if len(shapes.ruled) > 0 {
		t.Fatalf("%s: the shapes have rules; the engines compared do not run them", c.Name)
	}
	rep := validate(t, shapes, data)
	o := ourOutcome{conforms: rep.Conforms, shapes: shapes, data: data, bySig: map[string]*shape{}}
	for _, sh := range shapes.shapes {
		o.bySig[sig(sh.node, shapes.graph, 0)] = sh
	}
	for _, r := range rep.Results {
		o.keys = append(o.keys, resultKeyOf(r, data, shapes.graph))
	}
	return o
}

// resultKeyOf writes a result as a key, blank nodes described in the
// data and shapes graphs.
func resultKeyOf(r Result, data, shapes *Graph) key {
	path := ""
	if r.Path != nil {
		path = r.Path.String()
	}
	return key{sig(r.Focus, data, 0), path, sig(r.Value, data, 0), sig(r.Shape, shapes, 0),
		strings.TrimSuffix(strings.TrimPrefix(r.Component, NS), ""), strings.TrimPrefix(r.Severity, NS)}
}

// diffKeys returns what is in a and not in b, and what is in b and not
// in a, as multisets.
func diffKeys(a, b []key) (onlyA, onlyB []key) {
	count := map[key]int{}
	for _, k := range a {
		count[k]++
	}
	for _, k := range b {
		count[k]--
	}
	for k, n := range count {
		for ; n > 0; n-- {
			onlyA = append(onlyA, k)
		}
		for ; n < 0; n++ {
			onlyB = append(onlyB, k)
		}
	}
	slices.SortFunc(onlyA, func(x, y key) int { return strings.Compare(x.String(), y.String()) })
	slices.SortFunc(onlyB, func(x, y key) int { return strings.Compare(x.String(), y.String()) })
	return onlyA, onlyB
}

// TestPeersW3C: both engines give the same report as this package on
// every core test of the W3C suite.
func TestPeersW3C(t *testing.T) {
	testPeers(t, w3cCases(t))
}

func w3cCases(t testing.TB) []peerCase {
	var cases []peerCase
	for _, tc := range w3cTests(t, filepath.Join(shared.Dir(t, "reference", "w3c-shacl-tests", "core"), "manifest.ttl")) {
		cases = append(cases, peerCase{Name: tc.name, Shapes: []string{tc.shapes}, Data: []string{tc.data}})
	}
	return cases
}

// testPeers runs the cases here and in both engines and compares. Where
// an engine fails (throws), the case is not compared with it; the
// failures are counted and logged. A difference that a deviation of
// peerDeviations explains is taken out and counted.
func testPeers(t *testing.T, cases []peerCase) {
	outcomes := runPeers(t, cases)
	same, failed := map[string]int{}, map[string]map[string]int{}
	explained, excused := map[string]int{}, map[string]int{}
	for _, c := range cases {
		o := ourKeys(t, c)
		for _, engine := range peerEngines {
			p, ok := outcomes[engine][c.Name]
			if !ok {
				t.Errorf("%s: %s gave no outcome", c.Name, engine)
				continue
			}
			if p.Error != "" {
				if failed[engine] == nil {
					failed[engine] = map[string]int{}
				}
				failed[engine][p.Error]++
				continue
			}
			var problems []string
			if o.err != nil {
				problems = append(problems, "this package refuses the shapes ("+o.err.Error()+"), "+engine+" validates them")
			} else {
				onlyUs, onlyThem := diffKeys(o.keys, p.Results)
				for _, d := range peerDeviations {
					if d.engine != "" && d.engine != engine || len(onlyUs)+len(onlyThem) == 0 || d.explain == nil {
						continue
					}
					n := len(onlyUs) + len(onlyThem)
					onlyUs, onlyThem = d.explain(o, onlyUs, onlyThem)
					explained[engine+": "+d.name] += n - len(onlyUs) - len(onlyThem)
				}
				if len(onlyUs)+len(onlyThem) > 0 || o.conforms != p.Conforms {
					for _, d := range peerDeviations {
						if (d.engine == "" || d.engine == engine) && d.trigger != nil && d.trigger(o) {
							excused[engine+": "+d.name]++
							onlyUs, onlyThem = nil, nil
							break
						}
					}
				}
				theirConforms := p.Conforms
				if len(onlyUs)+len(onlyThem) == 0 {
					theirConforms = o.conforms // the explained results were the only ones
				}
				if o.conforms != theirConforms {
					problems = append(problems, "conforms "+strconv.FormatBool(o.conforms)+", "+engine+" "+strconv.FormatBool(p.Conforms))
				}
				for _, k := range onlyUs {
					problems = append(problems, "only here: "+k.String())
				}
				for _, k := range onlyThem {
					problems = append(problems, "only in "+engine+": "+k.String())
				}
			}
			if len(problems) > 0 {
				t.Errorf("%s differs from %s:\n  %s", c.Name, engine, strings.Join(problems, "\n  "))
			} else {
				same[engine]++
			}
		}
	}
	for _, engine := range peerEngines {
		t.Logf("%s: the same report on %d of %d cases", engine, same[engine], len(cases))
		threw := 0
		for msg, n := range failed[engine] {
			t.Logf("%s threw on %d cases: %s", engine, n, msg)
			threw += n
		}
		if threw > len(cases)/10 {
			t.Errorf("%s threw on %d of %d cases: too few compared", engine, threw, len(cases))
		}
	}
	for name, n := range explained {
		t.Logf("%d results differ by the known deviation of %s", n, name)
	}
	for name, n := range excused {
		t.Logf("%d cases differ where the known deviation of %s has its effects", n, name)
	}
}
