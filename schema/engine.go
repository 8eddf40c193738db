package schema

// What jrpcld asks of jsonschema v6.0.3, and what it corrects in the
// schemas jsonschema compiles before anything validates with them.

import (
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/schema/format"
)

// newEngine returns a jsonschema compiler with jrpcld's settings:
// ECMA-262 patterns (see compilePattern), the formats of ajv-formats (see
// package format), asserted in every draft with formats.
func newEngine(formats bool) *jsonschema.Compiler {
	jc := jsonschema.NewCompiler()
	jc.UseRegexpEngine(compilePattern)
	for _, name := range format.Names() {
		check, _ := format.Lookup(name)
		jc.RegisterFormat(&jsonschema.Format{Name: name, Validate: check})
	}
	if formats {
		jc.AssertFormat()
	}
	return jc
}

// settle corrects what jsonschema compiled, sch and every schema it
// reaches, where jsonschema departs from the drafts. seen holds the schemas
// settled already, which may be in use on other goroutines: they are
// neither walked nor written again, and what sch reaches beyond them was
// settled with them.
func settle(sch *jsonschema.Schema, seen map[*jsonschema.Schema]bool) {
	stack := []*jsonschema.Schema{sch}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		if s.Ref != nil && s.DraftVersion < 2019 {
			// Before 2019-09, the other members of a schema with "$ref"
			// are ignored. jsonschema compiles const and the keywords
			// of drafts 6 and 7 (contains, propertyNames, if, then,
			// else) beside it anyway, and checks const before it goes to
			// the $ref.
			ignoreBesideRef(s)
		}
		if s.Format != nil {
			s.Format = assertedFormat(s.Format.Name)
		}
		stack = append(stack, subschemas(s)...)
	}
}

// assertedFormat returns the format name as jrpcld asserts it: as
// ajv-formats defines it, or not at all (nil) when ajv-formats does not
// (jsonschema also knows period, iri, iri-reference and semver). "regex"
// is renamed: jsonschema checks a format of that name with its
// RegexpEngine, which compiles as "pattern" does (with ECMA-262's "u"
// flag), where ajv-formats compiles without flags.
func assertedFormat(name string) *jsonschema.Format {
	check, ok := format.Lookup(name)
	switch {
	case !ok:
		return nil
	case name == "regex":
		name = "regex (ECMA-262)"
	}
	return &jsonschema.Format{Name: name, Validate: check}
}

// ignoreBesideRef clears every keyword of s but "$ref".
func ignoreBesideRef(s *jsonschema.Schema) {
	s.Types, s.Enum, s.Const, s.Format = nil, nil, nil, nil
	s.Not, s.AllOf, s.AnyOf, s.OneOf, s.If, s.Then, s.Else = nil, nil, nil, nil, nil, nil, nil
	s.MaxProperties, s.MinProperties, s.Required, s.PropertyNames = nil, nil, nil, nil
	s.Properties, s.PatternProperties, s.AdditionalProperties = nil, nil, nil
	s.Dependencies, s.DependentRequired, s.DependentSchemas, s.UnevaluatedProperties = nil, nil, nil, nil
	s.MinItems, s.MaxItems, s.UniqueItems, s.Contains, s.MinContains, s.MaxContains = nil, nil, false, nil, nil, nil
	s.Items, s.AdditionalItems, s.PrefixItems, s.Items2020, s.UnevaluatedItems = nil, nil, nil, nil, nil
	s.MinLength, s.MaxLength, s.Pattern = nil, nil, nil
	s.ContentEncoding, s.ContentMediaType, s.ContentSchema = nil, nil, nil
	s.Maximum, s.Minimum, s.ExclusiveMaximum, s.ExclusiveMinimum, s.MultipleOf = nil, nil, nil, nil, nil
}

// subschemas returns the schemas s applies, itself or to parts of the
// value (nil entries included).
func subschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.PropertyNames,
		s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema}
	if s.DynamicRef != nil {
		out = append(out, s.DynamicRef.Ref)
	}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	for _, p := range s.Properties {
		out = append(out, p)
	}
	for _, p := range s.PatternProperties {
		out = append(out, p)
	}
	for _, p := range s.DependentSchemas {
		out = append(out, p)
	}
	for _, d := range s.Dependencies {
		if p, ok := d.(*jsonschema.Schema); ok {
			out = append(out, p)
		}
	}
	for _, a := range []any{s.AdditionalProperties, s.AdditionalItems, s.Items} {
		switch x := a.(type) {
		case *jsonschema.Schema:
			out = append(out, x)
		case []*jsonschema.Schema:
			out = append(out, x...)
		}
	}
	return out
}
