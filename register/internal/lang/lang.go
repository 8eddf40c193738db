// Package lang names the languages of a register's example snippets and
// test resources as the OGC tool chain reads them: the kind of each (JSON,
// JSON-LD, Turtle, YAML), which of them a build checks and how, the names
// of the files it writes for a snippet, and the media type a language
// stands for. The build's checks, transforms and pages all ask it, so that
// they agree.
package lang

import (
	"path"
	"strings"
)

// OfFile returns the language of a test resource by its extension.
func OfFile(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".json":
		return "json"
	case ".jsonld":
		return "jsonld"
	case ".ttl":
		return "turtle"
	case ".yaml", ".yml":
		return "yaml"
	}
	return strings.TrimPrefix(path.Ext(name), ".")
}

// The kinds of snippet language the build knows, as Kind returns them.
const (
	JSON   = "json"
	JSONLD = "jsonld"
	Turtle = "turtle"
	YAML   = "yaml"
)

// Kind maps a snippet language (a name or a media type) to one of
// the kinds above, or "" for a language the build does not check.
func Kind(l string) string {
	switch l = strings.ToLower(strings.TrimSpace(l)); l {
	case "json", "application/json":
		return JSON
	case "jsonld", "json-ld", "application/ld+json":
		return JSONLD
	case "ttl", "turtle", "text/turtle":
		return Turtle
	case "yaml", "yml", "application/yaml", "application/x-yaml", "text/yaml":
		return YAML
	}
	// Other languages are not checked, but for GeoJSON (see Checked).
	return ""
}

// IsGeoJSON reports whether a snippet's language is GeoJSON, by name or
// media type: the tool chain checks it as JSON, as its reference build of
// testdata/ogc-registers/snippet-languages shows, under its own file
// name.
func IsGeoJSON(l string) bool {
	l = strings.ToLower(strings.TrimSpace(l))
	return l == "geojson" || l == "application/geo+json"
}

// Checked returns how a resource in language l is checked: as its
// kind, GeoJSON as JSON; "" when nothing checks it.
func Checked(l string) string {
	if IsGeoJSON(l) {
		return JSON
	}
	return Kind(l)
}

// SnippetExtension returns the extension of the file of a snippet in
// language lang: that of its kind, or for a language nothing checks, the
// one the tool chain gives it: the language itself ("xml" -> ".xml"), and
// for a media type its type, then the media type with its slash as a dot
// ("application/zip" -> ".application.application.zip", as its builds
// show). Characters a file name should not hold become "_".
func SnippetExtension(lang string) string {
	if kind := Kind(lang); kind != "" {
		return Extension(kind)
	}
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+-_/.", r) {
			return r
		}
		return '_'
	}, strings.TrimSpace(lang))
	if major, _, ok := strings.Cut(clean, "/"); ok {
		return "." + major + "." + strings.ReplaceAll(clean, "/", ".")
	}
	if clean == "" {
		return ".txt"
	}
	return "." + clean
}

// SnippetStem returns the name the tool chain gives the files of a snippet
// whose own name is base (example_I_J) before their extension: base, and
// for a media type nothing else names its type after it
// ("example_8_2.application" for application/geo+json).
func SnippetStem(base, lang string) string {
	if Kind(lang) == "" {
		if major, _, ok := strings.Cut(strings.TrimSpace(lang), "/"); ok {
			return base + "." + major
		}
	}
	return base
}

// Extension returns the file extension of a language kind.
func Extension(kind string) string {
	switch kind {
	case JSON:
		return ".json"
	case JSONLD:
		return ".jsonld"
	case Turtle:
		return ".ttl"
	case YAML:
		return ".yaml"
	}
	return ".txt"
}

// MediaType returns the media type the tool chain names a snippet language
// by ("json" is application/json), or the language as written.
func MediaType(lang string) string {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "json", "application/json":
		return "application/json"
	case "ttl", "turtle", "rdf/turtle", "text/turtle":
		return "text/turtle"
	case "jsonld", "json-ld", "application/ld+json":
		return "application/ld+json"
	case "rdf", "rdf/xml", "application/rdf+xml":
		return "application/rdf+xml"
	case "xml", "application/xml", "text/xml":
		return "application/xml"
	case "yaml", "text/yaml", "application/x-yaml":
		return "application/x-yaml"
	case "geojson":
		return "application/geo+json"
	}
	return lang
}
