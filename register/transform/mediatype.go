package transform

import (
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
)

// A known media type, as the tool chain's table of media types has it: an
// id, a label, the media type, other names for it and the file name
// extensions (the first one is the default).
type knownType struct {
	id, label, mime string
	aliases         []string
	extensions      []string
}

// knownTypes is the tool chain's table of media types (bblocks-postprocess
// 6a10405, as its register.json entries show it), in its order.
var knownTypes = []knownType{
	{id: "json", label: "JSON", mime: "application/json", extensions: []string{"json"}},
	{id: "ttl", label: "RDF/Turtle", mime: "text/turtle", aliases: []string{"turtle", "rdf/turtle"}, extensions: []string{"ttl"}},
	{id: "rdf", label: "RDF/XML", mime: "application/rdf+xml", aliases: []string{"rdf/xml"}, extensions: []string{"rdf"}},
	{id: "json-ld", label: "JSON-LD", mime: "application/ld+json", aliases: []string{"jsonld"}, extensions: []string{"jsonld"}},
	{id: "xml", label: "XML", mime: "application/xml", aliases: []string{"application/xml", "text/xml"}, extensions: []string{"xml"}},
	{id: "csv", label: "CSV", mime: "text/csv", extensions: []string{"csv"}},
	{id: "geojson", label: "GeoJSON", mime: "application/geo+json", extensions: []string{"geojson"}},
}

// lookup returns the known media type named t (its id, media type or an
// alias), or nil.
func lookup(t string) *knownType {
	for i := range knownTypes {
		k := &knownTypes[i]
		if t == k.id || t == k.mime {
			return k
		}
		for _, a := range k.aliases {
			if t == a {
				return k
			}
		}
	}
	return nil
}

// NormalizeMediaType returns the media type a language or media type name
// stands for in the tool chain's table ("json" is application/json,
// "ttl" and "turtle" text/turtle, "jsonld" application/ld+json, "xml"
// application/xml), or t itself when the table does not have it. Snippet
// languages are compared with a transform's input media types this way.
func NormalizeMediaType(t string) string {
	if k := lookup(t); k != nil {
		return k.mime
	}
	return t
}

// ExtensionOf returns the default file name extension (without the dot)
// of a known media type, or "".
func ExtensionOf(mediaType string) string {
	if k := lookup(mediaType); k != nil {
		return k.extensions[0]
	}
	return ""
}

// MediaTypeOfExtension returns the media type of the tool chain's table
// whose extensions include ext (without the dot), or "".
func MediaTypeOfExtension(ext string) string {
	for _, k := range knownTypes {
		for _, e := range k.extensions {
			if e == ext {
				return k.mime
			}
		}
	}
	return ""
}

// entry returns the known media type as the tool chain writes a
// transform's default media type: the whole table entry.
func (k *knownType) entry() *ojson.Object {
	o := ojson.NewObject()
	o.Set("id", k.id)
	o.Set("defaultExtension", k.extensions[0])
	o.Set("label", k.label)
	o.Set("mimeType", k.mime)
	if len(k.aliases) > 0 {
		o.Set("aliases", stringList(k.aliases))
	}
	o.Set("extensions", stringList(k.extensions))
	return o
}

func stringList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// MediaType is one media type a transform takes or gives.
type MediaType struct {
	// MIME is the media type, normalised through the tool chain's table.
	MIME string
	// Extension is the default file name extension, without the dot; ""
	// when neither the declaration nor the table gives one.
	Extension string
	// JSON is the media type as the tool chain writes it in register.json.
	JSON *ojson.Object
}

// defaultMediaType makes a transform type's default media type: the table
// entry when the table has it.
func defaultMediaType(t string) MediaType {
	if k := lookup(t); k != nil {
		return MediaType{MIME: k.mime, Extension: k.extensions[0], JSON: k.entry()}
	}
	o := ojson.NewObject()
	o.Set("mimeType", t)
	return MediaType{MIME: t, JSON: o}
}

// declaredMediaType normalises a media type as a transform declares it: a
// name, or an object with mimeType and defaultExtension. ok is false for
// anything else.
func declaredMediaType(v any) (MediaType, bool) {
	switch x := v.(type) {
	case string:
		o := ojson.NewObject()
		k := lookup(x)
		if k == nil {
			o.Set("mimeType", x)
			return MediaType{MIME: x, JSON: o}, true
		}
		o.Set("mimeType", k.mime)
		o.Set("label", k.label)
		o.Set("defaultExtension", k.extensions[0])
		return MediaType{MIME: k.mime, Extension: k.extensions[0], JSON: o}, true
	case *ojson.Object:
		mime, ok := x.String("mimeType")
		if !ok {
			return MediaType{}, false
		}
		o := ojson.Clone(x).(*ojson.Object)
		k := lookup(mime)
		if k != nil {
			mime = k.mime
		}
		o.Set("mimeType", mime)
		if !o.Has("label") && k != nil {
			o.Set("label", k.label)
		}
		ext, _ := o.String("defaultExtension")
		return MediaType{MIME: mime, Extension: strings.TrimPrefix(ext, "."), JSON: o}, true
	}
	return MediaType{}, false
}

// rawMediaTypes keeps a declared list of media types as written, for a
// transform the tool chain skips before it normalises them.
func rawMediaTypes(v any) []MediaType {
	list, _ := v.([]any)
	out := make([]MediaType, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, MediaType{MIME: NormalizeMediaType(s), Extension: ExtensionOf(s)})
		}
	}
	return out
}
