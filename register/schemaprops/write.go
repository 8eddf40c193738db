package schemaprops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/internal/pyjson"
)

// JSON returns resolvedProperties.json as the tool chain writes it:
// {"defs": {"0": [...], ...}, "properties": [...]}, each entry with the
// members it has a value for (path, id, jsonld_type, vocab, title,
// description, required, schema_type, format, enum, const, deprecated,
// read_only, write_only, sources, keyword, ref, effectiveId: those that are
// not None, and but for const not false nor an empty list), defs numbered
// in the order they were made and ref naming one, compact, non-ASCII
// characters escaped. A property's sources are "bblocks://" + blockID when
// it comes from the entry document; sources elsewhere are left out, as the
// tool chain names no block for a document it reached by URL.
func (r *Resolved) JSON(blockID string) ([]byte, error) {
	num := map[string]string{}
	for i, d := range r.defs {
		num[d.key] = strconv.Itoa(i)
	}
	entries := func(nodes []*node) []any {
		out := make([]any, 0, len(nodes))
		for _, n := range nodes {
			out = append(out, n.entry(blockID, num))
		}
		return out
	}
	defs := ojson.NewObject()
	for i, d := range r.defs {
		defs.Set(strconv.Itoa(i), entries(d.nodes))
	}
	doc := ojson.NewObject()
	doc.Set("defs", defs)
	doc.Set("properties", entries(r.nodes))
	return pyjson.Compact(doc)
}

// entry returns the node's entry in resolvedProperties.json.
func (n *node) entry(blockID string, defNum map[string]string) *ojson.Object {
	var sources []any
	for _, s := range n.sources {
		if s.Entry {
			if id := "bblocks://" + blockID; !containsString(sources, id) {
				sources = append(sources, id)
			}
		}
	}
	path := make([]any, len(n.path))
	for i, p := range n.path {
		path[i] = p
	}
	var ref any
	if n.ref != "" {
		ref = defNum[n.ref]
	}
	e := ojson.NewObject()
	for _, m := range []struct {
		k string
		v any
	}{
		{"path", path}, {"id", n.id}, {"jsonld_type", n.jsonldType}, {"vocab", n.vocab},
		{"title", n.title}, {"description", n.description}, {"required", n.required},
		{"schema_type", n.schemaType}, {"format", n.format}, {"enum", n.enum}, {"const", n.constant},
		{"deprecated", n.deprecated}, {"read_only", n.readOnly}, {"write_only", n.writeOnly},
		{"sources", sources}, {"keyword", n.keyword}, {"ref", ref}, {"effectiveId", n.effectiveID()},
	} {
		if keep(m.k, m.v) {
			e.Set(m.k, m.v)
		}
	}
	return e
}

// keep reports whether the tool chain writes member k with value v: not
// when v is None, and but for const, not when it is false or an empty list.
func keep(k string, v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x || k == "const"
	case []any:
		return len(x) > 0 || x != nil && k == "const"
	case string:
		return x != "" || k != "keyword" && k != "ref"
	}
	return true
}

func containsString(list []any, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// Visited returns _visited_properties.tsv as the tool chain writes it: a
// row per property path the walk read (path, the @id it found, the
// document it read it from, named by loc), tab-separated, lines ended by
// CRLF (Python's csv module).
func (c *Collector) Visited(loc func(Source) string) []byte {
	var buf bytes.Buffer
	writeTSV(&buf, "path", "@id", "schema")
	if c != nil {
		for _, v := range c.visited {
			writeTSV(&buf, v.path, pythonText(v.id), loc(v.src))
		}
	}
	return buf.Bytes()
}

// Unbound returns _unbound_local_properties.tsv as the tool chain writes
// it: the paths of the properties of the entry document that nothing
// binds to an IRI, one a line.
func (c *Collector) Unbound() []byte {
	var buf bytes.Buffer
	buf.WriteString("path\n")
	if c != nil {
		for _, p := range c.missed {
			if c.unbound[p] {
				buf.WriteString(p + "\n")
			}
		}
	}
	return buf.Bytes()
}

// writeTSV writes a row as Python's csv writer does with a tab delimiter:
// a field holding a tab, a quote or a line break is quoted, its quotes
// doubled.
func writeTSV(buf *bytes.Buffer, fields ...string) {
	for i, f := range fields {
		if i > 0 {
			buf.WriteByte('\t')
		}
		if strings.ContainsAny(f, "\t\"\r\n") {
			f = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
		}
		buf.WriteString(f)
	}
	buf.WriteString("\r\n")
}

// pythonText renders a value as Python's str() does for the simple cases:
// None as nothing (the csv module's), booleans as True and False.
func pythonText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return pyjson.Number(x)
	}
	data, err := pyjson.Compact(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
