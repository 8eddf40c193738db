// Package report holds the validation reports of a building-block register
// in the formats of the OGC tool chain (bblocks-postprocess): the report of
// each checked resource (an example snippet, a test resource or a transform
// output) as an Item of Entries grouped in Sections, a block's
// tests/PATH/_report.json (Block) and the text file written beside each
// resource (NAME.validation_passed.txt or NAME.validation_failed.txt), and
// the register's tests/report.json and tests/report.html (Register).
//
// A build makes one Item per resource and adds an Entry for each step, in
// the order the steps run, with the tool chain's section, message and
// payload (the members it writes before "isError", "op" first):
//
//	it := report.NewItem(report.Source{Type: report.Example, ...})
//	it.Info(report.Files, "Using example_1_1.json from examples")
//	it.Info(report.JSONSchema, "Validation passed", report.Op(report.OpValidation), report.M("result", true))
//	it.Error(report.SHACL, msg, report.Op(report.OpSHACLReport), report.M("shaclFile", f), report.M("graph", g))
//	it.Finish()
//
// Finish adds the require-fail verdict and fixes the item's result; the
// item is then written by Block. The messages the tool chain takes from
// Python (exception texts, jsonschema's renderings of values) cannot be
// the same in jrpcld: an entry with such a message keeps the tool chain's
// payload (op, result, exception) so that the outcome of each step compares
// equal, and says the rest in jrpcld's words.
package report

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// Section is a part of an item's report, as the tool chain names and orders
// them.
type Section int

// The sections, in the order the reports list them.
const (
	General Section = iota
	Files
	JSONSchema
	JSONLD
	Turtle
	SHACL
	SemanticUplift
	Unknown
	numSections
)

var sectionNames = [numSections][2]string{
	General:        {"GENERAL", "General"},
	Files:          {"FILES", "Files"},
	JSONSchema:     {"JSON_SCHEMA", "JSON Schema"},
	JSONLD:         {"JSON_LD", "JSON-LD"},
	Turtle:         {"TURTLE", "Turtle"},
	SHACL:          {"SHACL", "SHACL"},
	SemanticUplift: {"SEMANTIC_UPLIFT", "Semantic Uplift"},
	Unknown:        {"UNKNOWN", "Unknown errors"},
}

// Name returns the section's name in _report.json ("JSON_SCHEMA").
func (s Section) Name() string {
	if s < 0 || s >= numSections {
		return fmt.Sprintf("Section(%d)", int(s))
	}
	return sectionNames[s][0]
}

// Title returns the section's title ("JSON Schema").
func (s Section) Title() string {
	if s < 0 || s >= numSections {
		return s.Name()
	}
	return sectionNames[s][1]
}

// The operations the tool chain names in an entry's "op" member.
const (
	OpValidation        = "validation"          // JSON Schema validation; with "result"
	OpGraphUnwrap       = "@graph-unwrap"       // a JSON document's @graph taken as the document
	OpJSONLDUplift      = "jsonld-uplift"       // the block has a context: the JSON is uplifted
	OpJSONLDUpliftError = "jsonld-uplift-error" // the JSON-LD processor failed or warned
	OpJSONLDCreate      = "jsonld-create"       // the .jsonld file was written; with "filename"
	OpTTLCreate         = "ttl-create"          // the .ttl file was written; with "empty", "filename", "size"
	OpSHACLReport       = "shacl-report"        // a SHACL validation result; with "shaclFile", "graph"
	OpRequireFail       = "require-fail"        // the verdict on a resource that must fail
)

// M returns the payload member key: v.
func M(key string, v any) ojson.Member { return ojson.M(key, v) }

// Op returns the payload member "op": op, which goes first.
func Op(op string) ojson.Member { return ojson.M("op", op) }

// Entry is one line of an item's report.
type Entry struct {
	Section Section
	Message string
	IsError bool
	// Global marks an error about the block rather than the resource (its
	// schema does not compile, its SHACL files cannot be read): the item
	// fails whatever it must, and _report.json lists the entry, the first
	// of its section, under globalErrors instead of in the item's sections.
	Global bool
	// Payload holds the members written before "isError" and "message",
	// in order.
	Payload ojson.Members
}

// Value returns the payload member key, and whether there is one.
func (e Entry) Value(key string) (any, bool) { return e.Payload.Get(key) }

// Op returns the entry's "op", or "".
func (e Entry) Op() string {
	v, _ := e.Value("op")
	s, _ := v.(string)
	return s
}

// MarshalJSON writes the payload, then isError and message.
func (e Entry) MarshalJSON() ([]byte, error) {
	o := make(ojson.Members, 0, len(e.Payload)+2)
	o = append(o, e.Payload...)
	o = append(o, ojson.M("isError", e.IsError), ojson.M("message", e.Message))
	return o.MarshalJSON()
}

// SourceType says what an item checks.
type SourceType int

// The kinds of checked resource.
const (
	Example         SourceType = iota // a snippet of examples.yaml
	TestResource                      // a file of tests/ or an entry of tests.yaml
	TransformOutput                   // what a transform made of a snippet, checked against a profile
)

// String returns the name _report.json gives the type ("TEST_RESOURCE").
func (t SourceType) String() string {
	switch t {
	case Example:
		return "EXAMPLE"
	case TestResource:
		return "TEST_RESOURCE"
	case TransformOutput:
		return "TRANSFORM_OUTPUT"
	}
	return fmt.Sprintf("SourceType(%d)", int(t))
}

// Source says which resource an item checks.
type Source struct {
	Type        SourceType
	RequireFail bool
	// Filename is the resource's path from the root of the published
	// repository, slash-separated, as the tool chain writes it: the
	// snippet as written to the build ("build/tests/PATH/example_1_1.json")
	// or the test resource in the sources ("_sources/PATH/tests/a-fail.json").
	Filename string
	// ExampleIndex and SnippetIndex number an example snippet from 1.
	ExampleIndex, SnippetIndex int
	// Language is the snippet's media type ("application/json"), or the
	// test resource's file extension ("json").
	Language string
	// SourceURL is the URL a snippet or a test resource was read from, when
	// it names one (written "sourceUrl").
	SourceURL string
	// TransformID names the transform whose output is checked.
	TransformID string
}

// Item is the report on one checked resource.
type Item struct {
	Source  Source
	entries []Entry
	errors  bool // an error entry other than the require-fail verdict
	general bool // a global error entry
	done    bool
}

// NewItem returns an empty report on the resource src.
func NewItem(src Source) *Item {
	return &Item{Source: src}
}

// Add adds an entry. An error makes the item fail, unless the resource
// must fail; a global error makes it fail whatever it must.
func (it *Item) Add(e Entry) {
	it.entries = append(it.entries, e)
	if e.IsError && e.Op() != OpRequireFail {
		it.errors = true
		if e.Global {
			it.general = true
		}
	}
}

// Info adds an entry that is not an error.
func (it *Item) Info(s Section, msg string, payload ...ojson.Member) {
	it.Add(Entry{Section: s, Message: msg, Payload: payload})
}

// Error adds an error entry.
func (it *Item) Error(s Section, msg string, payload ...ojson.Member) {
	it.Add(Entry{Section: s, Message: msg, IsError: true, Payload: payload})
}

// GlobalError adds an error about the block, as Entry.Global says.
func (it *Item) GlobalError(s Section, msg string, payload ...ojson.Member) {
	it.Add(Entry{Section: s, Message: msg, IsError: true, Global: true, Payload: payload})
}

// HasErrors reports whether an entry other than the require-fail verdict
// is an error: the checks found the resource invalid.
func (it *Item) HasErrors() bool { return it.errors }

// HasGlobalErrors reports whether a global error was added.
func (it *Item) HasGlobalErrors() bool { return it.general }

// Failed reports whether the item fails: a global error, an error in a
// resource that must pass, or none in one that must fail.
func (it *Item) Failed() bool {
	return it.general || it.Source.RequireFail != it.errors
}

// Finish adds, for a resource that must fail and has no global error, the
// tool chain's verdict ("Test was expected to fail and it did.", an error
// when it did not). Calling it again does nothing.
func (it *Item) Finish() {
	if it.done {
		return
	}
	it.done = true
	if !it.Source.RequireFail || it.general {
		return
	}
	failed := it.Failed()
	msg := "Test was expected to fail and it did."
	if failed {
		msg = "Test was expected to fail but it did not."
	}
	it.Add(Entry{Section: General, Message: msg, IsError: failed, Payload: ojson.Members{Op(OpRequireFail)}})
}

// Entries returns the entries of section s, in the order they were added.
func (it *Item) Entries(s Section) []Entry {
	var out []Entry
	for _, e := range it.entries {
		if e.Section == s {
			out = append(out, e)
		}
	}
	return out
}

// All returns every entry, by section, in report order.
func (it *Item) All() []Entry {
	out := make([]Entry, 0, len(it.entries))
	for s := range numSections {
		out = append(out, it.Entries(s)...)
	}
	return out
}

// FirstError returns the message of the first error entry in report
// order, or "".
func (it *Item) FirstError() string {
	for _, e := range it.All() {
		if e.IsError {
			return e.Message
		}
	}
	return ""
}

// TextName returns the name of the item's text file for output base name
// base ("example_1_1" gives "example_1_1.validation_passed.txt").
func (it *Item) TextName(base string) string {
	if it.Failed() {
		return base + ".validation_failed.txt"
	}
	return base + ".validation_passed.txt"
}

// Text returns the item's text file, as the tool chain writes it: a title
// naming the block, the time it was generated, then each section with
// entries, every entry of it (global ones too), errors marked.
func (it *Item) Text(blockID, blockName, generated string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "Validation report for %s - %s\nGenerated %s\n", blockID, blockName, generated)
	for s := range numSections {
		es := it.Entries(s)
		if len(es) == 0 {
			continue
		}
		fmt.Fprintf(&b, "=== %s ===\n", s.Title())
		for _, e := range es {
			if e.IsError {
				b.WriteString("\n** Validation error **\n")
			}
			b.WriteString(e.Message)
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "=== End %s ===\n\n", s.Title())
	}
	return []byte(b.String())
}

// Block is a block's _report.json.
type Block struct {
	ID, Name string
	// Generated is the time of the build, as the tool chain writes it
	// ("2000-01-01T00:00:00+00:00").
	Generated string
	// BaseURL, when not empty, is the URL of the root of the published
	// repository: each item's source gets a "url" below it.
	BaseURL string
	Items   []*Item
}

// Result reports whether every item passes.
func (r *Block) Result() bool {
	for _, it := range r.Items {
		if it.Failed() {
			return false
		}
	}
	return true
}

// Counts returns the number of items, of those that pass and of those that
// fail.
func (r *Block) Counts() (total, passed, failed int) {
	for _, it := range r.Items {
		if it.Failed() {
			failed++
		}
	}
	return len(r.Items), len(r.Items) - failed, failed
}

// Title is the report's title.
func (r *Block) Title() string {
	return fmt.Sprintf("Validation report for %s - %s", r.ID, r.Name)
}

// object returns the report as _report.json holds it.
func (r *Block) object() ojson.Members {
	items := make([]any, 0, len(r.Items))
	global := ojson.Members{}
	for _, it := range r.Items {
		src := ojson.Members{ojson.M("type", it.Source.Type.String()), ojson.M("requireFail", it.Source.RequireFail)}
		if it.Source.Filename != "" {
			src = append(src, ojson.M("filename", it.Source.Filename))
			if r.BaseURL != "" {
				src = append(src, ojson.M("url", joinURL(r.BaseURL, it.Source.Filename)))
			}
		}
		if it.Source.ExampleIndex != 0 {
			src = append(src, ojson.M("exampleIndex", it.Source.ExampleIndex))
			if it.Source.SnippetIndex != 0 {
				src = append(src, ojson.M("snippetIndex", it.Source.SnippetIndex))
			}
		}
		if it.Source.Language != "" {
			src = append(src, ojson.M("language", it.Source.Language))
		}
		if it.Source.SourceURL != "" {
			src = append(src, ojson.M("sourceUrl", it.Source.SourceURL))
		}
		if it.Source.TransformID != "" {
			src = append(src, ojson.M("transformId", it.Source.TransformID))
		}
		sections := []any{}
		for s := range numSections {
			es := it.Entries(s)
			if len(es) == 0 {
				continue
			}
			var shown []any
			for _, e := range es {
				if !e.Global {
					shown = append(shown, e)
				} else if e.IsError && !global.Has(s.Name()) {
					global = append(global, ojson.M(s.Name(), e))
				}
			}
			if shown == nil {
				shown = []any{}
			}
			sections = append(sections, ojson.Members{ojson.M("name", s.Name()), ojson.M("title", s.Title()), ojson.M("entries", shown)})
		}
		items = append(items, ojson.Members{ojson.M("source", src), ojson.M("result", !it.Failed()), ojson.M("sections", sections)})
	}
	total, passed, failed := r.Counts()
	return ojson.Members{
		ojson.M("title", r.Title()),
		ojson.M("bblockName", r.Name),
		ojson.M("bblockId", r.ID),
		ojson.M("generated", r.Generated),
		ojson.M("result", r.Result()),
		ojson.M("items", items),
		ojson.M("globalErrors", global),
		ojson.M("counts", ojson.Members{ojson.M("total", total), ojson.M("passed", passed), ojson.M("failed", failed)}),
	}
}

// MarshalJSON writes the report as _report.json holds it.
func (r *Block) MarshalJSON() ([]byte, error) {
	return r.object().MarshalJSON()
}

// JSON returns _report.json: the report indented by two spaces.
func (r *Block) JSON() ([]byte, error) {
	return indent(r)
}

// joinURL resolves the relative path p against base, as the tool chain
// joins a filename to its base URL.
func joinURL(base, p string) string {
	b, err := url.Parse(base)
	if err != nil {
		return base + p
	}
	r, err := url.Parse(escapePath(p))
	if err != nil {
		return base + p
	}
	return b.ResolveReference(r).String()
}

// escapePath percent-encodes what a URL path cannot hold as it is.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// indent encodes v as JSON indented by two spaces, without escaping HTML
// characters and without a final newline, as the tool chain writes its
// reports.
func indent(v any) ([]byte, error) {
	data, err := ojson.MarshalIndent(v)
	return bytes.TrimSuffix(data, []byte("\n")), err
}
