package schema

// Plans: a compiled schema (jsonschema v6's *jsonschema.Schema) turned
// into a tree of checks that run on a message's JSON text, in place,
// without decoding it and without building the error tree jsonschema
// builds. A plan only tells whether a value is valid; when it is not, or
// when the plan cannot tell, the message goes to jsonschema, which says
// why in the same words as always. So a plan must never call valid what
// jsonschema rejects: it follows jsonschema's validator keyword by keyword
// (FuzzPlan and TestPlanCorpus hold it to jsonschema's verdicts), and a
// schema with a keyword it does not implement gets no plan at all.

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/schema/internal/bignum"
)

// JSON types as a plan tests them.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

// node is the plan of one schema.
type node struct {
	draft int
	// always is set for a boolean schema, and for a schema without any
	// assertion: valid says which.
	always, valid bool

	ref     *node
	refOnly bool // before 2019-09, $ref hides its siblings

	types  uint8
	konst  *constant  // const
	enum   []constant // enum, or nil
	format *jsonschema.Format

	not                 *node
	allOf, anyOf, oneOf []*node
	ifN, thenN, elseN   *node

	// noObject and noArray say that no keyword of objects, or of arrays,
	// looks inside the value: its end is all a plan needs of it.
	noObject, noArray bool
	// typeOnly says that types is all n asserts.
	typeOnly bool

	// objects
	minProps, maxProps int // -1: none
	required           []string
	props              map[string]*node
	// names is props with, for each name, the required names it is:
	// what object looks up for each member, on its name as written.
	names       propNames
	patterns    []patternProp
	addl        *node // additionalProperties as a schema (false is a node that always fails)
	depRequired map[string][]string
	depSchemas  map[string]*node

	// arrays
	minItems, maxItems int     // -1: none
	prefix             []*node // prefixItems, or before 2020-12 an items array
	items              *node   // for every element past prefix
	addlItems          *node   // before 2020-12, for the elements items does not cover
	contains           *node
	minContains        int // -1: none
	maxContains        int

	// strings
	minLen, maxLen int // -1: none
	pattern        jsonschema.Regexp

	// numbers
	min, max, exMin, exMax, multipleOf *big.Rat
}

// propNames finds the schema of an object's member, and which of the
// required names it is, by its name as the text writes it, between the
// quotes: most names hold no escape and are looked up as they are.
type propNames struct {
	list []propName // the names, sorted
	// slots is a hash table of list, in the node itself, when list holds
	// no more than maxPropSlots/2 names: a name's slot is where propHash
	// places it, or the next free one after; each holds an index of list
	// plus one, 0 when free.
	slots [maxPropSlots]uint8
	// byName holds the names when there are more.
	byName map[string]*propName
	// raw is set when a name without escapes is one of the properties
	// exactly when it is written as one: no property name holds a
	// backslash, which would be written escaped.
	raw bool
	// other is set when some required name is no property: each member's
	// name is then compared with the required names.
	other bool
}

// maxPropSlots is the size of propNames' hash table.
const (
	propSlotBits = 5
	maxPropSlots = 1 << propSlotBits
)

// propName is one property of an object schema.
type propName struct {
	name string
	n    *node  // its schema
	req  uint64 // the places of required where it is named (the first 64)
}

func newPropNames(props map[string]*node, required []string) propNames {
	pn := propNames{raw: true}
	for k, sub := range props {
		p := propName{name: k, n: sub}
		for i, r := range required {
			if r == k && i < 64 {
				p.req |= 1 << i
			}
		}
		if strings.IndexByte(k, '\\') >= 0 {
			pn.raw = false
		}
		pn.list = append(pn.list, p)
	}
	sort.Slice(pn.list, func(i, j int) bool { return pn.list[i].name < pn.list[j].name })
	for _, r := range required {
		if _, ok := props[r]; !ok {
			pn.other = true
		}
	}
	if len(pn.list) > maxPropSlots/2 {
		pn.byName = make(map[string]*propName, len(pn.list))
		for i := range pn.list {
			pn.byName[pn.list[i].name] = &pn.list[i]
		}
		return pn
	}
	for i := range pn.list {
		h := propHash([]byte(pn.list[i].name))
		for pn.slots[h] != 0 {
			h = (h + 1) % maxPropSlots
		}
		pn.slots[h] = uint8(i + 1)
	}
	return pn
}

// propHash hashes a property name, by its length and three of its bytes
// (which tell the names of a schema apart), to a slot of propNames.
func propHash(name []byte) uint32 {
	n := len(name)
	if n == 0 {
		return 0
	}
	h := uint32(n) | uint32(name[0])<<8 | uint32(name[n-1])<<16 | uint32(name[n/2])<<24
	return h * 0x9E3779B1 >> (32 - propSlotBits) // the best bits: the top ones
}

// find returns the property named name (unescaped), or nil.
func (pn *propNames) find(name []byte) *propName {
	if pn.byName != nil {
		return pn.byName[string(name)]
	}
	for h := propHash(name); ; h = (h + 1) % maxPropSlots {
		k := pn.slots[h]
		if k == 0 {
			return nil
		}
		if p := &pn.list[k-1]; p.name == string(name) {
			return p
		}
	}
}

type patternProp struct {
	re jsonschema.Regexp
	n  *node
}

// constant is a value of const or enum, ready to be compared with text.
type constant struct {
	v    any      // as jsonschema decoded it
	kind uint8    // tNull, tBoolean, tNumber, tString, tArray or tObject
	s    string   // a string's value
	b    bool     // a boolean's
	num  *big.Rat // a number's
}

// planner compiles plans, sharing the nodes of schemas reached twice (and
// so the plans of recursive schemas).
type planner struct {
	nodes map[*jsonschema.Schema]*node
}

// planOf compiles the plan of sch, or returns errUnplanned.
func planOf(sch *jsonschema.Schema) (*node, error) {
	p := &planner{nodes: map[*jsonschema.Schema]*node{}}
	return p.node(sch)
}

func (p *planner) node(sch *jsonschema.Schema) (*node, error) {
	if n, ok := p.nodes[sch]; ok {
		return n, nil
	}
	n := &node{draft: sch.DraftVersion, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1,
		minContains: -1, maxContains: -1, minLen: -1, maxLen: -1}
	p.nodes[sch] = n
	if err := p.fill(n, sch); err != nil {
		return nil, fmt.Errorf("%s: %w", sch.Location, err)
	}
	return n, nil
}

func (p *planner) nodes2(list []*jsonschema.Schema) ([]*node, error) {
	out := make([]*node, len(list))
	for i, s := range list {
		n, err := p.node(s)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// opt compiles sch when it is not nil.
func (p *planner) opt(sch *jsonschema.Schema) (*node, error) {
	if sch == nil {
		return nil, nil
	}
	return p.node(sch)
}

func (p *planner) fill(n *node, s *jsonschema.Schema) error {
	if s.Bool != nil {
		n.always, n.valid = true, *s.Bool
		return nil
	}
	if s.Ref != nil && s.DraftVersion < 2019 {
		// Before 2019-09, $ref hides the other members of its schema.
		var err error
		n.refOnly, n.noObject, n.noArray = true, true, true
		n.ref, err = p.node(s.Ref)
		return err
	}
	switch {
	case s.RecursiveRef != nil, s.DynamicRef != nil, s.PropertyNames != nil,
		s.UnevaluatedProperties != nil, s.UnevaluatedItems != nil,
		s.ContentEncoding != nil, s.ContentMediaType != nil, s.ContentSchema != nil,
		len(s.Extensions) > 0, s.UniqueItems:
		return errUnplanned
	}
	var err error
	if n.ref, err = p.opt(s.Ref); err != nil {
		return err
	}
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			n.types |= map[string]uint8{"null": tNull, "boolean": tBoolean, "number": tNumber,
				"integer": tInteger, "string": tString, "array": tArray, "object": tObject}[t]
		}
	}
	if s.Const != nil {
		c, err := newConstant(*s.Const)
		if err != nil {
			return err
		}
		n.konst = &c
	}
	if s.Enum != nil {
		n.enum = []constant{}
		for _, v := range s.Enum.Values {
			c, err := newConstant(v)
			if err != nil {
				return err
			}
			n.enum = append(n.enum, c)
		}
	}
	n.format = s.Format
	if n.not, err = p.opt(s.Not); err != nil {
		return err
	}
	if n.allOf, err = p.nodes2(s.AllOf); err != nil {
		return err
	}
	if n.anyOf, err = p.nodes2(s.AnyOf); err != nil {
		return err
	}
	if n.oneOf, err = p.nodes2(s.OneOf); err != nil {
		return err
	}
	if n.ifN, err = p.opt(s.If); err != nil {
		return err
	}
	if n.thenN, err = p.opt(s.Then); err != nil {
		return err
	}
	if n.elseN, err = p.opt(s.Else); err != nil {
		return err
	}

	// objects
	if s.MinProperties != nil {
		n.minProps = *s.MinProperties
	}
	if s.MaxProperties != nil {
		n.maxProps = *s.MaxProperties
	}
	n.required = s.Required
	if len(s.Properties) > 0 {
		n.props = make(map[string]*node, len(s.Properties))
		for k, sub := range s.Properties {
			if n.props[k], err = p.node(sub); err != nil {
				return err
			}
		}
	}
	if len(s.PatternProperties) > 0 {
		for re, sub := range s.PatternProperties {
			pn, err := p.node(sub)
			if err != nil {
				return err
			}
			n.patterns = append(n.patterns, patternProp{re, pn})
		}
		sort.Slice(n.patterns, func(i, j int) bool { return n.patterns[i].re.String() < n.patterns[j].re.String() })
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		n.addl = &node{always: true, valid: a}
	case *jsonschema.Schema:
		if n.addl, err = p.node(a); err != nil {
			return err
		}
	default:
		return errUnplanned
	}
	for k, dep := range s.Dependencies {
		switch d := dep.(type) {
		case []string:
			if n.depRequired == nil {
				n.depRequired = map[string][]string{}
			}
			n.depRequired[k] = append(n.depRequired[k], d...)
		case *jsonschema.Schema:
			if n.depSchemas == nil {
				n.depSchemas = map[string]*node{}
			}
			if n.depSchemas[k] != nil {
				return errUnplanned
			}
			if n.depSchemas[k], err = p.node(d); err != nil {
				return err
			}
		default:
			return errUnplanned
		}
	}
	for k, req := range s.DependentRequired {
		if n.depRequired == nil {
			n.depRequired = map[string][]string{}
		}
		n.depRequired[k] = append(n.depRequired[k], req...)
	}
	for k, sub := range s.DependentSchemas {
		if n.depSchemas == nil {
			n.depSchemas = map[string]*node{}
		}
		if n.depSchemas[k] != nil {
			return errUnplanned
		}
		if n.depSchemas[k], err = p.node(sub); err != nil {
			return err
		}
	}

	// arrays
	if s.MinItems != nil {
		n.minItems = *s.MinItems
	}
	if s.MaxItems != nil {
		n.maxItems = *s.MaxItems
	}
	if s.DraftVersion < 2020 {
		switch it := s.Items.(type) {
		case nil:
		case *jsonschema.Schema:
			if n.items, err = p.node(it); err != nil {
				return err
			}
		case []*jsonschema.Schema:
			if n.prefix, err = p.nodes2(it); err != nil {
				return err
			}
		default:
			return errUnplanned
		}
		switch a := s.AdditionalItems.(type) {
		case nil:
		case bool:
			n.addlItems = &node{always: true, valid: a}
		case *jsonschema.Schema:
			if n.addlItems, err = p.node(a); err != nil {
				return err
			}
		default:
			return errUnplanned
		}
	} else {
		if n.prefix, err = p.nodes2(s.PrefixItems); err != nil {
			return err
		}
		if n.items, err = p.opt(s.Items2020); err != nil {
			return err
		}
	}
	if n.contains, err = p.opt(s.Contains); err != nil {
		return err
	}
	if s.MinContains != nil {
		n.minContains = *s.MinContains
	}
	if s.MaxContains != nil {
		n.maxContains = *s.MaxContains
	}

	// strings
	if s.MinLength != nil {
		n.minLen = *s.MinLength
	}
	if s.MaxLength != nil {
		n.maxLen = *s.MaxLength
	}
	n.pattern = s.Pattern

	// numbers
	n.min, n.max, n.exMin, n.exMax, n.multipleOf = s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum, s.MultipleOf
	for _, r := range []*big.Rat{n.min, n.max, n.exMin, n.exMax, n.multipleOf} {
		if bignum.RatTooBig(r) {
			return errUnplanned
		}
	}
	if !n.asserts() {
		n.always, n.valid = true, true
	}
	n.names = newPropNames(n.props, n.required)
	n.noObject = n.minProps < 0 && n.maxProps < 0 && len(n.required) == 0 && len(n.props) == 0 && len(n.patterns) == 0 &&
		n.addl == nil && len(n.depRequired) == 0 && len(n.depSchemas) == 0
	n.noArray = n.minItems < 0 && n.maxItems < 0 && len(n.prefix) == 0 && n.items == nil && n.addlItems == nil && n.contains == nil
	types := n.types
	n.types = 0
	n.typeOnly = types != 0 && !n.asserts()
	n.types = types
	return nil
}

// asserts reports whether n asserts anything (a schema of annotations only,
// such as {} or {"description": ...}, accepts every value).
func (n *node) asserts() bool {
	return n.ref != nil || n.types != 0 || n.konst != nil || n.enum != nil || n.format != nil ||
		n.not != nil || len(n.allOf)+len(n.anyOf)+len(n.oneOf) > 0 || n.ifN != nil ||
		n.minProps >= 0 || n.maxProps >= 0 || len(n.required) > 0 || len(n.props) > 0 || len(n.patterns) > 0 ||
		n.addl != nil || len(n.depRequired) > 0 || len(n.depSchemas) > 0 ||
		n.minItems >= 0 || n.maxItems >= 0 || len(n.prefix) > 0 || n.items != nil || n.addlItems != nil || n.contains != nil ||
		n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil ||
		n.min != nil || n.max != nil || n.exMin != nil || n.exMax != nil || n.multipleOf != nil
}

// newConstant prepares v, a value of const or enum as jsonschema decoded
// it, for comparison with text.
func newConstant(v any) (constant, error) {
	c := constant{v: v}
	switch x := v.(type) {
	case nil:
		c.kind = tNull
	case bool:
		c.kind, c.b = tBoolean, x
	case string:
		c.kind, c.s = tString, x
	case map[string]any:
		c.kind = tObject
	case []any:
		c.kind = tArray
	default:
		r, ok := ratOf(v)
		if !ok {
			return c, errUnplanned
		}
		c.kind, c.num = tNumber, r
	}
	return c, nil
}
