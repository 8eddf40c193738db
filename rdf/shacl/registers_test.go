package shacl

// The shapes of the building-block registers in ../shared: the npm
// engines on each shapes file and the blocks' example graphs, and
// pySHACL's own reports, which the OGC tool chain's builds keep in the
// SHACL sections of their _report.json files.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
)

// shapesFile is a shapes file of a register's sources and the builds of
// that register whose example graphs go with it.
type shapesFile struct {
	path string
	// builds are folders of ../shared/reference holding tool chain builds
	// (ogc-full, ogc-full-current: every register there; ogc-pending/NAME:
	// one register).
	builds []string
}

// registerShapes returns the shapes files (*.shacl and shapes*.ttl, each
// content once, sorted) of the registers in ../shared/reference, with
// ogc-full and ogc-full-current as their builds, and of the sources of
// each build of ogc-pending (this repository's testdata registers and
// embedded block, as register's TestOGCDifferential knows them), with that
// build. A folder of ogc-pending whose sources are not known fails t.
func registerShapes(t testing.TB) []shapesFile {
	ref := shared.Dir(t, "reference")
	seen := map[[32]byte]bool{}
	var files []shapesFile
	walk := func(root string, builds []string) {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "w3c-shacl-tests" || path == filepath.Join(ref, "ogc-pending")) {
				return filepath.SkipDir
			}
			name := d.Name()
			if d.IsDir() || !strings.HasSuffix(name, ".shacl") && !(strings.HasPrefix(name, "shapes") && strings.HasSuffix(name, ".ttl")) {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if sum := sha256.Sum256(data); !seen[sum] {
				seen[sum] = true
				files = append(files, shapesFile{path, builds})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk(ref, []string{"ogc-full", "ogc-full-current"})
	entries, err := os.ReadDir(filepath.Join(ref, "ogc-pending"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		src := filepath.Join("..", "..", "bblock", "jsonrpc")
		if name, ok := strings.CutPrefix(e.Name(), "testdata-"); ok {
			src = filepath.Join("..", "..", "testdata", "ogc-registers", name)
		} else if e.Name() != "jsonrpc" {
			t.Fatalf("ogc-pending/%s: no sources known for this reference", e.Name())
		}
		if _, err := os.Stat(src); err != nil {
			t.Fatalf("ogc-pending/%s: its sources: %v", e.Name(), err)
		}
		walk(src, []string{filepath.Join("ogc-pending", e.Name())})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return files
}

// blockExamples returns the example graphs (.ttl) the tool chain's
// builds of a shapes file's register validated with it: those of the block
// it belongs to (the shapes file's folder below _sources, or, for the
// embedded block, its folder, less a last folder of transforms or uplift
// steps), the Turtle test resources of that block's sources (tests/*.ttl),
// and the example graphs of the other blocks whose _report.json names the
// shapes file (a block that depends on it, a profile's).
func blockExamples(t testing.TB, f shapesFile) []string {
	slash := filepath.ToSlash(f.path)
	_, rel, ok := strings.Cut(slash, "/_sources/")
	if !ok {
		if _, after, embedded := strings.Cut(slash, "bblock/jsonrpc/"); embedded {
			rel = "json-rpc/" + after // as ogc-pending/jsonrpc has it
		} else {
			return nil
		}
	}
	block := path.Dir(rel)
	for _, step := range []string{"/uplift", "/transforms", "/semantic-uplift", "/tests"} {
		block = strings.TrimSuffix(block, step)
	}
	named := []byte(`"shaclFile": "_sources/` + rel + `"`)
	var out []string
	for _, build := range f.builds {
		root := shared.Dir(t, "reference", build)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.Contains(filepath.ToSlash(p), "/tests/") {
				return nil
			}
			dir := filepath.Dir(p)
			if strings.HasSuffix(p, ".ttl") && strings.HasSuffix(filepath.ToSlash(dir), "/"+block) {
				out = append(out, p)
			}
			if d.Name() == "_report.json" && !strings.HasSuffix(filepath.ToSlash(dir), "/"+block) {
				if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, named) {
					others, _ := filepath.Glob(filepath.Join(dir, "*.ttl"))
					out = append(out, others...)
				}
			}
			return nil
		})
	}
	if src, _, ok := strings.Cut(f.path, string(filepath.Separator)+"_sources"+string(filepath.Separator)); ok {
		resources, _ := filepath.Glob(filepath.Join(src, "_sources", filepath.FromSlash(block), "tests", "*.ttl"))
		out = append(out, resources...)
	}
	return out
}

// usesSPARQL reports whether a shapes file uses SHACL-SPARQL.
func usesSPARQL(t testing.TB, file string) bool {
	for _, tr := range loadFiles(t, []string{file}, "s") {
		if tr.P == shSPARQL || tr.P == rdf.RDFType && tr.O.Value == shSPARQLRule {
			return true
		}
	}
	return false
}

// TestPeersRegisters: on every shapes file of the registers in
// ../shared and of the sources of ogc-pending's builds, with the example
// graphs of its block in its register's builds (or, for a block the
// builds have none of, the shapes graph itself as data), both engines give
// the reports this package gives. Every file compiles; those that use
// SHACL-SPARQL are left out of the comparison (rdf-validate-shacl does not
// run sh:sparql, and shacl-engine runs it only with a plugin the tests do
// not load), and so are those with SHACL rules (sh:rule: semantic uplift
// steps and transforms, which neither engine runs; register's
// TestOGCDifferential compares the graphs they make with the tool chain's).
func TestPeersRegisters(t *testing.T) {
	var cases []peerCase
	files := registerShapes(t)
	sparqlFiles, ruleFiles, pending := 0, 0, 0
	for _, f := range files {
		shapes, err := Compile(loadFiles(t, []string{f.path}, "s"))
		if err != nil {
			t.Errorf("%s: %v", f.path, err)
			continue
		}
		if usesSPARQL(t, f.path) {
			sparqlFiles++
			continue
		}
		if shapes.HasRules() {
			ruleFiles++
			continue
		}
		data := blockExamples(t, f)
		if len(data) == 0 {
			data = []string{f.path}
		}
		for _, d := range data {
			cases = append(cases, peerCase{Name: f.path + " on " + d, Shapes: []string{f.path}, Data: []string{d}})
			if strings.HasPrefix(f.builds[0], "ogc-pending") {
				pending++
			}
		}
	}
	t.Logf("%d shapes files, %d with SHACL-SPARQL and %d with SHACL rules not compared, %d cases (%d of ogc-pending's registers)",
		len(files), sparqlFiles, ruleFiles, len(cases), pending)
	// 49 cases on 2026-12-07, 13 of them ogc-pending's (shacl-checks'
	// person and profile shapes on the examples and test resources that
	// use them, outside.shacl, transforms-uplift's profile on the
	// profile transform's outputs).
	if pending < 13 {
		t.Errorf("only %d cases of ogc-pending's registers: their shapes and examples have 13", pending)
	}
	if len(cases) < 49 {
		t.Errorf("only %d cases: the registers in ../shared have 49", len(cases))
	}
	testPeers(t, cases)
}

// pyshaclEntry is a SHACL section entry of a _report.json: pySHACL's
// report graph for a shapes file on an example graph.
type pyshaclEntry struct {
	Op        string `json:"op"`
	ShaclFile string `json:"shaclFile"`
	Graph     string `json:"graph"`
}

// sourceTree returns the sources of a build in ../shared/reference/ogc-full*
// or ogc-pending (the testdata registers of this repository).
func sourceTree(t testing.TB, build string) string {
	ref := shared.Dir(t, "reference")
	if name, ok := strings.CutPrefix(build, "ogc-pending/testdata-"); ok {
		return filepath.Join("..", "..", "testdata", "ogc-registers", name)
	}
	switch build {
	case "ogc-full/tutorial":
		return filepath.Join(ref, "ogc-published", "bblocks-tutorial", "src")
	case "ogc-full-current/tutorial-h":
		return filepath.Join(ref, "ogc-registers", "ogcincubator+bblocks-tutorial", "src")
	}
	name := filepath.Base(build)
	for _, regs := range []string{"ogc-registers", "ogc-registers-2"} {
		matches, _ := filepath.Glob(filepath.Join(ref, regs, "*+bblocks-"+name))
		if len(matches) == 1 {
			return filepath.Join(matches[0], "src")
		}
	}
	return ""
}

// TestPySHACL: every SHACL report pySHACL made in the tool chain's
// builds in ../shared (ogc-full*, ogc-pending) is the report this package
// makes on the same shapes and example graph: sh:conforms and the results,
// compared as the W3C suite compares them (messages aside). The shapes are
// read with the base the tool chain read them with (its working folder).
func TestPySHACL(t *testing.T) {
	ref := shared.Dir(t, "reference")
	var reports []string
	for _, set := range []string{"ogc-full*", "ogc-pending"} {
		for depth := 1; depth <= 5; depth++ {
			pattern := append([]string{ref, set, "*", "tests"}, strings.Split(strings.Repeat("*/", depth), "/")[:depth]...)
			found, _ := filepath.Glob(filepath.Join(append(pattern, "_report.json")...))
			reports = append(reports, found...)
		}
	}
	compared := 0
	for _, rp := range reports {
		data, err := os.ReadFile(rp)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Items []struct {
				Source struct {
					Filename string `json:"filename"`
				} `json:"source"`
				Sections []struct {
					Name    string            `json:"name"`
					Entries []json.RawMessage `json:"entries"`
				} `json:"sections"`
			} `json:"items"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatalf("%s: %v", rp, err)
		}
		rel, _ := filepath.Rel(ref, rp)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		src := sourceTree(t, parts[0]+"/"+parts[1])
		for _, it := range rep.Items {
			base := filepath.Base(it.Source.Filename)
			graphFile := filepath.Join(filepath.Dir(rp), strings.TrimSuffix(base, filepath.Ext(base))+".ttl")
			if _, err := os.Stat(graphFile); err != nil && strings.HasSuffix(base, ".ttl") && src != "" {
				// A Turtle test resource: the graph is the source itself.
				graphFile = filepath.Join(src, filepath.FromSlash(it.Source.Filename))
			}
			for _, s := range it.Sections {
				if s.Name != "SHACL" {
					continue
				}
				for _, raw := range s.Entries {
					var e pyshaclEntry
					if json.Unmarshal(raw, &e) != nil || e.Op != "shacl-report" {
						continue
					}
					name := rel + ": " + base + " with " + e.ShaclFile
					if src == "" {
						t.Errorf("%s: no sources for %s", name, parts[1])
						continue
					}
					t.Run(name, func(t *testing.T) {
						comparePySHACL(t, filepath.Join(src, e.ShaclFile), "file:///github/workspace/"+e.ShaclFile, graphFile, e.Graph)
					})
					compared++
				}
			}
		}
	}
	t.Logf("%d pySHACL reports compared", compared)
	if compared < 20 {
		t.Errorf("only %d pySHACL reports found", compared)
	}
}

func comparePySHACL(t *testing.T, shapesFile, shapesBase, dataFile, want string) {
	shapesText, err := os.ReadFile(shapesFile)
	if err != nil {
		t.Fatal(err)
	}
	qs, _, err := rdf.Parse(shapesText, rdf.Turtle, shapesBase)
	if err != nil {
		t.Fatal(err)
	}
	var shapesTriples []rdf.Triple
	for _, q := range qs {
		shapesTriples = append(shapesTriples, q.Triple)
	}
	shapes, err := Compile(shapesTriples)
	if err != nil {
		t.Fatal(err)
	}
	dataTriples := loadFiles(t, []string{dataFile}, "d")
	data := NewGraph(dataTriples)
	if shapes.HasRules() {
		data = NewGraph(append(dataTriples, infer(t, shapes, data)...))
	}
	got := validate(t, shapes, data)
	var gotKeys []key
	for _, r := range got.Results {
		gotKeys = append(gotKeys, resultKeyOf(r, data, shapes.graph))
	}

	wq, _, err := rdf.Parse([]byte(want), rdf.Turtle, "")
	if err != nil {
		t.Fatalf("pySHACL's report graph: %v", err)
	}
	var wts []rdf.Triple
	for _, q := range wq {
		wts = append(wts, q.Triple)
	}
	wg := NewGraph(wts)
	c := &compiler{g: wg, s: &Shapes{}, byNode: map[rdf.Term]*shape{}, consts: map[rdf.Term]ref{}}
	wantConforms := false
	var wantKeys []key
	for _, rep := range c.subjectsOf(shConforms) {
		wantConforms = isTrue(c.values(rep, shConforms)[0])
		for _, r := range c.values(rep, shResult) {
			one := func(p string) rdf.Term {
				if vs := c.values(r, p); len(vs) > 0 {
					return vs[0]
				}
				return rdf.Term{}
			}
			var path *Path
			if p := one(shResultPath); p != (rdf.Term{}) {
				if path, err = c.parsePath(p); err != nil {
					t.Fatal(err)
				}
			}
			wantKeys = append(wantKeys, resultKeyOf(Result{Focus: one(shFocusNode), Path: path, Value: one(shValue),
				Shape: one(shSourceShape), Component: one(shSourceComponent).Value, Severity: one(shResultSeverity).Value}, wg, wg))
		}
	}
	onlyUs, onlyPy := diffKeys(gotKeys, wantKeys)
	if got.Conforms != wantConforms || len(onlyUs)+len(onlyPy) > 0 {
		t.Errorf("conforms %v, pySHACL %v\nonly here:\n  %v\nonly in pySHACL:\n  %v", got.Conforms, wantConforms, onlyUs, onlyPy)
	}
}
