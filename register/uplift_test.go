package register

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
	"github.com/jrpcld/jrpcld/rdf/rdftest"
	"github.com/jrpcld/jrpcld/register/catalog"
)

const (
	provNS = "http://www.w3.org/ns/prov#"
	dctNS  = "http://purl.org/dc/terms/"
	rdfsNS = "http://www.w3.org/2000/01/rdf-schema#"
	profNS = "http://www.w3.org/ns/dx/prof/"
	skosNS = "http://www.w3.org/2004/02/skos/core#"
	ownNS  = "https://www.opengis.net/def/bblocks/"
)

// upliftDrop is a kind of statement of a published bblocks.ttl that
// jrpcld's differs from for a documented reason (docs/ogc.md, "The
// register's own uplift"): the test takes it out of both graphs.
type upliftDrop struct {
	why  string
	drop func(g graphIndex, t rdf.Triple) bool
}

// graphIndex answers the questions upliftDrops ask of a graph.
type graphIndex struct {
	triples []rdf.Triple
	ttlURL  string
}

// objects returns the objects of s's statements with predicate p.
func (g graphIndex) objects(s rdf.Term, p string) []rdf.Term {
	var out []rdf.Term
	for _, t := range g.triples {
		if t.S == s && t.P == p {
			out = append(out, t.O)
		}
	}
	return out
}

// hasRole reports whether n is a resource with the role.
func (g graphIndex) hasRole(n rdf.Term, role string) bool {
	for _, o := range g.objects(n, profNS+"hasRole") {
		if o.Value == role {
			return true
		}
	}
	return false
}

// resource reports whether n describes a file as a resource (it has a
// prof:hasArtifact).
func (g graphIndex) resource(n rdf.Term) bool {
	return len(g.objects(n, profNS+"hasArtifact")) > 0
}

// link reports whether n is one of the register's links (it has an
// oa:hasTarget).
func (g graphIndex) link(n rdf.Term) bool {
	return len(g.objects(n, "http://www.w3.org/ns/oa#hasTarget")) > 0
}

// subjectOf returns the subject of the first statement whose object is n.
func (g graphIndex) subjectOf(n rdf.Term) rdf.Term {
	for _, t := range g.triples {
		if t.O == n {
			return t.S
		}
	}
	return rdf.Term{}
}

// agent reports whether n is the agent the bblocks.ttl file is
// attributed to.
func (g graphIndex) agent(n rdf.Term) bool {
	for _, a := range g.objects(rdf.NewIRI(g.ttlURL), provNS+"wasAttributedTo") {
		if a == n {
			return true
		}
	}
	return false
}

// contextFile reports whether n is the entity of the context file the
// tool chain's uplift names (rdfs:seeAlso a file: URL).
func (g graphIndex) contextFile(n rdf.Term) bool {
	for _, o := range g.objects(n, rdfsNS+"seeAlso") {
		if strings.HasPrefix(o.Value, "file:") {
			return true
		}
	}
	return false
}

// upliftDrops are the statements both builds write differently, each with
// its reason; every one must take a statement out of one of the graphs.
var upliftDrops = []upliftDrop{
	{"the times of the run (prov:startedAtTime, prov:endedAtTime): jrpcld writes none, so that the same sources build the same file",
		func(g graphIndex, t rdf.Triple) bool {
			return t.P == provNS+"startedAtTime" || t.P == provNS+"endedAtTime"
		}},
	{"the name, version and home of the program that ran the uplift: ogc-na-tools there, jrpcld here",
		func(g graphIndex, t rdf.Triple) bool {
			return g.agent(t.S) && t.P != rdf.RDFType
		}},
	{"the context file the tool chain's uplift used, named by its path in the tool chain's Docker image (file:///src/...): jrpcld's context is in the binary and has no file",
		func(g graphIndex, t rdf.Triple) bool {
			return g.contextFile(t.S) || (t.P == provNS+"used" && g.contextFile(t.O))
		}},
	{"register.json's version (git:COMMIT): the commit of the sources, which jrpcld is not given",
		func(g graphIndex, t rdf.Triple) bool {
			return t.P == dctNS+"hasVersion" && strings.HasPrefix(t.O.Value, "git:")
		}},
	{"the register's dct:modified (register.json's modified): the time of the build, where jrpcld writes the date of the sources",
		func(g graphIndex, t rdf.Triple) bool {
			return t.P == dctNS+"modified" && t.O.Datatype == rdf.XSDNS+"dateTime"
		}},
}

// canonDateTime writes an xsd:dateTime in UTC with "Z": rdflib, which
// writes the tool chain's Turtle, rewrites "Z" as "+00:00" (the same
// value); jrpcld keeps the lexical form of register.json.
func canonDateTime(ts []rdf.Triple) []rdf.Triple {
	out := make([]rdf.Triple, len(ts))
	for i, t := range ts {
		if t.O.Kind == rdf.Literal && t.O.Datatype == rdf.XSDNS+"dateTime" {
			if v, ok := strings.CutSuffix(t.O.Value, "+00:00"); ok {
				t.O = rdf.NewLiteral(v+"Z", t.O.Datatype)
			}
		}
		out[i] = t
	}
	return out
}

// dropDocumented returns ts without the statements drops take out, its
// xsd:dateTime literals in one form; used counts, by drop, the statements
// taken out.
func dropDocumented(ts []rdf.Triple, drops []upliftDrop, ttlURL string, used []int) []rdf.Triple {
	g := graphIndex{triples: ts, ttlURL: ttlURL}
	var out []rdf.Triple
next:
	for _, t := range ts {
		for i, d := range drops {
			if d.drop(g, t) {
				used[i]++
				continue next
			}
		}
		out = append(out, t)
	}
	return canonDateTime(out)
}

// TestRegisterUplift compares jrpcld's bblocks.ttl with those of the
// registers the OGC tool chain published whole
// (../shared/reference/ogc-published/full-builds): the tutorial, built in
// 2026-08 by the version jrpcld follows, and the MCP register, built in
// 2025-09 by an older one. Both the uplift of the published register.json
// and jrpcld's whole build of the same sources (with the imports the
// published build caches) must give the published graph, but for the
// statements upliftDrops lists (and, for the older version, olderDrops).
// bblocks.ttl must read the same with rapper and serdi, and bblocks.jsonld,
// read by json-gold, must be the same graph without the provenance of the
// Turtle file.
func TestRegisterUplift(t *testing.T) {
	for _, c := range []struct {
		name  string
		older bool
	}{{"bblocks-tutorial", false}, {"ogc-mcp-2025-09", true}} {
		t.Run(c.name, func(t *testing.T) {
			full := shared.Dir(t, "reference", "ogc-published", "full-builds", c.name)
			pubData := readFile(t, filepath.Join(full, "build", "register.json"))
			pub := readJSON(t, filepath.Join(full, "build", "register.json"))
			base := pub["baseURL"].(string)
			ttlURL := base + "build/" + catalog.TurtleFile
			want, err := rdftest.ParseTurtle(readFile(t, filepath.Join(full, "build", catalog.TurtleFile)), "")
			if err != nil {
				t.Fatal(err)
			}
			drops := upliftDrops
			if c.older {
				want = olderNames(want, base, pub)
				drops = append(append([]upliftDrop(nil), upliftDrops...), olderDrops...)
			}
			compare := func(what string, got []rdf.Triple, extra ...upliftDrop) {
				t.Helper()
				all := append(append([]upliftDrop(nil), drops...), extra...)
				used := make([]int, len(all))
				w := dropDocumented(want, all, ttlURL, used)
				g := dropDocumented(got, all, ttlURL, used)
				for i, n := range used {
					if n == 0 {
						t.Errorf("%s: a drop takes no statement out of either graph: remove it (%s)", what, all[i].why)
					}
				}
				if ok, msg := rdftest.Isomorphic(g, w); !ok {
					t.Errorf("%s is not the published graph (%d statements, %d published, after the documented drops): %s", what, len(g), len(w), msg)
				}
			}

			// The uplift alone, of the published register.json.
			f, err := catalog.Write(pubData, catalog.Options{Base: strings.TrimSuffix(base, "/"),
				RegisterURL: base + "build/register.json", TurtleURL: ttlURL})
			if err != nil {
				t.Fatal(err)
			}
			alone := checkRegisterRDF(t, map[string][]byte{catalog.TurtleFile: f.Turtle, catalog.JSONLDFile: f.JSONLD})
			compare("the uplift of the published register.json", alone)
			if !c.older {
				// The same document as the tool chain's, its context aside
				// (TestContextAsPublished compares those).
				ours := readJSONBytes(t, f.JSONLD)
				theirs := readJSON(t, filepath.Join(full, "build", catalog.JSONLDFile))
				delete(ours, "@context")
				delete(theirs, "@context")
				if !reflect.DeepEqual(ours, theirs) {
					t.Errorf("%s differs from the published one beyond its context", catalog.JSONLDFile)
				}
			}

			// The whole build. The OGC GitHub Action builds on each push:
			// the blocks' last change is the day of the last commit.
			reg, err := bblock.LoadRegisterDir(full, &bblock.Options{Imports: cachedImports(t, full, pub)})
			if err != nil {
				t.Fatal(err)
			}
			files, _, err := build(reg, Options{BaseURL: base, BuildPath: "build",
				GitRepository: pub["gitRepository"].(string), GitHubBaseURL: pub["gitHubRepository"].(string),
				CommitDate: lastChange(pub)})
			if err != nil {
				t.Fatal(err)
			}
			got := checkRegisterRDF(t, files)
			compare("jrpcld's build", got, registerGaps(t, pub, files["register.json"])...)

			var named bool
			for _, tr := range got {
				if tr.P == rdfsNS+"label" && tr.O.Value == "jrpcld" && (graphIndex{triples: got, ttlURL: ttlURL}).agent(tr.S) {
					named = true
				}
			}
			if !named {
				t.Error("bblocks.ttl: the agent of its provenance is not named jrpcld")
			}
		})
	}
}

// readJSONBytes decodes a JSON object.
func readJSONBytes(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// lastChange returns the latest dateOfLastChange of the blocks of a
// published register.json: the date of the last commit its build saw.
func lastChange(pub map[string]any) string {
	d := ""
	for _, b := range pub["bblocks"].([]any) {
		if s, _ := b.(map[string]any)["dateOfLastChange"].(string); s > d {
			d = s
		}
	}
	return d
}

// registerGaps returns drops for the members of register.json jrpcld's
// build writes otherwise than the published one, which other tests own
// (TestViewerReads: the blocks built on imported blocks whose schemas
// ../shared does not hold get no ldContext, and one fails): the statements
// those members make, for those blocks.
func registerGaps(t *testing.T, pub map[string]any, built []byte) []upliftDrop {
	var ours struct {
		BBlocks []map[string]any `json:"bblocks"`
	}
	if err := json.Unmarshal(built, &ours); err != nil {
		t.Fatal(err)
	}
	mine := map[string]map[string]any{}
	for _, b := range ours.BBlocks {
		mine[b["itemIdentifier"].(string)] = b
	}
	noContext, otherResult := map[string]bool{}, map[string]bool{}
	for _, v := range pub["bblocks"].([]any) {
		b := v.(map[string]any)
		id := b["itemIdentifier"].(string)
		m := mine[id]
		if m == nil {
			continue
		}
		if b["ldContext"] != nil && m["ldContext"] == nil {
			noContext["bblocks://"+id] = true
		}
		if b["validationPassed"] != m["validationPassed"] {
			otherResult["bblocks://"+id] = true
		}
	}
	var out []upliftDrop
	if len(noContext) > 0 {
		out = append(out, upliftDrop{"the ldContext of blocks built on imported blocks whose schemas ../shared does not hold (TestViewerReads)",
			func(g graphIndex, t rdf.Triple) bool {
				if t.P == profNS+"hasResource" && noContext[t.S.Value] && g.hasRole(t.O, profNS+"role/mapping") {
					return true
				}
				return t.S.Kind == rdf.Blank && g.hasRole(t.S, profNS+"role/mapping") && noContext[g.subjectOf(t.S).Value]
			}})
	}
	if len(otherResult) > 0 {
		out = append(out, upliftDrop{"the validation result of those blocks",
			func(g graphIndex, t rdf.Triple) bool {
				return t.P == ownNS+"validationPassed" && otherResult[t.S.Value]
			}})
	}
	return out
}

// olderDrops are the statements the older tool chain (2025-09) writes
// otherwise than the one jrpcld follows, or not at all, once olderNames
// has renamed what it names otherwise.
var olderDrops = []upliftDrop{
	{"the files of a block: the older version links the annotated schemas and the context directly (bblocks:hasSchema, bblocks:hasJsonLdContext) and leaves the ontology out; the newer describes each file as a resource (prof:hasResource: its artifact, role, format and standard), as it does the register's links, which the older register.json did not have",
		func(g graphIndex, t rdf.Triple) bool {
			return t.P == ownNS+"hasSchema" || t.P == ownNS+"hasJsonLdContext" || t.P == profNS+"hasResource" ||
				(t.S.Kind == rdf.Blank && (g.resource(t.S) || g.link(t.S)))
		}},
	{"what the newer version adds to a block and to the register: the types bblocks:BBlock and bblocks:BBlocksRegister, the blocks' skos:prefLabel, skos:topConceptOf and skos:hasTopConcept, foaf:homepage (viewerURL), and bblocks:validationPassed (the register's dct:modified, which the older version leaves out too, is taken out above)",
		func(g graphIndex, t rdf.Triple) bool {
			switch t.P {
			case rdf.RDFType:
				return t.O.Value == ownNS+"BBlock" || t.O.Value == ownNS+"BBlocksRegister"
			case skosNS + "prefLabel":
				return strings.HasPrefix(t.S.Value, "bblocks://")
			case skosNS + "topConceptOf", skosNS + "hasTopConcept", "http://xmlns.com/foaf/0.1/homepage",
				ownNS + "validationPassed":
				return true
			}
			return false
		}},
}

// olderNames renames, in a graph of the older tool chain, what it names
// otherwise than the newer one: a block is the IRI of its identifier
// resolved against the base URL (https://ogcincubator.github.io/mcp.mcp)
// where it is now bblocks://mcp.mcp; the documentation's URLs are strings
// where they are now IRIs; imports are bblocks:imports, now owl:imports.
func olderNames(ts []rdf.Triple, base string, pub map[string]any) []rdf.Triple {
	blocks := map[string]string{}
	for _, b := range pub["bblocks"].([]any) {
		id := b.(map[string]any)["itemIdentifier"].(string)
		blocks[rdf.ResolveIRI(strings.TrimSuffix(base, "/"), id)] = "bblocks://" + id
	}
	rename := func(n rdf.Term) rdf.Term {
		if n.Kind == rdf.IRI && blocks[n.Value] != "" {
			return rdf.NewIRI(blocks[n.Value])
		}
		return n
	}
	out := make([]rdf.Triple, len(ts))
	for i, t := range ts {
		t.S, t.O = rename(t.S), rename(t.O)
		if t.P == rdfsNS+"isDefinedBy" && t.O.Kind == rdf.Literal {
			t.O = rdf.NewIRI(t.O.Value)
		}
		if t.P == ownNS+"imports" {
			t.P = "http://www.w3.org/2002/07/owl#imports"
		}
		out[i] = t
	}
	return out
}

// checkRegisterRDF checks a build's bblocks.ttl with the independent parsers
// and its bblocks.jsonld against it, and returns the graph of bblocks.ttl.
func checkRegisterRDF(t *testing.T, files map[string][]byte) []rdf.Triple {
	t.Helper()
	ttl, ld := files[catalog.TurtleFile], files[catalog.JSONLDFile]
	if ttl == nil || ld == nil {
		t.Fatalf("the build wrote no %s or no %s", catalog.TurtleFile, catalog.JSONLDFile)
	}
	got, err := rdftest.ParseTurtle(ttl, "")
	if err != nil {
		t.Fatalf("%s: %v", catalog.TurtleFile, err)
	}
	if ok, msg := rdftest.Isomorphic(rdftest.Rapper(t, ttl, ""), got); !ok {
		t.Errorf("rapper reads another graph from %s: %s", catalog.TurtleFile, msg)
	}
	var serdi []rdf.Triple
	for _, q := range rdftest.ParseWith(t, "serdi", "turtle", ttl, "") {
		serdi = append(serdi, q.Triple)
	}
	if ok, msg := rdftest.Isomorphic(serdi, got); !ok {
		t.Errorf("serdi reads another graph from %s: %s", catalog.TurtleFile, msg)
	}

	var doc map[string]any
	if err := json.Unmarshal(ld, &doc); err != nil {
		t.Fatalf("%s: %v", catalog.JSONLDFile, err)
	}
	quads, err := jsonld.Read(ld)
	if err != nil {
		t.Fatalf("%s: %v", catalog.JSONLDFile, err)
	}
	var fromLD []rdf.Triple
	for _, q := range quads {
		fromLD = append(fromLD, q.Triple)
	}
	// The Turtle adds its provenance: what hangs from the file's own IRI.
	var noProv []rdf.Triple
	prov := map[rdf.Term]bool{}
	for changed := true; changed; {
		changed = false
		for _, tr := range got {
			if (tr.S.Kind == rdf.IRI && strings.HasSuffix(tr.S.Value, "/"+catalog.TurtleFile)) || prov[tr.S] {
				if tr.O.Kind == rdf.Blank && !prov[tr.O] {
					prov[tr.O] = true
					changed = true
				}
			}
		}
	}
	for _, tr := range got {
		if !(tr.S.Kind == rdf.IRI && strings.HasSuffix(tr.S.Value, "/"+catalog.TurtleFile)) && !prov[tr.S] {
			noProv = append(noProv, tr)
		}
	}
	if len(noProv) == len(got) {
		t.Errorf("%s has no provenance", catalog.TurtleFile)
	}
	if ok, msg := rdftest.Isomorphic(fromLD, noProv); !ok {
		t.Errorf("%s (json-gold) is not the graph of %s without its provenance: %s", catalog.JSONLDFile, catalog.TurtleFile, msg)
	}
	return got
}
