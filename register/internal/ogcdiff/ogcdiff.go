// Package ogcdiff compares a build of a building-block register with what
// the OGC tool chain (bblocks-postprocess) built for the same sources, file
// by file at the tool chain's paths, for the differential tests. Each file
// is compared by what it means, not byte for byte:
//
//   - JSON (register.json, schema.json, json-full docs, examples) by value;
//     YAML schemas by value; contexts by meaning (ctxtest);
//   - Turtle by isomorphism, read by knakk/rdf (an independent parser),
//     numbers compared by value (rdflib writes "75.0" where JSON-LD writes
//     "75"), a literal typed xsd:string as a plain one;
//   - _report.json and tests/report.json item by item: the source, the
//     result, and each section's entries by op, error flag and payload,
//     messages where they are deterministic (the texts the tool chain takes
//     from Python, such as exception messages, jsonschema's renderings of
//     values and pySHACL's reports, are not compared; their entries'
//     ops, results and exception names are), blank node labels ignored;
//   - the text file of each resource by its sections and error marks;
//   - report.html by the results it shows (report.HTMLResults);
//   - Markdown line by line, its fenced code blocks by their language
//     (JSON and YAML by value, Turtle by its triples; in the JSON
//     documentation, the byte sizes of Turtle snippets and transform
//     outputs are not compared); other text line by
//     line, absolute paths of the machine that built (/github/workspace/)
//     ignored in .tsv files.
//
// Dates and the tool chain's own version (register.json's modified and
// tooling, the reports' generated) are not compared.
package ogcdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/context/ctxtest"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/report"
	"go.yaml.in/yaml/v3"
)

// Kind says how a file differs.
type Kind string

// The kinds of difference.
const (
	Missing Kind = "missing" // the tool chain writes the file (or member, or item), jrpcld does not
	Extra   Kind = "extra"   // jrpcld writes it, the tool chain does not
	Differs Kind = "differs" // both write it, with other content
)

// Diff is one difference between the two builds.
type Diff struct {
	// Path is the file's path below the build folder.
	Path string
	Kind Kind
	// Where says what differs inside the file: "" for the whole file,
	// "bblocks[ID].field" in register.json, "item[NAME].SECTION" in a report.
	Where string
	// Detail shows the two sides.
	Detail string
}

func (d Diff) String() string {
	s := string(d.Kind) + " " + d.Path
	if d.Where != "" {
		s += " " + d.Where
	}
	if d.Detail != "" {
		s += ": " + d.Detail
	}
	return s
}

// Compare returns the differences between got (jrpcld's build) and want
// (the tool chain's), both the contents of a build folder. Files of want
// named in skip (path.Match patterns) are left out, as are files of got
// named in own (jrpcld's own outputs, such as its HTML pages).
func Compare(t testing.TB, got, want fs.FS, skip, own []string) []Diff {
	t.Helper()
	gotFiles, wantFiles := list(t, got), list(t, want)
	var out []Diff
	matches := func(p string, pats []string) bool {
		for _, pat := range pats {
			if globMatch(pat, p) {
				return true
			}
		}
		return false
	}
	for _, p := range wantFiles {
		if matches(p, skip) {
			continue
		}
		if !slices.Contains(gotFiles, p) {
			out = append(out, Diff{Path: p, Kind: Missing})
			continue
		}
		out = append(out, compareFile(t, p, read(t, got, p), read(t, want, p))...)
	}
	for _, p := range gotFiles {
		if !slices.Contains(wantFiles, p) && !matches(p, own) {
			out = append(out, Diff{Path: p, Kind: Extra})
		}
	}
	return out
}

// globMatch reports whether name matches pattern, where "*" matches any
// run of characters, slashes included, and "?" any one.
func globMatch(pattern, name string) bool {
	var re strings.Builder
	re.WriteByte('^')
	for _, c := range pattern {
		switch c {
		case '*':
			re.WriteString(".*")
		case '?':
			re.WriteByte('.')
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteByte('$')
	ok, _ := regexp.MatchString(re.String(), name)
	return ok
}

// Match reports whether name matches pattern as the known-difference
// lists write them: "*" matches any run of characters, slashes included.
func Match(pattern, name string) bool { return globMatch(pattern, name) }

func list(t testing.TB, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && p != "_oracle-summary.txt" && p != "_oracle.log" {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func read(t testing.TB, fsys fs.FS, p string) []byte {
	t.Helper()
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// compareFile compares one file by its kind.
func compareFile(t testing.TB, p string, got, want []byte) []Diff {
	base := path.Base(p)
	switch {
	case p == "register.json":
		return compareRegister(p, got, want)
	case base == "_report.json":
		return compareBlockReport(p, "", got, want)
	case p == "tests/report.json":
		return compareRegisterReport(p, got, want)
	case p == "tests/report.html":
		return compareHTML(p, got, want)
	case strings.HasSuffix(base, ".validation_passed.txt"), strings.HasSuffix(base, ".validation_failed.txt"):
		return compareText(p, got, want)
	case base == "context.jsonld":
		return compareContext(t, p, got, want)
	case strings.HasSuffix(base, ".ttl"):
		return compareTurtle(p, got, want)
	case strings.HasSuffix(base, ".json"), strings.HasSuffix(base, ".jsonld"):
		return compareJSON(p, got, want)
	case strings.HasSuffix(base, ".yaml"), strings.HasSuffix(base, ".yml"):
		return compareYAML(p, got, want)
	case strings.HasSuffix(base, ".md"):
		return compareMarkdown(p, got, want)
	case strings.HasSuffix(base, ".tsv"):
		return compareLines(p, workspaceRE.ReplaceAll(got, nil), workspaceRE.ReplaceAll(want, nil))
	default:
		return compareLines(p, got, want)
	}
}

// workspaceRE finds the absolute path of the folder the tool chain built in.
var workspaceRE = regexp.MustCompile(`/github/workspace/`)

func decode(data []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return normNumbers(v), nil
}

// decodeBoth reads the file jrpcld wrote at p and the tool chain's. When the
// tool chain's is not JSON there is nothing to compare by value; when only
// jrpcld's is not, that is the one difference. ok says whether both were read.
func decodeBoth(p string, got, want []byte) (g, w any, diffs []Diff, ok bool) {
	w, errW := decode(want)
	if errW != nil {
		return nil, nil, nil, false
	}
	g, errG := decode(got)
	if errG != nil {
		return nil, nil, []Diff{{Path: p, Kind: Differs, Detail: "not JSON: " + errG.Error()}}, false
	}
	return g, w, nil, true
}

// normNumbers turns JSON numbers into float64 so that 1 and 1.0 compare
// equal, as they do in Python.
func normNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normNumbers(e)
		}
	}
	return v
}

func compareJSON(p string, got, want []byte) []Diff {
	g, w, diffs, ok := decodeBoth(p, got, want)
	if !ok {
		return diffs
	}
	if strings.HasPrefix(p, "generateddocs/json-full/") {
		g, w = normDoc(g), normDoc(w)
	}
	return jsonDiffs(p, "", g, w)
}

// normDoc makes the parts of a full JSON documentation that are text of
// another format comparable by what they mean: the annotated schema (YAML)
// by value, each snippet's code by its language (JSON by value, Turtle as a
// set of canonical triples) with its size, which depends on the layout,
// left out, as is the size of a transform's Turtle output (the file is
// compared as a graph); and dependsOn, which the tool chain lists from a
// set, sorted.
func normDoc(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if s, ok := m["annotatedSchema"].(string); ok {
		var y any
		if yaml.Unmarshal([]byte(s), &y) == nil {
			m["annotatedSchema"] = normYAML(y)
		}
	}
	sortStrings(m, "dependsOn")
	examples, _ := m["examples"].([]any)
	for _, ex := range examples {
		em, _ := ex.(map[string]any)
		snippets, _ := em["snippets"].([]any)
		for _, sn := range snippets {
			sm, _ := sn.(map[string]any)
			results, _ := sm["transformResults"].(map[string]any)
			for _, r := range results {
				// A Turtle output is compared as a graph at its own
				// path; its size depends on the layout.
				if rm, ok := r.(map[string]any); ok {
					if u, _ := rm["url"].(string); strings.HasSuffix(u, ".ttl") {
						delete(rm, "sizeBytes")
					}
				}
			}
			code, ok := sm["code"].(string)
			if !ok {
				continue
			}
			switch lang, _ := sm["language"].(string); strings.ToLower(lang) {
			case "json", "jsonld", "json-ld", "application/json", "application/ld+json":
				if v, err := decode([]byte(code)); err == nil {
					sm["code"] = v
					delete(sm, "sizeBytes")
				}
			case "ttl", "turtle", "text/turtle":
				if ts, err := parseTurtle([]byte(code)); err == nil {
					sm["code"] = graphKey(ts)
					delete(sm, "sizeBytes")
				}
			}
		}
	}
	return m
}

// sortStrings sorts the list of strings m[key], when there is one.
func sortStrings(m map[string]any, key string) {
	list, ok := m[key].([]any)
	if !ok {
		return
	}
	ss := make([]string, 0, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return
		}
		ss = append(ss, s)
	}
	sort.Strings(ss)
	for i, s := range ss {
		list[i] = s
	}
}

// graphKey renders a graph so that isomorphic graphs without blank nodes
// render the same, and those with blank nodes by their number of triples
// and their triples without blank nodes.
func graphKey(ts []rdf.Triple) string {
	var lines []string
	blank := 0
	for _, t := range canonTriples(ts) {
		if t.S.Kind == rdf.Blank || t.O.Kind == rdf.Blank {
			blank++
			continue
		}
		lines = append(lines, t.S.String()+" <"+t.P+"> "+t.O.String())
	}
	sort.Strings(lines)
	return fmt.Sprintf("%d triples with blank nodes; %s", blank, strings.Join(lines, " . "))
}

func compareYAML(p string, got, want []byte) []Diff {
	var g, w any
	if err := yaml.Unmarshal(want, &w); err != nil {
		return nil
	}
	if err := yaml.Unmarshal(got, &g); err != nil {
		return []Diff{{Path: p, Kind: Differs, Detail: "not YAML: " + err.Error()}}
	}
	return jsonDiffs(p, "", normYAML(g), normYAML(w))
}

// normYAML makes YAML values comparable with JSON ones.
func normYAML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normYAML(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normYAML(e)
		}
	case int:
		return float64(x)
	case uint64:
		return float64(x)
	case int64:
		return float64(x)
	}
	return v
}

// jsonDiffs returns the first differences between two JSON values, each
// named by its JSON pointer below where (at most a few per file).
func jsonDiffs(p, where string, got, want any) []Diff {
	var out []Diff
	var walk func(at string, g, w any)
	walk = func(at string, g, w any) {
		if len(out) >= 5 {
			return
		}
		gm, gok := g.(map[string]any)
		wm, wok := w.(map[string]any)
		if gok && wok {
			for _, k := range sortedKeys(wm) {
				if _, ok := gm[k]; !ok {
					out = append(out, Diff{Path: p, Kind: Missing, Where: at + "/" + k, Detail: short(wm[k])})
					continue
				}
				walk(at+"/"+k, gm[k], wm[k])
			}
			for _, k := range sortedKeys(gm) {
				if _, ok := wm[k]; !ok {
					out = append(out, Diff{Path: p, Kind: Extra, Where: at + "/" + k, Detail: short(gm[k])})
				}
			}
			return
		}
		ga, gok := g.([]any)
		wa, wok := w.([]any)
		if gok && wok && len(ga) == len(wa) {
			for i := range wa {
				walk(at+"/"+strconv.Itoa(i), ga[i], wa[i])
			}
			return
		}
		if !reflect.DeepEqual(g, w) {
			out = append(out, Diff{Path: p, Kind: Differs, Where: at, Detail: "jrpcld " + short(g) + ", the tool chain " + short(w)})
		}
	}
	walk(where, got, want)
	return out
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// short renders a value in at most 160 characters.
func short(v any) string {
	data, err := json.Marshal(v)
	s := string(data)
	if err != nil {
		s = fmt.Sprint(v)
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

func compareContext(t testing.TB, p string, got, want []byte) []Diff {
	g, w, diffs, ok := decodeBoth(p, got, want)
	if !ok {
		return diffs
	}
	gm, _ := g.(map[string]any)
	wm, _ := w.(map[string]any)
	var out []Diff
	for _, d := range ctxtest.DiffEffective(t, gm["@context"], wm["@context"]) {
		out = append(out, Diff{Path: p, Kind: Differs, Where: "@context", Detail: d})
	}
	return out
}

// compareTurtle compares two Turtle files by isomorphism.
func compareTurtle(p string, got, want []byte) []Diff {
	w, err := parseTurtle(want)
	if err != nil {
		return nil // the tool chain's file does not parse: nothing to compare
	}
	g, err := parseTurtle(got)
	if err != nil {
		return []Diff{{Path: p, Kind: Differs, Where: "graph", Detail: "not Turtle: " + err.Error()}}
	}
	if ok, why := rdftest.Isomorphic(canonTriples(g), canonTriples(w)); !ok {
		if len(why) > 600 {
			why = why[:597] + "..."
		}
		return []Diff{{Path: p, Kind: Differs, Where: "graph", Detail: fmt.Sprintf("%d triples, the tool chain's %d, not isomorphic: %s", len(g), len(w), why)}}
	}
	return nil
}

// parseTurtle reads Turtle with knakk/rdf, or with rapper where knakk/rdf
// fails (it refuses some numbers); a file holding only comments is the
// empty graph.
func parseTurtle(data []byte) ([]rdf.Triple, error) {
	if len(bytes.TrimSpace(commentRE.ReplaceAll(data, nil))) == 0 {
		return nil, nil
	}
	// knakk/rdf reads labels like _:b0 as its own: rename them first.
	ts, err := rdftest.ParseTurtle(knakkLabelRE.ReplaceAll(data, []byte("_:x$1")), "")
	if err == nil {
		return ts, nil
	}
	cmd := exec.Command("rapper", "-q", "-i", "turtle", "-o", "ntriples", "-", rdftest.DefaultBase)
	cmd.Stdin = bytes.NewReader(data)
	out, rerr := cmd.Output()
	if rerr != nil {
		return nil, err
	}
	return rdftest.ParseNTriples(out)
}

var (
	commentRE    = regexp.MustCompile(`(?m)^\s*#.*$`)
	knakkLabelRE = regexp.MustCompile(`_:b([0-9])`)
)

// canonTriples writes numbers in one lexical form per value and plain
// strings without their type.
func canonTriples(ts []rdf.Triple) []rdf.Triple {
	out := make([]rdf.Triple, len(ts))
	for i, t := range ts {
		t.O = canonLiteral(t.O)
		out[i] = t
	}
	return out
}

const xsd = "http://www.w3.org/2001/XMLSchema#"

func canonLiteral(o rdf.Term) rdf.Term {
	if o.Kind != rdf.Literal {
		return o
	}
	switch o.Datatype {
	case xsd + "decimal", xsd + "double", xsd + "float":
		if f, err := strconv.ParseFloat(o.Value, 64); err == nil {
			o.Value = strconv.FormatFloat(f, 'g', -1, 64)
			o.Datatype = xsd + "double"
		}
	case xsd + "integer", xsd + "int", xsd + "long":
		if n, err := strconv.ParseInt(o.Value, 10, 64); err == nil {
			o.Value = strconv.FormatInt(n, 10)
		}
	case "":
		o.Datatype = xsd + "string"
	}
	return o
}

// compareLines compares text files line by line, trailing blanks aside.
func compareLines(p string, got, want []byte) []Diff {
	norm := func(b []byte) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimRight(string(b), "\n \t"), "\n") {
			out = append(out, strings.TrimRight(l, " \t\r"))
		}
		return out
	}
	g, w := norm(got), norm(want)
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return []Diff{{Path: p, Kind: Differs, Where: "line " + strconv.Itoa(i+1), Detail: fmt.Sprintf("jrpcld %q, the tool chain %q (%d lines, the tool chain's %d)", clip(gl), clip(wl), len(g), len(w))}}
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

// compareHTML compares the results two report pages show.
func compareHTML(p string, got, want []byte) []Diff {
	g, w := report.HTMLResults(got), report.HTMLResults(want)
	var out []Diff
	for _, id := range sortedKeys(anyMap(w)) {
		gr, ok := g[id]
		if !ok {
			out = append(out, Diff{Path: p, Kind: Missing, Where: "bblock[" + id + "]"})
			continue
		}
		if !slices.Equal(gr, w[id]) {
			out = append(out, Diff{Path: p, Kind: Differs, Where: "bblock[" + id + "]", Detail: fmt.Sprintf("jrpcld %q, the tool chain %q", gr, w[id])})
		}
	}
	for _, id := range sortedKeys(anyMap(g)) {
		if _, ok := w[id]; !ok {
			out = append(out, Diff{Path: p, Kind: Extra, Where: "bblock[" + id + "]"})
		}
	}
	return out
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// textSectionRE finds the section headings of a resource's text file.
var textSectionRE = regexp.MustCompile(`(?m)^=== (?:End )?(.+?) ===$`)

// compareText compares two text files of a resource by the sections they
// hold and the number of errors in each.
func compareText(p string, got, want []byte) []Diff {
	shape := func(b []byte) []string {
		var out []string
		parts := textSectionRE.Split(string(b), -1)
		names := textSectionRE.FindAllStringSubmatch(string(b), -1)
		for i := 0; i+1 < len(names); i += 2 {
			body := parts[i+1]
			out = append(out, fmt.Sprintf("%s (%d errors)", names[i][1], strings.Count(body, "** Validation error **")))
		}
		return out
	}
	g, w := shape(got), shape(want)
	if !slices.Equal(g, w) {
		return []Diff{{Path: p, Kind: Differs, Where: "sections", Detail: fmt.Sprintf("jrpcld %q, the tool chain %q", g, w)}}
	}
	return nil
}
