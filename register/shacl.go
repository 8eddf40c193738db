package register

// The SHACL step of the checks, as the tool chain's RDF validator runs it
// (pySHACL, in its "advanced" mode): every resource whose graph is not
// empty is validated against each SHACL file of its block and of the
// blocks it depends on or is a profile of, the block's own shaclClosures
// added to the data, the shapes' triple rules run first. For each file,
// two SHACL entries: the report (op shacl-report; an error when the graph
// does not conform) and the focus nodes of each node shape, named as the
// tool chain names them.

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/internal/pyshacl"
	"github.com/jrpcld/jrpcld/register/report"
)

// shaclFile is one SHACL file that applies to a block's resources.
type shaclFile struct {
	name     string            // as the reports name it: "_sources/PATH/rules.shacl", or its URL
	triples  []rdf.Triple      // the shapes graph
	prefixes map[string]string // the prefixes the file declares, for naming nodes
	shapes   *shacl.Shapes
	err      error // the file could not be read or compiled
}

// shaclCache holds the SHACL files of a build, each read and compiled once.
type shaclCache map[string]*shaclFile

// shaclFiles returns the SHACL files that apply to a block's resources:
// its own, then those of the blocks it depends on or is a profile of
// (docs.ShapesChain), each once, in the order register.json lists them
// (shaclShapes). An imported block brings the files its register.json
// lists for it, by declaring block.
func (bd *builder) shaclFiles(o *blockOut) []*shaclFile {
	if bd.shacl == nil {
		bd.shacl = shaclCache{}
	}
	var out []*shaclFile
	if bd.shapes == nil {
		bd.shapes = docs.NewShapesChains(bd.reg)
	}
	bd.shapes.Visit(o.b.ID, func(_ string, b *bblock.Block, ib *bblock.ImportedBlock) {
		if ib != nil {
			for _, by := range slices.Sorted(maps.Keys(ib.ShaclShapes)) {
				for _, f := range ib.ShaclShapes[by] {
					out = append(out, bd.shaclFile(nil, f))
				}
			}
			return
		}
		for _, f := range docs.ShapesFiles(b) {
			out = append(out, bd.shaclFile(b, f))
		}
	})
	// A file listed by two blocks is checked once.
	var files []*shaclFile
	for _, f := range out {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files
}

// shaclFile reads and compiles a SHACL file named by block b (nil for an
// imported block, whose files are URLs): a path relative to the block's
// folder, or a URL, read from the copy of a mapped import (--import) and
// never fetched.
func (bd *builder) shaclFile(b *bblock.Block, name string) *shaclFile {
	key := name
	if b != nil && !isURL(name) {
		key = path.Join(bblock.SourcesDir, b.Path, name)
	}
	if f, ok := bd.shacl[key]; ok {
		return f
	}
	f := &shaclFile{name: key}
	bd.shacl[key] = f
	if b == nil && !isURL(name) {
		f.err = fmt.Errorf("an imported register names it by a relative path: jrpcld reads an imported block's shapes by URL, from the copy of its import")
		return f
	}
	var ts []rdf.Triple
	ts, f.prefixes, f.err = bd.readTurtle(b, name)
	if f.err == nil {
		f.triples = ts
		f.shapes, f.err = shacl.Compile(ts)
	}
	return f
}

// isURL reports whether a file name of bblock.json or examples.yaml is
// a URL rather than a path.
func isURL(name string) bool { return strings.Contains(name, "://") }

// readTurtle reads the Turtle file that block b names (a path relative to
// its folder) or a URL, from the copy of a mapped import; nothing is
// fetched. Relative IRIs resolve against the file's place, as the tool
// chain reads it from its working folder (--relative-base).
func (bd *builder) readTurtle(b *bblock.Block, name string) ([]rdf.Triple, map[string]string, error) {
	var data []byte
	var err error
	base := name
	if isURL(name) {
		data, err = bd.reg.Imports.ReadURL(name)
		if errors.Is(err, bblock.ErrNotImported) {
			err = fmt.Errorf("not fetched: jrpcld reads nothing from the network; map the register that publishes it to a local copy with --import URL=DIR")
		}
	} else {
		data, err = b.ReadFile(name)
		root := bd.opts.RelativeBase
		if root == "" {
			root = "file:///"
		}
		base = root + path.Join(bblock.SourcesDir, b.Path, name)
	}
	if err != nil {
		return nil, nil, err
	}
	qs, prefixes, err := rdf.Parse(data, rdf.Turtle, base)
	if err != nil {
		return nil, nil, err
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	return ts, prefixes, nil
}

// shaclClosure returns the triples of the block's shaclClosures (files
// relative to the block's folder, or URLs of mapped imports), added to
// each graph validated as the tool chain adds them (pySHACL's ont_graph).
func (bd *builder) shaclClosure(o *blockOut) ([]rdf.Triple, error) {
	var names []string
	for _, f := range o.b.Meta.Fields {
		if f.Key == "shaclClosures" {
			if err := json.Unmarshal(f.Value, &names); err != nil {
				return nil, fmt.Errorf("bblock.json: shaclClosures must be a list of file names or URLs: %w", err)
			}
		}
	}
	return bd.closureTriples(o, names)
}

// closureTriples reads the Turtle files of a SHACL closure.
func (bd *builder) closureTriples(o *blockOut, names []string) ([]rdf.Triple, error) {
	var all []rdf.Triple
	for _, n := range names {
		ts, _, err := bd.readTurtle(o.b, n)
		if err != nil {
			return nil, fmt.Errorf("Error processing %s: %w", n, err)
		}
		all = append(all, ts...)
	}
	return all, nil
}

// checkSHACL validates the graph of a resource against the SHACL files of
// its block, with the block's SHACL closures and the snippet's (more). It
// reports whether a file found the graph not conforming.
func (bd *builder) checkSHACL(o *blockOut, it *item, more []string) (failed bool) {
	graph, prefixes := it.graph, it.prefixes
	if len(graph) == 0 {
		return false
	}
	files := bd.shaclFiles(o)
	// The tool chain reports the first file or closure it could not read,
	// as an error of the whole block, and checks nothing else.
	for _, f := range files {
		if f.err != nil && !errors.Is(f.err, shacl.ErrUnsupported) {
			it.rep.GlobalError(report.SHACL, fmt.Sprintf("Error processing %s: %v", f.name, f.err))
			return false
		}
	}
	closure, err := bd.shaclClosure(o)
	if err != nil {
		it.rep.GlobalError(report.SHACL, err.Error())
		return false
	}
	if len(files) == 0 {
		return false
	}
	if len(more) > 0 {
		// The snippet's own closure: the tool chain reads it for each
		// file, an error stopping the resource's checks.
		ts, err := bd.closureTriples(o, more)
		if err != nil {
			it.rep.Error(report.SHACL, "shacl-closure of the snippet: "+err.Error())
			return false
		}
		closure = append(ts, closure...)
	}
	data := shacl.NewGraph(graph)
	for _, f := range files {
		if f.err != nil {
			// SHACL-JS: what jrpcld cannot check is said, never passed
			// over in silence.
			it.unchecked = true
			it.rep.Add(report.Entry{Section: report.SHACL, Payload: ojson.Members{report.Op(OpNotRun), report.M("shaclFile", f.name)},
				Message: fmt.Sprintf("Not checked: %s uses what jrpcld does not run: %v", f.name, f.err)})
			o.warnf("%s: %s is not checked: %v", it.label(), f.name, f.err)
			continue
		}
		// The focus nodes are those of the data alone, before the rules
		// and closures, as the tool chain lists them.
		focus, err := f.shapes.FocusNodes(data)
		if err != nil {
			it.rep.Error(report.SHACL, fmt.Sprintf("Error finding the focus nodes of %s: %v", f.name, err))
			failed = true
			continue
		}
		g := data
		if len(closure) > 0 || f.shapes.HasRules() {
			all := append(slices.Clone(graph), closure...)
			g = shacl.NewGraph(all)
			if f.shapes.HasRules() {
				inferred, err := f.shapes.Infer(g)
				if err != nil {
					it.rep.Error(report.SHACL, fmt.Sprintf("Error running the SHACL rules of %s: %v", f.name, err))
					failed = true
					continue
				}
				if len(inferred) > 0 {
					g = shacl.NewGraph(append(all, inferred...))
				}
			}
		}
		rep, err := f.shapes.Validate(g)
		if err != nil {
			it.rep.Error(report.SHACL, fmt.Sprintf("Error validating against %s: %v", f.name, err))
			failed = true
			continue
		}
		var turtle strings.Builder
		if err := rep.WriteTurtle(&turtle); err != nil {
			it.rep.Error(report.SHACL, fmt.Sprintf("Error writing the SHACL report for %s: %v", f.name, err))
			failed = true
			continue
		}
		failed = failed || !rep.Conforms
		it.rep.Add(report.Entry{Section: report.SHACL, IsError: !rep.Conforms,
			Message: "Validation result for " + f.name + ":\n" + indent(pyshacl.Text(rep), "  "),
			Payload: ojson.Members{report.Op(report.OpSHACLReport), report.M("shaclFile", f.name), report.M("graph", turtle.String())}})
		bd.focusEntry(it, f, focus, graph, prefixes)
	}
	return failed
}

// focusEntry adds the entry that lists the focus nodes of each node shape
// of a SHACL file (property shapes left out), as the tool chain writes it:
// each shape and node named from the nearest IRI, with the prefixes of its
// graph.
func (bd *builder) focusEntry(it *item, f *shaclFile, focus []shacl.ShapeFocus, graph []rdf.Triple, prefixes map[string]string) {
	byShape := map[rdf.Term][]rdf.Term{}
	for _, sf := range focus {
		byShape[sf.Shape] = sf.Nodes
	}
	shapesNames := pyshacl.NewNamer(f.triples, f.prefixes)
	dataNames := pyshacl.NewNamer(graph, prefixes)
	var msg strings.Builder
	payload := ojson.Members{}
	for _, sh := range pyshacl.NodeShapes(f.triples) {
		key := shapesNames.Name(sh)
		nodes := []string{}
		for _, n := range byShape[sh] {
			nodes = append(nodes, dataNames.Name(n))
		}
		payload = append(payload, report.M(key, ojson.Members{report.M("nodes", nodes)}))
		msg.WriteString(" - Shape " + key + ": ")
		if len(nodes) == 0 {
			msg.WriteString("*none*")
		} else {
			msg.WriteString(strings.Join(nodes, ","))
		}
		msg.WriteString("\n")
	}
	it.rep.Add(report.Entry{Section: report.SHACL, Message: "Focus nodes for " + f.name + ":\n" + msg.String(),
		Payload: ojson.Members{report.M("shaclFile", f.name), report.M("focusNodes", payload)}})
}

// indent puts prefix before each line of s.
func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}
