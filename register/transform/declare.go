package transform

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"go.yaml.in/yaml/v3"
)

// File is the name of the file that declares a block's transforms, in the
// block's folder.
const File = "transforms.yaml"

// Transform is one transform a block declares.
type Transform struct {
	ID          string
	Type        string
	Description string
	// Ref is the file (relative to the block's folder) or URL the code is
	// in, as declared; "" when the code is inline.
	Ref string
	// Code is the transform's code: inline, or read from Ref by Load.
	Code string
	// Inputs and Outputs are the media types the transform takes and
	// gives, normalised as the tool chain does: the declared ones, else
	// the defaults of its type. The first output is what it gives.
	Inputs, Outputs []MediaType
	// Profiles are the declared profiles of the outputs (outputs.profiles).
	Profiles []string
	// Line is the line of the declaration in transforms.yaml.
	Line int

	decl    *ojson.Object // the declaration as read
	loaded  bool          // Code was read from Ref
	loadErr error         // why Code could not be read from Ref
	// skip says why the tool chain skips the transform before it runs it
	// or normalises its media types; "" when it does not.
	skip string
}

// idRE is the form of a transform id.
var idRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*$`)

// Parse reads transforms.yaml: an object whose "transforms" member lists
// the transforms. file names it in problems. A transform that breaks the
// rules of the tool chain's schema for the file is an error and is left
// out; the others are returned. The error is non-nil only when the file is
// not YAML or not of that shape at all.
func Parse(file string, data []byte) ([]*Transform, []diag.Diagnostic, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, fmt.Errorf("%s: not YAML: %w", file, err)
	}
	if len(root.Content) == 0 {
		return nil, []diag.Diagnostic{{File: file, Severity: diag.Warning, Message: "the file is empty: no transforms"}}, nil
	}
	v, err := ojson.DecodeYAML(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	doc, ok := v.(*ojson.Object)
	if !ok {
		return nil, nil, fmt.Errorf("%s:%d: must be an object with a \"transforms\" list", file, root.Content[0].Line)
	}
	var lines []int
	if n := mappingValue(root.Content[0], "transforms"); n != nil && n.Kind == yaml.SequenceNode {
		for _, e := range n.Content {
			lines = append(lines, e.Line)
		}
	}
	raw, present := doc.Get("transforms")
	if !present || raw == nil {
		return nil, []diag.Diagnostic{{File: file, Severity: diag.Warning, Message: "no \"transforms\" list: no transforms"}}, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, nil, fmt.Errorf("%s:%d: \"transforms\" must be a list", file, root.Content[0].Line)
	}
	var out []*Transform
	var probs []diag.Diagnostic
	seen := map[string]int{}
	for i, e := range list {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		t, err := declaration(e)
		if err != nil {
			probs = append(probs, diag.Diagnostic{File: file, Line: line, Message: fmt.Sprintf("transform %d: %v; it is not run", i+1, err)})
			continue
		}
		t.Line = line
		if first, dup := seen[t.ID]; dup {
			probs = append(probs, diag.Diagnostic{File: file, Line: line, Message: fmt.Sprintf("transform %q is declared twice (first at line %d); its outputs overwrite each other, as in the tool chain: give each transform its own id", t.ID, first), Severity: diag.Warning})
		} else {
			seen[t.ID] = line
		}
		out = append(out, t)
	}
	return out, probs, nil
}

// declaration checks and reads one transform.
func declaration(v any) (*Transform, error) {
	o, ok := v.(*ojson.Object)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	t := &Transform{decl: ojson.Clone(o).(*ojson.Object)}
	id, ok := o.Value("id").(string)
	if !ok || id == "" {
		return nil, fmt.Errorf("\"id\" is required (letters, digits and dashes, starting with a letter)")
	}
	if !idRE.MatchString(id) {
		return nil, fmt.Errorf("id %q: use letters, digits and dashes, starting with a letter", id)
	}
	t.ID = id
	typ, ok := o.Value("type").(string)
	if !ok || strings.TrimSpace(typ) == "" {
		return nil, fmt.Errorf("transform %q: \"type\" is required", id)
	}
	t.Type = typ
	t.Description, _ = o.Value("description").(string)
	code, hasCode := o.Get("code")
	ref, hasRef := o.Get("ref")
	switch {
	case hasCode && hasRef:
		return nil, fmt.Errorf("transform %q has both \"code\" and \"ref\": give one", id)
	case hasCode:
		s, ok := code.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("transform %q: \"code\" must be a string that is not blank", id)
		}
		t.Code = s
	case hasRef:
		s, ok := ref.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("transform %q: \"ref\" must be a file name or URL", id)
		}
		t.Ref = s
	default:
		return nil, fmt.Errorf("transform %q has neither \"code\" nor \"ref\": give one", id)
	}
	for _, io := range []string{"inputs", "outputs"} {
		m, present := o.Get(io)
		if !present {
			continue
		}
		mo, ok := m.(*ojson.Object)
		if !ok {
			return nil, fmt.Errorf("transform %q: %q must be an object", id, io)
		}
		if mt, present := mo.Get("mediaTypes"); present {
			list, ok := mt.([]any)
			if !ok || len(list) == 0 {
				return nil, fmt.Errorf("transform %q: %s.mediaTypes must be a list that is not empty", id, io)
			}
			for j, e := range list {
				if _, ok := declaredMediaType(e); !ok || !validMediaType(e) {
					return nil, fmt.Errorf("transform %q: %s.mediaTypes[%d] must be a media type (type/subtype) or an object with mimeType and defaultExtension", id, io, j)
				}
			}
		}
		if io == "outputs" {
			if p, present := mo.Get("profiles"); present {
				list, ok := p.([]any)
				if !ok || len(list) == 0 {
					return nil, fmt.Errorf("transform %q: outputs.profiles must be a list that is not empty", id)
				}
				for _, e := range list {
					s, ok := e.(string)
					if !ok || strings.TrimSpace(s) == "" {
						return nil, fmt.Errorf("transform %q: outputs.profiles must list building-block ids or URIs", id)
					}
					t.Profiles = append(t.Profiles, s)
				}
			}
		}
	}
	if m, present := o.Get("metadata"); present {
		if _, ok := m.(*ojson.Object); !ok {
			return nil, fmt.Errorf("transform %q: \"metadata\" must be an object", id)
		}
	}
	t.skip = skipReason(t)
	t.Inputs = t.mediaTypes("inputs")
	t.Outputs = t.mediaTypes("outputs")
	return t, nil
}

// validMediaType reports whether a declared media type has the form the
// tool chain's schema asks for: "type/subtype", or an object with a
// mimeType of that form and a defaultExtension.
func validMediaType(v any) bool {
	form := func(s string) bool {
		a, b, ok := strings.Cut(s, "/")
		return ok && a != "" && b != "" && !strings.Contains(b, "/")
	}
	switch x := v.(type) {
	case string:
		return form(x)
	case *ojson.Object:
		m, _ := x.String("mimeType")
		e, _ := x.String("defaultExtension")
		return form(m) && strings.TrimSpace(e) != ""
	}
	return false
}

// mediaTypes returns the transform's inputs or outputs, normalised.
func (t *Transform) mediaTypes(io string) []MediaType {
	var declared []any
	if m, ok := t.decl.Value(io).(*ojson.Object); ok {
		declared, _ = m.Value("mediaTypes").([]any)
	}
	if t.skip != "" {
		return rawMediaTypes(declared)
	}
	if len(declared) == 0 {
		var out []MediaType
		for _, d := range defaultMediaTypes(t.Type, io) {
			out = append(out, defaultMediaType(d))
		}
		return out
	}
	out := make([]MediaType, 0, len(declared))
	for _, e := range declared {
		if mt, ok := declaredMediaType(e); ok {
			out = append(out, mt)
		}
	}
	return out
}

// Skipped returns why the tool chain skips the transform without running
// it (a Python or Node.js version its dependencies exclude), or "".
func (t *Transform) Skipped() string { return t.skip }

// Load reads the transform's code from its Ref with read, which reads a
// file of the block by its name relative to the block's folder. A URL is
// not fetched: the error says so. Load does nothing for inline code.
func (t *Transform) Load(read func(name string) ([]byte, error)) error {
	if t.Ref == "" || t.loaded {
		return nil
	}
	if isURL(t.Ref) {
		t.loadErr = fmt.Errorf("its code is at %s: jrpcld works offline and does not fetch it; copy the file into the block's folder and name it in \"ref\"", t.Ref)
		return fmt.Errorf("transform %q: %w", t.ID, t.loadErr)
	}
	data, err := read(t.Ref)
	if err != nil {
		t.loadErr = fmt.Errorf("reading its code: %w", err)
		return fmt.Errorf("transform %q: %w", t.ID, t.loadErr)
	}
	t.Code = string(data)
	t.loaded = true
	return nil
}

// Loaded reports whether the transform's code is there: inline, or read
// from its Ref by Load.
func (t *Transform) Loaded() bool { return t.Ref == "" || t.loaded }

// isURL reports whether s is an absolute URL, as the tool chain tells a URL
// from a file name.
func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != ""
}

// Entry returns the transform as the tool chain writes it in register.json
// and in a block's full JSON documentation: its declaration, with the code
// read from ref, ref made absolute against sourceFiles (the URL of the
// block's source folder; left as declared when sourceFiles is relative or
// empty), the media types normalised and, when prefixes is not empty and the
// transform declares metadata, the prefixes of the last example it ran on
// under metadata._prefixes, where the tool chain leaves them.
func (t *Transform) Entry(sourceFiles string, prefixes map[string]string) *ojson.Object {
	e := ojson.Clone(t.decl).(*ojson.Object)
	if t.loaded {
		e.Set("code", t.Code)
	}
	if t.Ref != "" && isURL(sourceFiles) {
		if base, err := url.Parse(sourceFiles); err == nil {
			if r, err := url.Parse(t.Ref); err == nil {
				e.Set("ref", base.ResolveReference(r).String())
			}
		}
	}
	if t.skip != "" {
		return e
	}
	for io, list := range map[string][]MediaType{"inputs": t.Inputs, "outputs": t.Outputs} {
		o, ok := e.Value(io).(*ojson.Object)
		if !ok {
			o = ojson.NewObject()
		}
		mts := make([]any, len(list))
		for i, mt := range list {
			mts[i] = ojson.Clone(mt.JSON)
		}
		o.Set("mediaTypes", mts)
		e.Set(io, o)
	}
	// inputs before outputs when the declaration has neither, as the tool
	// chain adds them; Set keeps the place of a declared one.
	if !t.decl.Has("inputs") && !t.decl.Has("outputs") {
		in, out := e.Value("inputs"), e.Value("outputs")
		e.Delete("inputs")
		e.Delete("outputs")
		e.Set("inputs", in)
		e.Set("outputs", out)
	}
	if m, ok := e.Value("metadata").(*ojson.Object); ok && len(prefixes) > 0 {
		p := ojson.NewObject()
		for _, k := range sortedKeys(prefixes) {
			p.Set(k, prefixes[k])
		}
		m.Set("_prefixes", p)
	}
	return e
}

// mappingValue returns the value node of key in a YAML mapping node, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
