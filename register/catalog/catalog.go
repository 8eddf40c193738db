// Package catalog writes a register's own linked data, as the OGC
// building-block tool chain publishes it beside register.json:
// bblocks.jsonld, register.json reshaped as a SKOS concept scheme and DCAT
// catalog of its blocks with a JSON-LD context, and bblocks.ttl, its graph
// in Turtle with the provenance of the run.
//
// The reshaping follows the tool chain's (bblocks-postprocess uplifts
// register.json with ogc-na-tools): each block gets the bblocks:// URI of
// its identifier and the types of its item class, its files become
// resources (prof:hasResource) with a role, a format and the standard they
// conform to, and the register lists the blocks as its concepts. The
// context, which the tool chain reads from its own files and, for links,
// from the web, ships in the binary (context.jsonld): nothing is fetched.
package catalog

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/jsonld"
)

// contextJSON is the context bblocks.jsonld carries: register.json's
// members mapped to properties as the tool chain maps them.
//
//go:embed context.jsonld
var contextJSON []byte

// DefaultBase is the base IRI of a register built without a base URL, as
// the tool chain takes it: relative references of register.json resolve
// against it.
const DefaultBase = "https://www.opengis.net/def/bblocks/"

// Names of the files, below the output folder, as register.json's links
// name them.
const (
	JSONLDFile = "bblocks.jsonld"
	TurtleFile = "bblocks.ttl"
)

// Vocabulary used to reshape the register.
const (
	blockScheme  = "bblocks://"
	jsonSchema   = "https://json-schema.org/draft/2020-12/schema"
	jsonLD11     = "https://www.w3.org/TR/json-ld11/"
	openAPI31    = "https://spec.openapis.org/oas/v3.1.0.html"
	owlOntology  = "http://www.w3.org/2002/07/owl#Ontology"
	provNS       = "http://www.w3.org/ns/prov#"
	dctNS        = "http://purl.org/dc/terms/"
	rdfsNS       = "http://www.w3.org/2000/01/rdf-schema#"
	schemaOrgNS  = "https://schema.org/"
	jrpcldSource = "https://github.com/jrpcld/jrpcld"
)

// Context returns the JSON-LD context bblocks.jsonld carries, as a
// document {"@context": {...}}.
func Context() []byte { return bytes.Clone(contextJSON) }

// Options say where the register is published.
type Options struct {
	// Base is the base IRI relative references resolve against: the
	// register's base URL (the OGC GitHub Action gives it without its final
	// slash), DefaultBase when empty.
	Base string
	// RegisterURL and TurtleURL are the URLs of register.json and
	// bblocks.ttl, which the provenance of bblocks.ttl names; relative ones
	// are resolved against Base.
	RegisterURL, TurtleURL string
}

// Files are the register's linked data.
type Files struct {
	JSONLD []byte // bblocks.jsonld
	Turtle []byte // bblocks.ttl
}

// Write turns register.json (the document as a build wrote it) into
// bblocks.jsonld and bblocks.ttl.
func Write(register []byte, opts Options) (*Files, error) {
	v, err := ojson.DecodeJSON(register)
	if err != nil {
		return nil, fmt.Errorf("register.json: %w", err)
	}
	reg, ok := v.(*ojson.Object)
	if !ok {
		return nil, errors.New("register.json: not a JSON object")
	}
	base := opts.Base
	if base == "" {
		base = DefaultBase
	}
	doc, err := reshape(reg, base)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := ojson.Encode(&buf, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", JSONLDFile, err)
	}
	ld, err := indent(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", JSONLDFile, err)
	}
	quads, err := jsonld.Read(ld)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", JSONLDFile, err)
	}
	triples := make([]rdf.Triple, 0, len(quads)+16)
	for _, q := range quads {
		triples = append(triples, q.Triple)
	}
	triples = append(triples, provenance(reg, base, opts)...)
	var ttl bytes.Buffer
	w := rdf.NewTurtleWriter(&ttl, prefixes())
	if err := w.WriteGroup(triples); err != nil {
		return nil, fmt.Errorf("%s: %w", TurtleFile, err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("%s: %w", TurtleFile, err)
	}
	return &Files{JSONLD: ld, Turtle: ttl.Bytes()}, nil
}

// indent indents a JSON document by two spaces, with a final newline.
func indent(data []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(data), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// reshape returns register.json (reg, which it changes) as the JSON-LD
// document bblocks.jsonld holds, with base as its base IRI: the register
// typed as a concept scheme and catalog named "Building Blocks - NAME",
// its blocks under hasConcepts, each with its bblocks:// URI, its types,
// and its files described as resources.
func reshape(reg *ojson.Object, base string) (*ojson.Object, error) {
	scheme, _ := reg.String("baseURL")
	blocks, _ := reg.Value("bblocks").([]any)
	top := make([]any, 0, len(blocks))
	for i, v := range blocks {
		b, ok := v.(*ojson.Object)
		if !ok {
			return nil, fmt.Errorf("register.json: /bblocks/%d: not a JSON object", i)
		}
		reshapeBlock(b, scheme)
		id, _ := b.String("itemIdentifier")
		top = append(top, node(blockScheme+id))
	}
	name, _ := reg.String("name")
	reg.Set("@type", []any{"skos:ConceptScheme", "dcat:Catalog", "bblocks:BBlocksRegister"})
	reg.Set("name", "Building Blocks - "+name)
	reg.Set("skos:prefLabel", "Building Blocks - "+name)
	reg.Set("hasConcepts", blocksOrEmpty(blocks))
	reg.Set("skos:hasTopConcept", top)
	reg.Delete("bblocks")

	ctx, err := ojson.DecodeJSON(contextJSON)
	if err != nil {
		return nil, fmt.Errorf("catalog context: %w", err)
	}
	baseCtx := ojson.NewObject()
	baseCtx.Set("@base", base)
	doc := ojson.NewObject()
	doc.Set("@context", []any{baseCtx, ctx.(*ojson.Object).Value("@context")})
	for _, k := range reg.Keys() {
		doc.Set(k, reg.Value(k))
	}
	return doc, nil
}

func blocksOrEmpty(blocks []any) []any {
	if blocks == nil {
		return []any{}
	}
	return blocks
}

// reshapeBlock gives block b its URI, types and label, and describes its
// files as resources with their role, format and standard; the members it
// sets and finds empty become null, as the tool chain writes them. scheme
// is the register's URI ("" for none).
func reshapeBlock(b *ojson.Object, scheme string) {
	id, _ := b.String("itemIdentifier")
	b.Set("@id", blockScheme+id)
	types := []any{}
	if class, _ := b.String("itemClass"); class != "" {
		types = append(types, "bblocks:"+strings.ToUpper(class[:1])+class[1:])
	}
	b.Set("@type", append(types, "skos:Concept", "dcat:Dataset", "bblocks:BBlock"))
	b.Set("skos:prefLabel", b.Value("name"))

	if u := b.Value("ldContext"); ojson.Truthy(u) {
		b.Set("ldContext", resource(u, "role:mapping", "application/ld+json", jsonLD11))
	} else {
		b.Set("ldContext", nil)
	}
	if shapes, ok := b.Value("shaclShapes").(*ojson.Object); ok && shapes.Len() > 0 {
		list := make([]any, 0, shapes.Len())
		for _, owner := range shapes.Keys() {
			r := ojson.NewObject()
			r.Set("prof:hasArtifact", shapes.Value(owner))
			r.Set("rdfs:seeAlso", blockScheme+owner)
			r.Set("prof:hasRole", "role:validation")
			r.Set("dct:format", "text/turtle")
			r.Set("dct:conformsTo", "shacl:")
			list = append(list, r)
		}
		b.Set("shaclShapes", list)
	} else {
		b.Set("shaclShapes", nil)
	}
	if schema, ok := b.Value("schema").(*ojson.Object); ok && schema.Len() > 0 {
		list := make([]any, 0, schema.Len())
		for _, mediaType := range schema.Keys() {
			list = append(list, resource(schema.Value(mediaType), "role:schema", mediaType, jsonSchema))
		}
		b.Set("schema", list)
	} else {
		b.Set("schema", nil)
	}
	for _, f := range []struct{ key, role, format, standard string }{
		{"openAPIDocument", "role:schema", "application/yaml", openAPI31},
		{"ontology", "role:specification", "text/turtle", owlOntology},
	} {
		if u := b.Value(f.key); ojson.Truthy(u) {
			b.Set(f.key, resource(u, f.role, f.format, f.standard))
		} else {
			b.Set(f.key, nil)
		}
	}
	data := []any{}
	if list, ok := b.Value("rdfData").([]any); ok {
		for _, u := range list {
			r := ojson.NewObject()
			r.Set("prof:hasArtifact", u)
			r.Set("prof:hasRole", "role:data")
			r.Set("dct:format", "text/turtle")
			data = append(data, r)
		}
	}
	b.Set("rdfData", data)
	for _, key := range []string{"dependsOn", "isProfileOf"} {
		b.Set(key, blockRefs(b.Value(key)))
	}
	if scheme != "" {
		b.Set("skos:topConceptOf", node(scheme))
	}
}

// resource describes the file at URL u as a resource of a block: its role,
// media type and the standard it conforms to.
func resource(u any, role, format, standard string) *ojson.Object {
	r := ojson.NewObject()
	r.Set("prof:hasArtifact", u)
	r.Set("prof:hasRole", role)
	r.Set("dct:format", format)
	r.Set("dct:conformsTo", standard)
	return r
}

// blockRefs returns the block identifiers of v (one, or a list) as
// bblocks:// URIs; nil when there are none.
func blockRefs(v any) any {
	ref := func(s any) any {
		if id, ok := s.(string); ok && !strings.HasPrefix(id, blockScheme) {
			return blockScheme + id
		}
		return s
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = ref(s)
		}
		return out
	case string:
		if x == "" {
			return nil
		}
		return ref(x)
	}
	return nil
}

// node returns the JSON-LD node reference {"@id": iri}.
func node(iri string) *ojson.Object {
	o := ojson.NewObject()
	o.Set("@id", iri)
	return o
}

// prefixes are the prefixes bblocks.ttl declares: the context's, and those
// of the provenance and of links.
func prefixes() []rdf.Prefix {
	return []rdf.Prefix{
		{Name: "bblocks", IRI: "https://www.opengis.net/def/bblocks/"},
		{Name: "dcat", IRI: "http://www.w3.org/ns/dcat#"},
		{Name: "dct", IRI: dctNS},
		{Name: "foaf", IRI: "http://xmlns.com/foaf/0.1/"},
		{Name: "oa", IRI: "http://www.w3.org/ns/oa#"},
		{Name: "owl", IRI: "http://www.w3.org/2002/07/owl#"},
		{Name: "prof", IRI: "http://www.w3.org/ns/dx/prof/"},
		{Name: "prov", IRI: provNS},
		{Name: "rdfs", IRI: rdfsNS},
		{Name: "role", IRI: "http://www.w3.org/ns/dx/prof/role/"},
		{Name: "schema", IRI: schemaOrgNS},
		{Name: "shacl", IRI: "https://www.w3.org/TR/shacl/"},
		{Name: "skos", IRI: "http://www.w3.org/2004/02/skos/core#"},
		{Name: "xsd", IRI: rdf.XSDNS},
	}
}

// provenance returns the statements bblocks.ttl adds about itself, as the
// tool chain's uplift does: the file is a prov:Entity generated from
// register.json by an activity of jrpcld (named with the version
// register.json's tooling gives). The times of the run are left out, so
// that the same sources build the same file.
func provenance(reg *ojson.Object, base string, opts Options) []rdf.Triple {
	if opts.TurtleURL == "" {
		return nil
	}
	agent := rdf.NewBlank("jrpcld")
	activity := rdf.NewBlank("uplift")
	used := rdf.NewBlank("register")
	self := rdf.NewIRI(rdf.ResolveIRI(base, opts.TurtleURL))
	iri := func(s string) rdf.Term { return rdf.NewIRI(s) }
	lit := func(s string) rdf.Term { return rdf.NewLiteral(s, rdf.XSDString) }
	out := []rdf.Triple{
		rdf.T(self, rdf.RDFType, iri(provNS+"Entity")),
		rdf.T(self, dctNS+"format", lit("text/turtle")),
		rdf.T(self, provNS+"wasAttributedTo", agent),
		rdf.T(self, provNS+"wasGeneratedBy", activity),
		rdf.T(activity, rdf.RDFType, iri(provNS+"Activity")),
		rdf.T(activity, provNS+"wasAssociatedWith", agent),
		rdf.T(agent, rdf.RDFType, iri(provNS+"Agent")),
		rdf.T(agent, rdf.RDFType, iri(schemaOrgNS+"SoftwareApplication")),
		rdf.T(agent, rdfsNS+"label", lit("jrpcld")),
		rdf.T(agent, rdfsNS+"seeAlso", iri(jrpcldSource)),
	}
	if tool, ok := reg.Value("tooling").(*ojson.Object); ok {
		if j, ok := tool.Value("jrpcld").(*ojson.Object); ok {
			if v, ok := j.String("version"); ok {
				out = append(out, rdf.T(agent, dctNS+"hasVersion", lit(v)))
			}
		}
	}
	if opts.RegisterURL != "" {
		out = append(out,
			rdf.T(activity, provNS+"used", used),
			rdf.T(used, rdf.RDFType, iri(provNS+"Entity")),
			rdf.T(used, dctNS+"format", lit("application/json")),
			rdf.T(used, rdfsNS+"seeAlso", iri(rdf.ResolveIRI(base, opts.RegisterURL))))
	}
	return out
}
