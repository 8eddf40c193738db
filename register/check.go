package register

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/pyjson"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/internal/lang"
	"github.com/jrpcld/jrpcld/register/report"
	"github.com/jrpcld/jrpcld/register/site"
	"github.com/jrpcld/jrpcld/schema"
)

// OpNotRun is the op of the entries jrpcld adds where a step of the tool
// chain does not run offline or in jrpcld (a SHACL rule, a transform): the
// entry says what would run it. The tool chain writes no such entry.
const OpNotRun = "jrpcld-not-run"

// OpNote is the op of the entries jrpcld adds to say where it departs from
// the tool chain on purpose (a relative IRI kept relative, say). The tool
// chain writes no such entry.
const OpNote = "jrpcld-note"

// entry is what the pages show of a report.
type entry = report.Entry

// item is one checked example snippet or test resource: its report, and
// the files the build made of it.
type item struct {
	rep       *report.Item
	Title     string // the example's title, or the test resource's file
	SchemaRef string
	Base      string // output file name without extension
	File      string // the source as written to the tests folder
	Language  string // as examples.yaml or the file's extension gives it

	Source []byte
	JSONLD []byte // the uplifted JSON-LD, when made
	Turtle []byte // the uplifted Turtle, when made
	// graph and prefixes are the resource's RDF graph, once uplifted or
	// read, and the prefixes its document binds: what SHACL validates.
	graph    []rdf.Triple
	prefixes map[string]string
	// unchecked is set when a SHACL file of the block could not be checked
	// (SHACL-JS, or another feature jrpcld does not run).
	unchecked bool
	// Dropped reports that no step of the tool chain applies to the
	// resource (a README.md in tests/, a snippet in a language nothing
	// checks): it has no report item, as in the tool chain.
	Dropped bool
}

// Passed reports whether the item gave the expected result.
func (it *item) Passed() bool { return !it.rep.Failed() }

// RequireFail reports whether the resource must fail validation.
func (it *item) RequireFail() bool { return it.rep.Source.RequireFail }

// SnippetIndex numbers an example's snippet from 1.
func (it *item) SnippetIndex() int { return it.rep.Source.SnippetIndex }

// sections returns the sections with entries, in report order.
func (it *item) sections() []site.Section {
	var out []site.Section
	for s := report.General; s <= report.Unknown; s++ {
		if es := it.rep.Entries(s); len(es) > 0 {
			out = append(out, site.Section{Name: s.Name(), Title: s.Title(), Entries: es})
		}
	}
	return out
}

// label names the item in messages.
func (it *item) label() string {
	if it.rep.Source.Type == report.Example {
		return fmt.Sprintf("example %d snippet %d (%s)", it.rep.Source.ExampleIndex, it.rep.Source.SnippetIndex, it.Title)
	}
	return "test " + it.Title
}

// firstError returns the message of the item's first error, on one line.
func (it *item) firstError() string {
	if m := it.rep.FirstError(); m != "" {
		var lines []string
		for _, l := range strings.Split(m, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "; ")
	}
	if it.RequireFail() {
		return "the resource must fail validation, and it passed"
	}
	return "failed"
}

// fileFrom is how the tool chain names where a resource comes from.
func (it *item) fileFrom() string {
	switch it.rep.Source.Type {
	case report.Example:
		return "examples"
	case report.TransformOutput:
		return "transform outputs"
	}
	return "test resources"
}

// checkInput is what check needs of a resource besides its code.
type checkInput struct {
	sch      *schema.Schema // the block's compiled schema, nil when none or when it does not compile
	schErr   error          // why the block's schema does not compile
	ex       bblock.Example
	sn       bblock.Snippet
	using    string // the name the FILES entry gives the resource
	prefixes map[string]string
	// prefixNames are the names of prefixes in the order examples.yaml
	// gives them.
	prefixNames []string
}

// check validates one example snippet or test resource and uplifts it, as
// the tool chain's validators do in turn (JSON Schema, then JSON-LD and
// Turtle): it writes the source, the JSON-LD and Turtle files and the
// validation text file, and fills it.rep. ok is false when code could not
// be read.
func (bd *builder) check(o *blockOut, it *item, code []byte, ok bool, in checkInput) {
	kind := lang.Checked(in.sn.Language)
	if it.File == "" {
		it.File = it.Base + lang.Extension(kind)
	}
	if ok {
		it.Source = code
		written := code
		if lang.IsGeoJSON(in.sn.Language) {
			// Written as the tool chain writes it, indented by Python's
			// json module.
			if v, err := ojson.DecodeJSON(code); err == nil {
				if data, err := pyjson.Indent(v); err == nil {
					written = data
				}
			}
		}
		if it.rep.Source.Type == report.Example {
			bd.put(path.Join(o.tests, it.File), written)
		}
		switch kind {
		case lang.JSON, lang.JSONLD, lang.YAML:
			bd.checkJSON(o, it, code, kind, in)
		case lang.Turtle:
			bd.checkTurtle(o, it, code, in)
		default:
			// Nothing of the tool chain checks it.
			it.Dropped = true
			if it.rep.Source.Type == report.Example {
				o.warnf("%s: language %q is not checked (nor is it by the OGC tool chain without a validator plugin): written as %s, with no verdict", it.label(), in.sn.Language, it.File)
			}
		}
	}
	if it.Dropped && !it.RequireFail() && !it.rep.HasErrors() {
		return
	}
	it.Dropped = false
	if ok && it.rep.Source.Type == report.TestResource && bd.opts.BuildPath == "" {
		// The report names the copy in the tests folder; laid out as a
		// repository, it names the source, published with the sources.
		bd.put(path.Join(o.tests, it.File), code)
	}
	shaclFailed := bd.checkSHACL(o, it, in.sn.SHACLClosure)
	if shaclFailed && kind == lang.Turtle && it.rep.Source.Type == report.TestResource && it.RequireFail() && !it.rep.HasGlobalErrors() {
		// The tool chain counts a check as run only when its validator
		// does not say False, which its RDF validator says when SHACL
		// finds errors: a Turtle test resource that must fail and that
		// SHACL fails has no check that ran and did not fail, and the tool
		// chain leaves it out of the report. jrpcld reports it (docs/ogc.md).
		it.rep.Add(report.Entry{Section: report.General, Payload: ojson.Members{report.Op(OpNote)},
			Message: "jrpcld reports this test resource; the OGC tool chain leaves a Turtle test resource that must fail, and that its SHACL rules fail, out of its report."})
		o.warnf("%s: the OGC tool chain leaves this Turtle test resource out of its report (it must fail, and its SHACL rules fail it); jrpcld reports it", it.label())
	}
	if it.RequireFail() && !it.rep.HasErrors() && it.unchecked {
		// The SHACL rules jrpcld cannot run may be what makes it fail.
		it.rep.Add(report.Entry{Section: report.SHACL, IsError: true, Payload: ojson.Members{report.Op(OpNotRun)},
			Message: "Not checked: this resource must fail validation and passes every check jrpcld makes; the block's shapes jrpcld does not run (SHACL-JS) may be what makes it fail, so jrpcld counts it as failing as it must."})
		o.warnf("%s must fail validation and passes every check jrpcld makes: only the block's shapes jrpcld does not run (SHACL-JS) can decide", it.label())
	}
	it.rep.Finish()
	bd.put(path.Join(o.tests, it.rep.TextName(it.Base)), it.rep.Text(o.b.ID, o.b.Meta.Name, bd.generated()))
}

// checkJSON runs the steps of a JSON, JSON-LD or YAML resource: decoding,
// JSON Schema validation, then the uplift.
func (bd *builder) checkJSON(o *blockOut, it *item, code []byte, kind string, in checkInput) {
	rep := it.rep
	var v any
	var err error
	if kind == lang.YAML {
		v, err = ojson.DecodePlain(it.File, code)
		if err != nil {
			rep.Error(report.JSONSchema, fmt.Sprintf("Error parsing YAML example: %v", err), report.M("exception", "MarkedYAMLError"))
			return
		}
		var buf bytes.Buffer
		if err = ldctx.WriteJSON(&buf, v); err == nil {
			code = withNewline(buf.Bytes()) // the YAML as JSON, for the steps below
		}
	} else {
		v, err = decodeJSON(code)
		if err != nil {
			var se *jsonSyntaxError
			payload := ojson.Members{report.M("exception", "JSONDecodeError")}
			msg := fmt.Sprintf("Error parsing JSON example: %v", err)
			if errors.As(err, &se) {
				payload = append(payload, report.M("line", se.line), report.M("col", se.col))
				msg = fmt.Sprintf("Error parsing JSON example: %s on or near line %d column %d", se.msg, se.line, se.col)
			}
			rep.Error(report.JSONSchema, msg, payload...)
			return
		}
	}
	rep.Info(report.Files, fmt.Sprintf("Using %s from %s", in.using, it.fileFrom()))
	doc := v
	if m, isMap := v.(map[string]any); isMap {
		if g, has := m["@graph"]; has {
			rep.Info(report.Files, `"@graph" found, unwrapping`, report.Op(report.OpGraphUnwrap))
			doc = g
		}
	}

	// JSON Schema.
	if in.sn.SchemaRef != "" {
		rep.Info(report.JSONSchema, "Using the following JSON Schema: "+in.sn.SchemaRef, report.M("filename", in.sn.SchemaRef))
	}
	switch {
	case o.b.Files.Schema == "":
		// No schema: nothing validates the resource, as in the tool chain.
	case in.sch == nil:
		rep.GlobalError(report.JSONSchema, fmt.Sprintf("Error creating JSON validator: %v", in.schErr))
		return
	default:
		var probs []diag.Diagnostic
		if in.sn.SchemaRef != "" {
			probs, err = in.sch.ValidateRef(in.sn.SchemaRef, doc)
		} else {
			probs = in.sch.Validate(doc)
		}
		if err != nil {
			rep.Error(report.JSONSchema, fmt.Sprintf("Error loading schema from snippet schema-ref: %v", err))
			return
		}
		if first := firstSchemaError(probs); first != nil {
			msg := first.Message
			where := first.Pointer
			if where == "" {
				where = "/"
			}
			text := fmt.Sprintf("ValidationError: %s\n\nAt %s", msg, where)
			if first.Schema != "" {
				text += fmt.Sprintf(", failed validating %s", first.Schema)
			}
			rep.Error(report.JSONSchema, text, report.Op(report.OpValidation), report.M("result", false),
				report.M("exception", "ValidationError"), report.M("errorMessage", msg))
		} else {
			rep.Info(report.JSONSchema, "Validation passed", report.Op(report.OpValidation), report.M("result", true))
		}
	}

	// The uplift: a JSON resource with the block's context (or prefixes),
	// a JSON-LD one as it is. The tool chain does not uplift YAML.
	if kind == lang.YAML {
		return
	}
	prefixes := in.prefixes
	ctx := o.ctx
	switch {
	case kind == lang.JSONLD:
		ctx, _ = ldctx.Process(map[string]any{}) // a JSON-LD snippet carries its own context
	case ctx == nil && o.ctxErr:
		rep.GlobalError(report.JSONLD, "Error loading JSON-LD context: the block's context could not be built")
		return
	case ctx == nil && len(prefixes) == 0:
		return
	case ctx == nil:
		// The examples' prefixes alone, as the tool chain uplifts them.
		ctx, _ = ldctx.Process(map[string]any{})
	}
	if kind != lang.JSONLD {
		rep.Info(report.Files, "JSON-LD context is present - uplifting", report.Op(report.OpJSONLDUplift))
	}
	published := ""
	switch {
	case bd.opts.RelativeBase != "":
		published = bd.opts.RelativeBase
	case bd.opts.BaseURL != "":
		published = bd.link("", path.Join(o.tests, it.File))
	}
	if kind != lang.JSONLD {
		var ok bool
		if code, ok = bd.preUplift(o, it, code); !ok {
			return
		}
	}
	up, err := convert.UpliftSnippet(code, ctx, prefixes, in.ex, in.sn, published, it.Base+"b")
	if err != nil {
		rep.Error(report.JSONLD, fmt.Sprintf("Error found when uplifting JSON-LD: %v", err), report.Op(report.OpJSONLDUpliftError))
		return
	}
	for _, n := range up.Notices {
		msg := n.Message
		if n.Pointer != "" {
			msg = fmt.Sprintf("%s (at %s)", n.Message, n.Pointer)
		}
		rep.Info(report.JSONLD, msg, report.Op(OpNote))
	}
	if kind != lang.JSONLD {
		out := up.JSONLD
		if o.context != nil {
			// Point at the built context rather than repeating it, as the
			// tool chain does.
			if list, isList := out["@context"].([]any); isList && len(list) > 1 {
				var c []any
				for i, e := range list {
					if i == 1 {
						e = bd.link(path.Join(o.tests, it.Base+".jsonld"), path.Join(o.annotated, "context.jsonld"))
					} else if m, isMap := e.(map[string]any); isMap && len(m) == 0 {
						continue // no prefixes
					}
					c = append(c, e)
				}
				out = copyMap(out)
				if len(c) == 1 {
					out["@context"] = c[0]
				} else {
					out["@context"] = c
				}
			}
		}
		var buf bytes.Buffer
		if err := ldctx.WriteJSON(&buf, out); err != nil {
			rep.Error(report.JSONLD, fmt.Sprintf("Error writing the JSON-LD: %v", err))
			return
		}
		it.JSONLD = withNewline(bytes.Clone(buf.Bytes()))
		bd.put(path.Join(o.tests, it.Base+".jsonld"), it.JSONLD)
		rep.Info(report.Files, fmt.Sprintf("Output JSON-LD %s.jsonld created", it.Base),
			report.Op(report.OpJSONLDCreate), report.M("filename", it.Base+".jsonld"))
	} else {
		it.JSONLD = code
	}
	var ok bool
	if up.Triples, ok = bd.postUplift(o, it, up.Triples, up.Prefixes); !ok {
		return
	}
	bd.writeTurtle(o, it, up)
	it.graph = up.Triples
	it.prefixes = map[string]string{}
	for _, p := range up.Prefixes {
		it.prefixes[p.Name] = p.IRI
	}
}

// writeTurtle writes the graph of an uplifted resource as its .ttl file,
// and the entry that says so; an empty graph gives a file holding only a
// comment, and an error, as in the tool chain.
func (bd *builder) writeTurtle(o *blockOut, it *item, up *convert.Uplift) {
	name := it.Base + ".ttl"
	created := func(empty bool, size int) {
		msg := "Output Turtle " + name + " created"
		if empty {
			msg = "**Empty** output Turtle " + name + " created"
		}
		it.rep.Add(report.Entry{Section: report.Files, Message: msg, IsError: empty, Payload: ojson.Members{
			report.Op(report.OpTTLCreate), report.M("empty", empty), report.M("filename", name), report.M("size", size)}})
	}
	if len(up.Triples) == 0 {
		it.Turtle = []byte("# Empty Turtle file\n")
		bd.put(path.Join(o.tests, name), it.Turtle)
		created(true, 0)
		return
	}
	var buf bytes.Buffer
	w := rdf.NewTurtleWriter(&buf, up.Prefixes)
	if up.Relative {
		w.SetRelative(convert.PlaceholderBase)
	}
	// Only the prefixes the graph takes are declared, as rdflib writes
	// the tool chain's: not jrpcld's own jlog: on a graph without it.
	triples := sortTriples(up.Triples)
	w.KeepUsed(triples)
	err := w.WriteGroup(triples)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		it.rep.Error(report.Turtle, fmt.Sprintf("Error writing the Turtle: %v", err))
		return
	}
	it.Turtle = bytes.Clone(buf.Bytes())
	bd.put(path.Join(o.tests, name), it.Turtle)
	created(false, len(up.Triples))
}

// checkTurtle parses a Turtle resource; an example snippet is counted as
// its graph's .ttl output, as the tool chain counts it.
func (bd *builder) checkTurtle(o *blockOut, it *item, code []byte, in checkInput) {
	base := in.sn.BaseURI
	if base == "" {
		base = in.ex.BaseURI
	}
	if it.rep.Source.Type == report.Example && len(in.prefixes) > 0 {
		// The prefixes of examples.yaml are declared before the snippet,
		// as the tool chain declares them; the file written holds them,
		// so that it reads on its own. Transforms and the documentation
		// keep the snippet as written (it.Source), as in the tool chain.
		names := in.prefixNames
		if len(names) != len(in.prefixes) {
			names = slices.Sorted(maps.Keys(in.prefixes))
		}
		var decls bytes.Buffer
		for _, n := range names {
			fmt.Fprintf(&decls, "@prefix %s: <%s> .\n", n, in.prefixes[n])
		}
		code = append(decls.Bytes(), code...)
		bd.put(path.Join(o.tests, it.File), code)
		it.rep.Info(report.Turtle, "Prefixes are defined for "+strings.Join(names, ", "))
	}
	qs, prefixes, err := rdf.Parse(code, rdf.Turtle, base)
	if err != nil {
		it.rep.Error(report.Turtle, err.Error(), report.M("exception", "BadSyntax"))
		return
	}
	ts := make([]rdf.Triple, len(qs))
	for i, q := range qs {
		ts[i] = q.Triple
	}
	it.graph, it.prefixes = ts, prefixes
	it.rep.Info(report.Files, fmt.Sprintf("Using %s from %s", in.using, it.fileFrom()))
	if it.rep.Source.Type == report.Example {
		it.rep.Info(report.Files, "Output Turtle "+it.Base+".ttl created", report.Op(report.OpTTLCreate),
			report.M("empty", len(ts) == 0), report.M("filename", it.Base+".ttl"), report.M("size", len(ts)))
	}
}

// firstSchemaError returns the first error of a validation, or nil.
func firstSchemaError(probs []diag.Diagnostic) *diag.Diagnostic {
	for i := range probs {
		if probs[i].Severity == diag.Error {
			return &probs[i]
		}
	}
	return nil
}

// decodeJSON decodes one JSON document, numbers kept as written; a syntax
// error says its line and column.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		off := dec.InputOffset()
		line, col := lineCol(data, off)
		return nil, &jsonSyntaxError{"data after the document", line, col}
	}
	if err != nil {
		var se *json.SyntaxError
		off := int64(len(data))
		if errors.As(err, &se) {
			off = se.Offset
			if off > 0 {
				off--
			}
		}
		line, col := lineCol(data, off)
		msg := strings.TrimPrefix(err.Error(), "json: ")
		if len(bytes.TrimSpace(data)) == 0 {
			msg = "Expecting value"
		}
		return nil, &jsonSyntaxError{msg, line, col}
	}
	return v, nil
}

// lineCol returns the line and column (from 1) of byte offset off.
func lineCol(data []byte, off int64) (int, int) {
	off = min(off, int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sortTriples returns the triples in a fixed order, by subject, predicate
// and object, numbers in blank node labels compared by value: the JSON-LD
// processor does not always give the triples of a snippet in the same order.
func sortTriples(ts []rdf.Triple) []rdf.Triple {
	type keyed struct {
		k [3]string
		t rdf.Triple
	}
	ks := make([]keyed, len(ts))
	for i, t := range ts {
		ks[i] = keyed{[3]string{t.S.String(), "<" + t.P + ">", t.O.String()}, t}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		for n := range 3 {
			if ks[i].k[n] != ks[j].k[n] {
				return naturalLess(ks[i].k[n], ks[j].k[n])
			}
		}
		return false
	})
	out := make([]rdf.Triple, len(ts))
	for i, k := range ks {
		out[i] = k.t
	}
	return out
}

// naturalLess compares strings with runs of digits compared by value, so
// that _:b2 comes before _:b10.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
