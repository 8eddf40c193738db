package ojson

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Members is a JSON object built as a list: MarshalJSON writes its members
// in the list's order, which is how the tool chain's output files
// (register.json, a block's full JSON, _report.json) are laid out. Unlike
// Object it holds any Go value encoding/json can write, and is built with
// a literal, member by member.
type Members []Member

// Member is one member of Members.
type Member struct {
	Key   string
	Value any
}

// MarshalJSON writes the members in order, compact, HTML characters of
// the values unescaped (those of the keys escaped).
func (o Members) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(m.Key) // HTML characters of a key escaped, as ever
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.Value); err != nil {
			return nil, fmt.Errorf("member %q: %w", m.Key, err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Get returns the value of the first member key, and whether there is one.
func (o Members) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Has reports whether o has a member key.
func (o Members) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Set replaces the value of the first member key, or appends the member,
// and returns the list.
func (o Members) Set(key string, v any) Members {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{key, v})
}

// MarshalIndent returns v as encoding/json writes it indented by two
// spaces, HTML characters unescaped, with a final newline: the layout of
// the tool chain's JSON files, whose objects are Members.
func MarshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// M returns the member key: v.
func M(key string, v any) Member { return Member{key, v} }
