package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	jskind "github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema/internal/bignum"
	"github.com/jrpcld/jrpcld/schema/internal/schemadoc"
	"github.com/jrpcld/jrpcld/schema/kind"
)

// Schema is a compiled building-block schema, with its definitions ready
// to validate against by name. It is safe for concurrent use.
type Schema struct {
	url   string // the root document's URL
	name  string // how messages name the schema: a block id or a file path
	store *schemadoc.Store
	c     *jsonschema.Compiler

	// mu guards c, byID and settled, which the schemas of a Set share.
	mu      *sync.Mutex
	byID    map[string]*jsonschema.Schema // compiled schemas by URL#pointer
	settled map[*jsonschema.Schema]bool   // compiled schemas corrected (see settle)

	root     *jsonschema.Schema
	dispatch *dispatch

	// plans holds the plan (*node) of each schema validated against, nil
	// for one plans do not cover (see plan.go).
	plans sync.Map

	// rulesSuffice is set for the embedded block's schema, which accepts
	// exactly what the JSON-RPC rules accept (TestDefaultSchemaEqualsRules
	// and its fuzz target prove it): a Checker that applied the rules need
	// not run the validator again.
	rulesSuffice bool
}

// A Compiler compiles schemas with its settings; the zero Compiler is the
// one Compile and CompileFile use.
type Compiler struct {
	// Formats asserts "format" in every draft, as ajv with ajv-formats
	// does (see package format: uri, uri-reference, uri-template,
	// date-time, email, byte, ...). Without it, formats are asserted as each
	// draft says: in draft-07 and before, not in 2019-09 and 2020-12; a
	// format asserted is always checked as ajv-formats checks it.
	Formats bool
}

// Compile compiles the schema of block b. reg, which may be nil, resolves
// bblocks:// references into the other blocks of b's register.
func Compile(b *bblock.Block, reg *bblock.Register) (*Schema, error) {
	return (&Compiler{}).Compile(b, reg)
}

// CompileFile compiles a schema file (JSON or YAML) on its own. It may refer
// to files in its folder and below, nothing else.
func CompileFile(file string) (*Schema, error) {
	return (&Compiler{}).CompileFile(file)
}

// Compile compiles the schema of block b, as the function Compile does.
func (c *Compiler) Compile(b *bblock.Block, reg *bblock.Register) (*Schema, error) {
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("block %s has no schema file", b.ID)
	}
	s, err := c.compile(schemadoc.NewBlockStore(b, reg), schemadoc.BlockURL(b.ID, b.Files.Schema), b.ID)
	if err != nil {
		return nil, err
	}
	// With formats asserted, the embedded schema may say more than the rules.
	s.rulesSuffice = b.Embedded() && !c.Formats
	return s, nil
}

// CompileFile compiles a schema file, as the function CompileFile does.
func (c *Compiler) CompileFile(file string) (*Schema, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	st, u := schemadoc.NewFileStore(abs)
	return c.compile(st, u, file)
}

func (c *Compiler) compile(st *schemadoc.Store, u, name string) (*Schema, error) {
	doc, err := st.Doc(u)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	s := &Schema{url: u, name: name, store: st, c: c.engine(st), mu: &sync.Mutex{},
		byID: map[string]*jsonschema.Schema{}, settled: map[*jsonschema.Schema]bool{}}
	return c.finish(s, doc)
}

// engine returns a compiler of the library that loads from st, with c's
// settings.
func (c *Compiler) engine(st *schemadoc.Store) *jsonschema.Compiler {
	jc := newEngine(c.Formats)
	jc.UseLoader(bignum.Loader{URLLoader: st})
	return jc
}

// finish compiles the root of s, whose document is doc, and its dispatch.
func (c *Compiler) finish(s *Schema, doc any) (*Schema, error) {
	var err error
	if s.root, err = s.compileURL(s.url + "#"); err != nil {
		return nil, err
	}
	if s.dispatch, err = newDispatch(s, doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", s.name, err)
	}
	return s, nil
}

// A Set compiles the schemas of the blocks of one register, reading each
// document and compiling each subschema once for them all: blocks that
// refer to one another would otherwise each compile what they reach again,
// which grows with the square of a chain of references. It is safe for
// concurrent use.
type Set struct {
	c       *Compiler
	st      *schemadoc.Store
	jc      *jsonschema.Compiler
	mu      sync.Mutex
	byID    map[string]*jsonschema.Schema
	settled map[*jsonschema.Schema]bool
}

// NewSet returns the set of the schemas of register reg's blocks, compiled
// with c's settings.
func (c *Compiler) NewSet(reg *bblock.Register) *Set {
	s := &Set{c: c, byID: map[string]*jsonschema.Schema{}, settled: map[*jsonschema.Schema]bool{}}
	if len(reg.Blocks) > 0 {
		s.st = schemadoc.NewBlockStore(reg.Blocks[0], reg)
		s.jc = c.engine(s.st)
	}
	return s
}

// Compile compiles the schema of block b, a block of the set's register,
// as Compiler.Compile does.
func (s *Set) Compile(b *bblock.Block) (*Schema, error) {
	if b.Files.Schema == "" {
		return nil, fmt.Errorf("block %s has no schema file", b.ID)
	}
	if s.st == nil {
		return nil, fmt.Errorf("block %s is not a block of the set's register", b.ID)
	}
	u := schemadoc.BlockURL(b.ID, b.Files.Schema)
	doc, err := s.st.Doc(u)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", b.ID, err)
	}
	sch, err := s.c.finish(&Schema{url: u, name: b.ID, store: s.st, c: s.jc, mu: &s.mu, byID: s.byID, settled: s.settled}, doc)
	if err != nil {
		return nil, err
	}
	sch.rulesSuffice = b.Embedded() && !s.c.Formats
	return sch, nil
}

// Name returns the block id or file the schema was compiled from.
func (s *Schema) Name() string { return s.name }

func (s *Schema) compileURL(u string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.byID[u]; ok {
		return sch, nil
	}
	sch, err := s.c.Compile(u)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %s: %w", s.name, s.store.Display(u), err)
	}
	settle(sch, s.settled)
	s.byID[u] = sch
	return sch, nil
}

// Resolve turns a reference to a part of the schema into an absolute
// location. A reference may be an anchor ("#Request" or "Request"), a JSON
// pointer with or without its leading slash ("#/$defs/Request",
// "#definitions/Request"), the name of a definition ("Request", looked up in
// $defs and definitions), a sibling file ("other.yaml#/x") or another block
// ("bblocks://id#Name").
func (s *Schema) Resolve(ref string) (string, error) {
	doc, err := s.store.Doc(s.url)
	if err != nil {
		return "", err
	}
	root, _ := doc.(map[string]any) // nil for a schema that is true or false
	if !strings.ContainsAny(ref, "#/:.") {
		for _, defs := range []string{"$defs", "definitions"} {
			if m, ok := root[defs].(map[string]any); ok {
				if _, ok := m[ref]; ok {
					return s.url + "#/" + defs + "/" + jsonptr.Escape(ref), nil
				}
			}
		}
		if ptr, ok := schemadoc.FindAnchor(doc, ref); ok {
			return s.url + "#" + ptr, nil
		}
		return "", s.noDefinition(doc, ref, ref, "not in $defs or definitions, and no such $anchor")
	}
	u, err := s.store.ResolveRef(s.url, doc, ref)
	if err != nil {
		return "", fmt.Errorf("schema %s: %w", s.name, err)
	}
	if frag, ok := strings.CutPrefix(u, s.url+"#"); ok && strings.HasPrefix(frag, "/") {
		if _, err := jsonptr.Get(doc, frag); err != nil {
			name := jsonptr.Unescape(frag[strings.LastIndexByte(frag, '/')+1:])
			return "", s.noDefinition(doc, ref, name, "the pointer leads to nothing")
		}
	}
	return u, nil
}

// noDefinition is the error for ref, which names a definition (name) the
// schema document doc lacks: it names the nearest of those doc has, and
// lists them.
func (s *Schema) noDefinition(doc any, ref, name, why string) error {
	var names []string
	root, _ := doc.(map[string]any)
	for _, defs := range []string{"$defs", "definitions"} {
		if m, ok := root[defs].(map[string]any); ok {
			for n := range m {
				names = append(names, n)
			}
		}
	}
	return fmt.Errorf("schema %s: %q: %w (%s)%s", s.name, ref, ErrNoDefinition, why, suggest.Have(name, names, 20))
}

// Validate checks v, a decoded JSON value, against the whole schema.
func (s *Schema) Validate(v any) []diag.Diagnostic {
	return s.validateWith(s.root, v, "")
}

// ValidateRef checks v against the part of the schema ref names (see
// Resolve).
func (s *Schema) ValidateRef(ref string, v any) ([]diag.Diagnostic, error) {
	sch, err := s.definition(ref)
	if err != nil {
		return nil, err
	}
	return s.validateWith(sch, v, ""), nil
}

func (s *Schema) definition(ref string) (*jsonschema.Schema, error) {
	u, err := s.Resolve(ref)
	if err != nil {
		return nil, err
	}
	return s.compileURL(u)
}

// plan returns the plan of sch, or nil when it has none.
func (s *Schema) plan(sch *jsonschema.Schema) *node {
	if p, ok := s.plans.Load(sch); ok {
		return p.(*node)
	}
	n, err := planOf(sch)
	if err != nil {
		n = nil
	}
	s.plans.Store(sch, n)
	return n
}

// validateWith validates v and turns the error tree into problems whose
// pointers are prefixed with prefix.
func (s *Schema) validateWith(sch *jsonschema.Schema, v any, prefix string) []diag.Diagnostic {
	var unchecked []diag.Diagnostic
	if nums := bignum.Needed(sch, v, matchPattern); len(nums) > 0 {
		// jsonschema would compute with them.
		unchecked = bigNumberProblems(nums, prefix, s.store.Display)
	} else {
		perr, crashed, err := runValidate(sch, v)
		switch {
		case perr != nil:
			ptr, found := stringAt(v, perr.Subject, prefix)
			if !found {
				ptr = prefix
			}
			unchecked = []diag.Diagnostic{{Pointer: ptr, Code: codeAt(ptr), Severity: diag.Error, Schema: s.store.Display(sch.Location), Violation: kind.Unchecked,
				Message: "could not be checked: " + perr.Error() + "; simplify the pattern or shorten the value"}}
		case crashed:
			unchecked = []diag.Diagnostic{{Pointer: prefix, Code: codeAt(prefix), Severity: diag.Error, Schema: s.store.Display(sch.Location), Violation: kind.Unchecked,
				Message: "could not be checked: the schema engine failed on this value"}}
		case err == nil:
			return nil
		default:
			return s.problems(err, prefix)
		}
	}
	// jsonschema could not say. The plan, which is exact where
	// bignum.Needed errs on the side of need and reads no further than it
	// must, may know v valid without what jsonschema could not do.
	if n := s.plan(sch); n != nil {
		if text, err := json.Marshal(v); err == nil {
			var e evaluator
			if e.run(n, text) == valid {
				return nil
			}
		}
	}
	return unchecked
}

// problems turns jsonschema's error into problems whose pointers are
// prefixed with prefix.
func (s *Schema) problems(err error, prefix string) []diag.Diagnostic {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []diag.Diagnostic{{Pointer: prefix, Code: jsonrpc.CodeInvalidRequest, Severity: diag.Error, Message: err.Error(), Violation: kind.Other}}
	}
	var out []diag.Diagnostic
	for _, leaf := range relevantCauses(ve) {
		out = append(out, s.leafDiagnostic(leaf, prefix))
	}
	return out
}

var printer = message.NewPrinter(language.English)

func (s *Schema) leafDiagnostic(e *jsonschema.ValidationError, prefix string) diag.Diagnostic {
	ptr := prefix
	for _, tok := range e.InstanceLocation {
		ptr += "/" + jsonptr.Escape(tok)
	}
	loc := s.store.Display(e.SchemaURL)
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		for _, k := range kp {
			loc += "/" + jsonptr.Escape(k)
		}
	}
	return diag.Diagnostic{Pointer: ptr, Code: codeAt(ptr), Severity: diag.Error, Message: describe(e), Schema: loc, Violation: kind.Of(e.ErrorKind)}
}

// codeAt is the JSON-RPC error code of a problem at ptr: invalid params
// inside params, else invalid request.
func codeAt(ptr string) int {
	if ptr == "/params" || strings.HasPrefix(ptr, "/params/") {
		return jsonrpc.CodeInvalidParams
	}
	return jsonrpc.CodeInvalidRequest
}

// bigNumberProblems turns the numbers jsonschema must not see into
// problems, under prefix.
func bigNumberProblems(nums []bignum.Number, prefix string, display func(string) string) []diag.Diagnostic {
	out := make([]diag.Diagnostic, len(nums))
	for i, n := range nums {
		kw, loc, _ := strings.Cut(n.Need, " at ")
		ptr := prefix + n.Ptr
		out[i] = diag.Diagnostic{Pointer: ptr, Code: codeAt(ptr), Severity: diag.Error, Schema: display(loc), Violation: kind.Unchecked,
			Message: printer.Sprintf("could not be checked: %s needs the value of the number %s, which has more than %d digits or an exponent beyond ±%d, too big to compute with; write it as a string or in fewer digits",
				kw, bignum.Abbreviate(n.Text), bignum.MaxDigits, bignum.MaxExponent)}
	}
	return out
}

// runValidate runs jsonschema on v. perr is the match of a pattern that
// could not be completed (see pattern.MatchString), which stops the
// validation; crashed is true when jsonschema panicked otherwise: v6.0.3
// panics (a nil *big.Rat) on a number math/big refuses to read, which
// bignum.Needed keeps from it, and this keeps a mistake in that from
// stopping the checking of a whole log.
func runValidate(sch *jsonschema.Schema, v any) (perr *PatternError, crashed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err, crashed = nil, true
			perr, _ = r.(*PatternError)
		}
	}()
	return nil, false, sch.Validate(v)
}

// describe says what is wrong in one relevant cause, in words a user can act
// on: the alternatives of an anyOf or oneOf are listed, a false schema names
// the member it forbids.
func describe(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *jskind.AnyOf, *jskind.OneOf:
		if o, ok := k.(*jskind.OneOf); ok && len(o.Subschemas) > 1 {
			return fmt.Sprintf("matches alternatives %d and %d, but exactly one is allowed", o.Subschemas[0], o.Subschemas[1])
		}
		var alts []string
		for _, c := range e.Causes {
			for _, l := range relevantCauses(c) {
				m := describe(l)
				if !slices.Contains(alts, m) {
					alts = append(alts, m)
				}
			}
		}
		if len(alts) > 0 {
			return "matches none of the alternatives: " + strings.Join(alts, "; or ")
		}
	case *jskind.FalseSchema:
		if n := len(e.InstanceLocation); n > 0 {
			return fmt.Sprintf("member %q is not allowed here", e.InstanceLocation[n-1])
		}
		return "no value is allowed here"
	case *jskind.AdditionalProperties:
		return fmt.Sprintf("member(s) not allowed here: %s", strings.Join(quoteEach(k.Properties), ", "))
	}
	return e.ErrorKind.LocalizedString(printer)
}

func quoteEach(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// relevantCauses returns the leaf errors that explain e. Where a value fails
// every branch of an anyOf or oneOf, the branch that got furthest into the
// value (its failures lie deepest) is taken to be the one the author meant,
// and only its causes are reported.
func relevantCauses(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	switch e.ErrorKind.(type) {
	case *jskind.AnyOf, *jskind.OneOf:
		var best []*jsonschema.ValidationError
		bestDepth := -1
		for _, c := range e.Causes {
			leaves := relevantCauses(c)
			d := 0
			for _, l := range leaves {
				if len(l.InstanceLocation) > d {
					d = len(l.InstanceLocation)
				}
			}
			if d > bestDepth || (d == bestDepth && len(leaves) < len(best)) {
				best, bestDepth = leaves, d
			}
		}
		if bestDepth <= len(e.InstanceLocation) {
			// No branch got into the value: the value itself is of none of
			// the alternatives. Report the alternatives together.
			return []*jsonschema.ValidationError{e}
		}
		return best
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, relevantCauses(c)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return strings.Join(out[i].InstanceLocation, "\x00") < strings.Join(out[j].InstanceLocation, "\x00")
	})
	return out
}
