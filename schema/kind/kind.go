// Package kind names the kinds of violation package schema reports, so that
// a caller can branch on what is wrong with a message without reading the
// words of its diagnostic, as jsonschema v6's kind package lets its callers
// do. Package schema sets the kind in diag.Diagnostic.Violation where it
// makes the diagnostic; the message itself says the same in words.
//
// Most kinds are the JSON Schema keyword the value fails (Type, Required,
// Minimum, ...), by the keyword's name. Three are jrpcld's own:
// MethodUnknown, a method the schema does not define (a warning); Unchecked,
// a value that could not be checked (a pattern's match did not complete,
// a number too big to compute with, the engine failed); and Other, a
// failure the engine reported without a kind jrpcld knows.
package kind

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
	jskind "github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/jrpcld/jrpcld/diag"
)

// Kind is the type of the kinds: diag.Kind, of which this package defines
// the values package schema reports.
type Kind = diag.Kind

// The kinds of a value that fails a keyword: the keyword's name.
const (
	Type                 Kind = "type"
	Enum                 Kind = "enum"
	Const                Kind = "const"
	Format               Kind = "format"
	Required             Kind = "required"
	DependentRequired    Kind = "dependentRequired"
	Dependencies         Kind = "dependencies"
	AdditionalProperties Kind = "additionalProperties"
	PropertyNames        Kind = "propertyNames"
	MinProperties        Kind = "minProperties"
	MaxProperties        Kind = "maxProperties"
	MinItems             Kind = "minItems"
	MaxItems             Kind = "maxItems"
	AdditionalItems      Kind = "additionalItems"
	UniqueItems          Kind = "uniqueItems"
	Contains             Kind = "contains"
	MinContains          Kind = "minContains"
	MaxContains          Kind = "maxContains"
	MinLength            Kind = "minLength"
	MaxLength            Kind = "maxLength"
	Pattern              Kind = "pattern"
	ContentEncoding      Kind = "contentEncoding"
	ContentMediaType     Kind = "contentMediaType"
	ContentSchema        Kind = "contentSchema"
	Minimum              Kind = "minimum"
	Maximum              Kind = "maximum"
	ExclusiveMinimum     Kind = "exclusiveMinimum"
	ExclusiveMaximum     Kind = "exclusiveMaximum"
	MultipleOf           Kind = "multipleOf"
	Not                  Kind = "not"
	AllOf                Kind = "allOf"
	// AnyOf and OneOf: the value matches none of the alternatives (or, for
	// OneOf, more than one).
	AnyOf Kind = "anyOf"
	OneOf Kind = "oneOf"
	// FalseSchema: the schema at that place is false, so no value is
	// allowed there (a member not allowed, typically).
	FalseSchema Kind = "false"
)

// jrpcld's own kinds.
const (
	// MethodUnknown: the schema defines no message for the method of a
	// request or notification, which is then checked as a generic one.
	MethodUnknown Kind = "methodUnknown"
	// Unchecked: the value could not be checked: a pattern's match did not
	// complete, a number is too big to compute with where a keyword needs
	// its value, or the engine failed on it.
	Unchecked Kind = "unchecked"
	// Other: the engine reported a failure of a kind jrpcld does not know.
	Other Kind = "other"
)

// Of returns the kind of a failure jsonschema reports with k, or Other.
func Of(k jsonschema.ErrorKind) Kind {
	switch k.(type) {
	case *jskind.Type:
		return Type
	case *jskind.Enum:
		return Enum
	case *jskind.Const:
		return Const
	case *jskind.Format:
		return Format
	case *jskind.Required:
		return Required
	case *jskind.DependentRequired:
		return DependentRequired
	case *jskind.Dependency:
		return Dependencies
	case *jskind.AdditionalProperties:
		return AdditionalProperties
	case *jskind.PropertyNames:
		return PropertyNames
	case *jskind.MinProperties:
		return MinProperties
	case *jskind.MaxProperties:
		return MaxProperties
	case *jskind.MinItems:
		return MinItems
	case *jskind.MaxItems:
		return MaxItems
	case *jskind.AdditionalItems:
		return AdditionalItems
	case *jskind.UniqueItems:
		return UniqueItems
	case *jskind.Contains:
		return Contains
	case *jskind.MinContains:
		return MinContains
	case *jskind.MaxContains:
		return MaxContains
	case *jskind.MinLength:
		return MinLength
	case *jskind.MaxLength:
		return MaxLength
	case *jskind.Pattern:
		return Pattern
	case *jskind.ContentEncoding:
		return ContentEncoding
	case *jskind.ContentMediaType:
		return ContentMediaType
	case *jskind.ContentSchema:
		return ContentSchema
	case *jskind.Minimum:
		return Minimum
	case *jskind.Maximum:
		return Maximum
	case *jskind.ExclusiveMinimum:
		return ExclusiveMinimum
	case *jskind.ExclusiveMaximum:
		return ExclusiveMaximum
	case *jskind.MultipleOf:
		return MultipleOf
	case *jskind.Not:
		return Not
	case *jskind.AllOf:
		return AllOf
	case *jskind.AnyOf:
		return AnyOf
	case *jskind.OneOf:
		return OneOf
	case *jskind.FalseSchema:
		return FalseSchema
	}
	return Other
}
