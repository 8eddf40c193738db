package bblock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
)

// Metadata is the content of a block's bblock.json. The fields jrpcld uses
// are decoded; every member, known or not, is kept in Fields in file order so
// that a register can republish it unchanged.
type Metadata struct {
	Name             string
	Status           string
	ItemClass        string
	Version          string
	DateTimeAddition string
	DateOfLastChange string
	ItemIdentifier   string
	Abstract         string
	Description      string
	DependsOn        []string // ids, with any "bblocks://" taken off
	Schema           string   // the schema file bblock.json names, or ""
	LdContext        string   // the context file bblock.json names, or ""
	OpenAPIDocument  string   // the OpenAPI document bblock.json names, or ""
	Highlighted      bool
	Tags             []string
	Sources          []Source
	// ExtensionPoints is bblock.json's extensionPoints, nil when absent.
	ExtensionPoints *ExtensionPoints
	// Extends is bblock.json's extends, nil when absent.
	Extends *Extends

	// Fields holds every member of bblock.json in file order.
	Fields []Field
}

// ExtensionPoints declares a block as its base block with extensions: each
// extension source, a block the base refers to, stands replaced by its
// target. Ids are kept without "bblocks://".
type ExtensionPoints struct {
	Base       string   // baseBuildingBlock
	Extensions []string // source and target ids, in pairs, in file order
}

// Ids returns the base and every extension source and target, in order.
func (e *ExtensionPoints) Ids() []string {
	return append([]string{e.Base}, e.Extensions...)
}

// parseExtensionPoints decodes an extensionPoints member, as the tool
// chain reads it: baseBuildingBlock is required; extensions, optional,
// maps ids to ids; a fragment ("#") in any is an error.
func parseExtensionPoints(raw json.RawMessage) (*ExtensionPoints, error) {
	var ep struct {
		Base       *string         `json:"baseBuildingBlock"`
		Extensions json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(raw, &ep); err != nil {
		return nil, err
	}
	if ep.Base == nil || *ep.Base == "" {
		return nil, fmt.Errorf("baseBuildingBlock (the id of the block it extends) is missing")
	}
	out := &ExtensionPoints{Base: strings.TrimPrefix(*ep.Base, BlockRefPrefix)}
	if len(ep.Extensions) > 0 && string(ep.Extensions) != "null" {
		fields, err := objectFields(ep.Extensions)
		if err != nil {
			return nil, fmt.Errorf("extensions: %w", err)
		}
		for _, f := range fields {
			var target string
			if err := json.Unmarshal(f.Value, &target); err != nil {
				return nil, fmt.Errorf("extensions: %q must map to a block id (a string)", f.Key)
			}
			out.Extensions = append(out.Extensions, strings.TrimPrefix(f.Key, BlockRefPrefix), strings.TrimPrefix(target, BlockRefPrefix))
		}
	}
	for _, id := range out.Ids() {
		if strings.Contains(id, "#") {
			return nil, fmt.Errorf("%q holds a fragment: extension points can only name building blocks, not parts of them (as the OGC tool chain requires)", id)
		}
	}
	return out, nil
}

// Source is one entry of a block's "sources" list.
type Source struct {
	Title string `json:"title"`
	Link  string `json:"link,omitempty"`
}

// Field is one member of a JSON object, kept with its raw value.
type Field struct {
	Key   string
	Value json.RawMessage
}

// statuses lists the values bblock.json allows for "status".
var statuses = []string{"retired", "superseded", "experimental", "stable", "under-development", "invalid", "reserved", "submitted"}

// itemClasses lists the values bblock.json allows for "itemClass".
var itemClasses = []string{"schema", "datatype", "path", "parameter", "header", "cookie", "response", "api", "model",
	"requirements-class", "clause", "terms", "references"}

var (
	dateTimeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$`)
	dateRE     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// knownKeys are the members bblock.json's schema defines, with the JSON type
// each must have ("string", "boolean", "array", "object", "string-or-array",
// "string-or-object" or "" for any).
var knownKeys = map[string]string{
	"itemIdentifier": "string", "name": "string", "abstract": "string", "description": "string",
	"status": "string", "dateTimeAddition": "string", "dateTimeSupersession": "string",
	"dateTimeRetirement": "string", "dateTimeInvalidation": "string", "itemClass": "string",
	"register": "string", "version": "string", "dateOfLastChange": "string", "sources": "array",
	"link": "string", "links": "array", "tags": "array", "concept": "array", "rdfType": "array",
	"schema": "string", "openAPIDocument": "string", "ldContext": "string", "ontology": "string",
	"examples": "array", "predecessor": "string", "successor": "string", "isProfileOf": "string-or-array",
	"dependsOn": "array", "seeAlso": "array", "requirementClasses": "array", "superBBlock": "boolean",
	"group": "string", "shaclShapes": "array", "shaclRules": "array", "shaclClosures": "array",
	"extends": "string-or-object", "highlighted": "boolean", "conformanceClasses": "array",
	"semanticUplift": "", "resources": "array", "rdfData": "string-or-array", "extensionPoints": "object",
	"$schema": "string",
}

// nearKey returns the member of the bblock.json schema that key is most
// likely a slip for (the same name in another case, or one or two edits
// away, one for short names), or "" when none is that close.
func nearKey(key string) string {
	best, bestDist := "", 0
	for k := range knownKeys {
		if strings.EqualFold(k, key) {
			return k
		}
		limit := 2
		if len(k) < 6 {
			limit = 1
		}
		if d := editDistance(strings.ToLower(k), strings.ToLower(key), limit); d <= limit && (best == "" || d < bestDist || d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance between a and b in bytes,
// or limit+1 as soon as it is known to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ParseMetadata decodes and checks the bytes of a bblock.json. It returns
// the metadata with the problems found (errors and warnings), each naming
// file and the JSON pointer of the member concerned. A document that is not a
// JSON object is an error.
func ParseMetadata(file string, data []byte) (*Metadata, []Problem, error) {
	fields, err := objectFields(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	m := &Metadata{Fields: fields}
	var probs []Problem
	add := func(warn bool, key, format string, args ...any) {
		probs = append(probs, Problem{File: file, Pointer: "/" + key, Message: fmt.Sprintf(format, args...), Severity: severity(warn)})
	}
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.Key] {
			add(false, f.Key, "member %q appears twice", f.Key)
		}
		seen[f.Key] = true
		want, known := knownKeys[f.Key]
		if !known {
			// The tool chain's schema closes no member list: it publishes
			// "maturity", "scope", "title" and any other member as written.
			// Only a name one slip away from a defined member is worth a word.
			if near := nearKey(f.Key); near != "" {
				add(true, f.Key, "member %q is not defined by the bblock.json schema: did you mean %q? (kept and published as is)", f.Key, near)
			}
			continue
		}
		if got := jsonKind(f.Value); !kindMatches(want, got) {
			add(false, f.Key, "%q must be %s, got %s", f.Key, strings.ReplaceAll(want, "-or-", " or "), got)
			continue
		}
		var err error
		switch f.Key {
		case "name":
			err = json.Unmarshal(f.Value, &m.Name)
		case "status":
			err = json.Unmarshal(f.Value, &m.Status)
		case "itemClass":
			err = json.Unmarshal(f.Value, &m.ItemClass)
		case "version":
			err = json.Unmarshal(f.Value, &m.Version)
		case "dateTimeAddition":
			err = json.Unmarshal(f.Value, &m.DateTimeAddition)
		case "dateOfLastChange":
			err = json.Unmarshal(f.Value, &m.DateOfLastChange)
		case "itemIdentifier":
			err = json.Unmarshal(f.Value, &m.ItemIdentifier)
		case "abstract":
			err = json.Unmarshal(f.Value, &m.Abstract)
		case "description":
			err = json.Unmarshal(f.Value, &m.Description)
		case "highlighted":
			err = json.Unmarshal(f.Value, &m.Highlighted)
		case "dependsOn":
			err = json.Unmarshal(f.Value, &m.DependsOn)
			for i, d := range m.DependsOn {
				m.DependsOn[i] = strings.TrimPrefix(d, BlockRefPrefix)
			}
		case "schema":
			err = json.Unmarshal(f.Value, &m.Schema)
		case "ldContext":
			err = json.Unmarshal(f.Value, &m.LdContext)
		case "tags":
			err = json.Unmarshal(f.Value, &m.Tags)
		case "sources":
			err = json.Unmarshal(f.Value, &m.Sources)
		case "semanticUplift":
			add(true, f.Key, "%q is deprecated: move its settings to semantic-uplift.yaml", f.Key)
		case "rdfData":
			add(true, f.Key, "%q is deprecated: list the files in \"resources\" with the role \"data\"", f.Key)
		case "extensionPoints":
			m.ExtensionPoints, err = parseExtensionPoints(f.Value)
		case "extends":
			m.Extends, err = parseExtends(f.Value)
		case "openAPIDocument":
			err = json.Unmarshal(f.Value, &m.OpenAPIDocument)
		}
		if err != nil {
			add(false, f.Key, "%q has the wrong shape: %v", f.Key, err)
		}
	}
	for _, key := range []string{"name", "status", "dateTimeAddition", "itemClass", "version"} {
		if !seen[key] {
			probs = append(probs, Problem{File: file, Message: fmt.Sprintf("required member %q is missing", key)})
		}
	}
	if seen["status"] && m.Status != "" && !slices.Contains(statuses, m.Status) {
		add(false, "status", "status %q is not one of %s", m.Status, strings.Join(statuses, ", "))
	}
	if seen["itemClass"] && m.ItemClass != "" && !slices.Contains(itemClasses, m.ItemClass) {
		add(false, "itemClass", "itemClass %q is not one of %s", m.ItemClass, strings.Join(itemClasses, ", "))
	}
	for _, f := range fields {
		if !strings.HasPrefix(f.Key, "dateTime") && f.Key != "dateOfLastChange" {
			continue
		}
		var s string
		if json.Unmarshal(f.Value, &s) != nil {
			continue // reported above as a type error
		}
		if f.Key == "dateOfLastChange" {
			if !dateRE.MatchString(s) {
				add(false, f.Key, "%q must be a date YYYY-MM-DD, got %q", f.Key, s)
			}
		} else if _, known := knownKeys[f.Key]; known && !dateTimeRE.MatchString(s) {
			add(false, f.Key, "%q must be a date-time YYYY-MM-DDTHH:MM:SS[.frac][Z|+hh:mm], got %q", f.Key, s)
		}
	}
	return m, probs, nil
}

// objectFields decodes a JSON object into its members in document order.
func objectFields(data []byte) ([]Field, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("must be a JSON object")
	}
	var fields []Field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("not JSON (member %q): %w", key, err)
		}
		fields = append(fields, Field{Key: key, Value: raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("not JSON: data after the object")
	}
	return fields, nil
}

func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func kindMatches(want, got string) bool {
	if want == "" || want == got {
		return true
	}
	for _, w := range strings.Split(want, "-or-") {
		if w == got {
			return true
		}
	}
	return false
}

// Problem is something wrong, or worth a warning, in a block's files: a
// diagnostic naming the file (relative to the block or register) and, when
// known, a JSON pointer in it. A warning does not make the block fail.
type Problem = diag.Diagnostic

// severity returns diag.Warning for a warning, else diag.Error.
func severity(warning bool) diag.Severity {
	if warning {
		return diag.Warning
	}
	return diag.Error
}
