package register

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	jsonld "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/ontology"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/schema"
)

// Sections of a validation report item, as the tool chain names them.
const (
	sectionFiles      = "FILES"
	sectionJSONSchema = "JSON_SCHEMA"
	sectionJSONLD     = "JSON_LD"
	sectionTurtle     = "TURTLE"
	sectionSHACL      = "SHACL"
	sectionGeneral    = "GENERAL"
)

// sectionOrder and sectionTitles give the order and titles of the sections.
var (
	sectionOrder  = []string{sectionFiles, sectionJSONSchema, sectionJSONLD, sectionTurtle, sectionSHACL, sectionGeneral}
	sectionTitles = map[string]string{sectionFiles: "Files", sectionJSONSchema: "JSON Schema", sectionJSONLD: "JSON-LD",
		sectionTurtle: "Turtle", sectionSHACL: "SHACL", sectionGeneral: "General"}
)

// report is the content of a block's _report.json.
type report struct {
	Title        string             `json:"title"`
	BBlockName   string             `json:"bblockName"`
	BBlockID     string             `json:"bblockId"`
	Generated    string             `json:"generated,omitempty"`
	Result       bool               `json:"result"`
	Items        []reportItem       `json:"items"`
	GlobalErrors map[string][]entry `json:"globalErrors"`
	Counts       counts             `json:"counts"`
}

type counts struct {
	Total  int `json:"total"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

type reportItem struct {
	Source   source    `json:"source"`
	Result   bool      `json:"result"`
	Sections []section `json:"sections"`
}

type source struct {
	Type         string `json:"type"`
	RequireFail  bool   `json:"requireFail"`
	Filename     string `json:"filename"`
	ExampleIndex int    `json:"exampleIndex,omitempty"`
	SnippetIndex int    `json:"snippetIndex,omitempty"`
	Language     string `json:"language,omitempty"`
}

type section struct {
	Name    string  `json:"name"`
	Title   string  `json:"title"`
	Entries []entry `json:"entries"`
}

type entry struct {
	Op      string `json:"op"`
	IsError bool   `json:"isError"`
	Message string `json:"message"`
}

// item is one checked example snippet or test resource.
type item struct {
	Type         string // EXAMPLE or TEST_RESOURCE
	RequireFail  bool
	ExampleIndex int
	SnippetIndex int
	Language     string
	Title        string // the example's title, or the test resource's file
	SchemaRef    string
	Base         string // output file name without extension

	File   string // the source as written to the tests folder
	Source []byte
	JSON   []byte // a YAML snippet converted to JSON
	JSONLD []byte // the uplifted JSON-LD, when made
	Turtle []byte // the uplifted Turtle, when made
	Passed bool

	entries map[string][]entry
}

func (it *item) add(sect, op string, isError bool, format string, args ...any) {
	if it.entries == nil {
		it.entries = map[string][]entry{}
	}
	it.entries[sect] = append(it.entries[sect], entry{Op: op, IsError: isError, Message: fmt.Sprintf(format, args...)})
}

// hasError reports whether an entry is an error.
func (it *item) hasError() bool {
	for _, es := range it.entries {
		for _, e := range es {
			if e.IsError {
				return true
			}
		}
	}
	return false
}

// sections returns the non-empty sections in order.
func (it *item) sections() []section {
	var out []section
	for _, name := range sectionOrder {
		if es := it.entries[name]; len(es) > 0 {
			out = append(out, section{Name: name, Title: sectionTitles[name], Entries: es})
		}
	}
	return out
}

func (it *item) reportItem() reportItem {
	return reportItem{
		Source: source{Type: it.Type, RequireFail: it.RequireFail, Filename: it.File,
			ExampleIndex: it.ExampleIndex, SnippetIndex: it.SnippetIndex, Language: it.Language},
		Result:   it.Passed,
		Sections: it.sections(),
	}
}

// label names the item in messages.
func (it *item) label() string {
	if it.Type == "EXAMPLE" {
		return fmt.Sprintf("example %d snippet %d (%s)", it.ExampleIndex, it.SnippetIndex, it.Title)
	}
	return "test " + it.Title
}

// firstError returns the message of the item's first error.
func (it *item) firstError() string {
	for _, s := range it.sections() {
		for _, e := range s.Entries {
			if e.IsError {
				return e.Message
			}
		}
	}
	return "failed"
}

// text renders the item as the *.validation_passed.txt / failed.txt file.
func (it *item) text() []byte {
	var b strings.Builder
	verdict := "PASSED"
	if !it.Passed {
		verdict = "FAILED"
	}
	fmt.Fprintf(&b, "%s: %s\n", verdict, it.label())
	if it.RequireFail {
		b.WriteString("This resource must fail validation.\n")
	}
	for _, s := range it.sections() {
		fmt.Fprintf(&b, "\n## %s\n", s.Title)
		for _, e := range s.Entries {
			mark := "-"
			if e.IsError {
				mark = "- ERROR:"
			}
			fmt.Fprintf(&b, "%s %s\n", mark, e.Message)
		}
	}
	return []byte(b.String())
}

// check validates one example snippet or test resource and uplifts it: it
// writes the source, the JSON-LD and Turtle files and the validation text
// file, and sets it.Passed. ok is false when code could not be read.
func (bd *builder) check(o *blockOut, it *item, code []byte, ok bool, sch *schema.Schema, ex bblock.Example, sn bblock.Snippet) {
	kind := languageKind(sn.Language)
	ext := extension(kind)
	if it.File == "" {
		it.File = it.Base + ext
	}
	if ok {
		it.Source = code
		bd.put(path.Join(o.tests, it.File), code)
		bd.checkContent(o, it, code, kind, sch, ex, sn)
	}
	failed := it.hasError()
	switch {
	case it.RequireFail && failed:
		it.add(sectionGeneral, "expectation", false, "validation failed, as it must for this resource")
		it.Passed = true
	case it.RequireFail && o.hasShapes():
		// Its SHACL rules may be what makes it fail: jrpcld cannot tell.
		it.add(sectionSHACL, "expectation", false, "this resource must fail validation and passes every check jrpcld makes; the block's SHACL rules, which jrpcld does not check, may be what makes it fail")
		o.warnf("%s must fail validation and passes every check jrpcld makes: only the block's SHACL rules, which jrpcld does not check, can decide", it.label())
		it.Passed = true
	case it.RequireFail:
		it.add(sectionGeneral, "expectation", true, "this resource must fail validation, but it passed")
	default:
		it.Passed = !failed
	}
	suffix := ".validation_passed.txt"
	if !it.Passed {
		suffix = ".validation_failed.txt"
	}
	bd.put(path.Join(o.tests, it.Base+suffix), it.text())
}

func (bd *builder) checkContent(o *blockOut, it *item, code []byte, kind string, sch *schema.Schema, ex bblock.Example, sn bblock.Snippet) {
	switch kind {
	case langTurtle:
		base := sn.BaseURI
		if base == "" {
			base = ex.BaseURI
		}
		if _, err := ontology.Parse(bytes.NewReader(code), rdf.Turtle, base); err != nil {
			it.add(sectionTurtle, "parse", true, "not valid Turtle: %v", err)
		} else {
			it.add(sectionTurtle, "parse", false, "valid Turtle")
		}
		return
	case langJSON, langJSONLD, langYAML:
	default:
		it.add(sectionFiles, "language", false, "language %q is not checked", sn.Language)
		return
	}

	// Decode.
	var v any
	var err error
	if kind == langYAML {
		v, err = bblock.DecodeDoc(it.File, code)
		if err == nil {
			var buf bytes.Buffer
			if err = jsonld.WriteJSON(&buf, v); err == nil {
				it.JSON = withNewline(buf.Bytes())
				code = it.JSON
				bd.put(path.Join(o.tests, it.Base+".json"), it.JSON)
			}
		}
	} else {
		v, err = bblock.DecodeDoc(it.Base+".json", code)
	}
	if err != nil {
		it.add(sectionJSONSchema, "parse", true, "%v", err)
		return
	}

	// JSON Schema.
	switch {
	case o.b.Files.Schema == "":
		it.add(sectionJSONSchema, "validate", false, "the block has no schema: not validated")
	case sch == nil:
		it.add(sectionJSONSchema, "validate", true, "not validated: the block's schema does not compile")
	default:
		var probs []diag.Diagnostic
		against := "the block's schema"
		if sn.SchemaRef != "" {
			against = sn.SchemaRef
			probs, err = sch.ValidateRef(sn.SchemaRef, v)
		} else {
			probs = sch.Validate(v)
		}
		if err != nil {
			it.add(sectionJSONSchema, "validate", true, "schema-ref %q: %v", sn.SchemaRef, err)
			break
		}
		errs := 0
		for _, p := range probs {
			isErr := p.Severity == diag.Error
			if isErr {
				errs++
			}
			msg := p.Message
			if p.Pointer != "" {
				msg = fmt.Sprintf("at %s: %s", p.Pointer, msg)
			}
			if p.Schema != "" {
				msg += fmt.Sprintf(" (schema: %s)", p.Schema)
			}
			it.add(sectionJSONSchema, "validate", isErr, "%s", msg)
		}
		if errs == 0 {
			it.add(sectionJSONSchema, "validate", false, "valid against %s", against)
		}
	}

	// JSON-LD uplift and Turtle, except for a resource already seen to fail
	// as it must.
	if it.RequireFail && it.hasError() {
		return
	}
	var prefixes map[string]string
	if o.b.Examples != nil {
		prefixes = o.b.Examples.Prefixes
	}
	ctx := o.ctx
	switch {
	case kind == langJSONLD:
		ctx, _ = jsonld.Process(map[string]any{}) // a JSON-LD snippet carries its own context
	case ctx == nil && o.ctxErr:
		it.add(sectionJSONLD, "uplift", true, "no semantic uplift: the block's context could not be built")
		return
	case ctx == nil && len(prefixes) == 0:
		it.add(sectionJSONLD, "uplift", false, "the block has no JSON-LD context: no semantic uplift")
		return
	case ctx == nil:
		// The examples' prefixes alone, as the tool chain uplifts them.
		ctx, _ = jsonld.Process(map[string]any{})
	}
	published := ""
	if bd.opts.BaseURL != "" {
		published = bd.link("", path.Join(o.tests, it.File))
	}
	up, err := convert.UpliftSnippet(code, ctx, prefixes, ex, sn, published, it.Base+"b")
	if err != nil {
		it.add(sectionJSONLD, "uplift", true, "semantic uplift: %v", err)
		return
	}
	for _, n := range up.Notices {
		if n.Pointer != "" {
			it.add(sectionJSONLD, "uplift", false, "%s (at %s)", n.Message, n.Pointer)
		} else {
			it.add(sectionJSONLD, "uplift", false, "%s", n.Message)
		}
	}
	doc := up.JSONLD
	if kind != langJSONLD && o.context != nil {
		// Point at the built context rather than repeating it, as the tool
		// chain does.
		if list, ok := doc["@context"].([]any); ok && len(list) > 1 {
			var c []any
			for i, e := range list {
				if i == 1 {
					e = bd.link(path.Join(o.tests, it.Base+".jsonld"), path.Join(o.annotated, "context.jsonld"))
				} else if m, ok := e.(map[string]any); ok && len(m) == 0 {
					continue // no prefixes
				}
				c = append(c, e)
			}
			doc = copyMap(doc)
			if len(c) == 1 {
				doc["@context"] = c[0]
			} else {
				doc["@context"] = c
			}
		}
	}
	var buf bytes.Buffer
	if err := jsonld.WriteJSON(&buf, doc); err != nil {
		it.add(sectionJSONLD, "write", true, "writing the JSON-LD: %v", err)
		return
	}
	it.JSONLD = withNewline(bytes.Clone(buf.Bytes()))
	bd.put(path.Join(o.tests, it.Base+".jsonld"), it.JSONLD)
	if len(up.Triples) == 0 {
		// An empty Turtle file, as the tool chain writes it.
		it.Turtle = []byte("# Empty Turtle file\n")
		bd.put(path.Join(o.tests, it.Base+".ttl"), it.Turtle)
		it.add(sectionJSONLD, "uplift", true, "the uplift gives an empty graph: the context maps none of its members (%s.ttl holds only a comment)", it.Base)
		return
	}
	it.add(sectionJSONLD, "uplift", false, "uplifted to %s.jsonld", it.Base)
	buf.Reset()
	w := rdf.NewTurtleWriter(&buf, up.Prefixes)
	if up.Relative {
		w.SetRelative(convert.PlaceholderBase)
	}
	if err = w.WriteGroup(sortTriples(up.Triples)); err == nil {
		err = w.Close()
	}
	if err != nil {
		it.add(sectionTurtle, "write", true, "writing the Turtle: %v", err)
		return
	}
	it.Turtle = bytes.Clone(buf.Bytes())
	bd.put(path.Join(o.tests, it.Base+".ttl"), it.Turtle)
	it.add(sectionTurtle, "write", false, "%d triple%s in %s.ttl", len(up.Triples), plural(len(up.Triples)), it.Base)
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// marshalIndent encodes v as JSON indented by two spaces, without escaping
// HTML characters, with a final newline.
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
