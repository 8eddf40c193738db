package context

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// nesting counts the subschemas a walk of a schema is inside. The walks
// recurse, following $ref from part to part and document to document: a
// chain of a hundred thousand definitions, each the $ref of the one before,
// took more than five minutes and 5 GB, the path of each part as long as
// the chain.
type nesting int

// maxNesting bounds the subschemas a walk may be inside.
const maxNesting = limits.Depth

// enter goes into a subschema of the document of from, or fails when that
// makes too many.
func (n *nesting) enter(from *refSchema) error {
	if *n >= maxNesting {
		return fmt.Errorf("%s: subschemas nested more than %d deep (a chain of $ref?)", displayLoc(from.loc), maxNesting)
	}
	*n++
	return nil
}

// leave comes out of the subschema enter went into.
func (n *nesting) leave() { *n-- }

// refSchema is a schema document, or a part of it, that the tool chain's
// walks reached: where it is, the whole document and the part, and the
// chain of references that led to it.
type refSchema struct {
	loc  string  // the location, for resolving references in it
	id   string  // the identity the tool chain compares and caches by
	frag *string // the fragment; nil for none
	sub  any     // the part
	full any     // the whole document
	// chain lists the referring schemas, outermost first.
	chain   []*refSchema
	ref     *string // the reference as written; nil for the entry document
	anchors map[string]*ojson.Object
}

// key returns the tool chain's cache key of s: "ID#FRAGMENT".
func (s *refSchema) key() string { return s.id + "#" + fragText(s.frag) }

// refText returns the tool chain's text of s's location and reference.
func (s *refSchema) refText() string {
	if s.ref == nil {
		return s.id + "None"
	}
	return s.id + *s.ref
}

// rootSchema returns the entry document at loc with the contents doc.
// Its identity differs from its location as written by others, as the
// tool chain names its entry document by file path and others by URL.
func rootSchema(loc string, doc any) *refSchema {
	return &refSchema{loc: loc, id: "entry:" + loc, sub: doc, full: doc, anchors: findAnchors(doc)}
}

// schemaLoader loads schema documents by location, a fresh copy each time.
type schemaLoader func(loc string) (any, error)

// schemaRefs is what resolving references needs: a loader, and where to
// report where jrpcld reads a reference the tool chain fails on.
type schemaRefs struct {
	load schemaLoader
	warn func(string)
	// resolved, when not nil, is told the id of the document each
	// reference leads to, before its loop is checked.
	resolved func(id string)
}

// resolveSchema resolves ref from the schema from as the tool chain's
// resolver does: a reference into from's document reaches the same
// objects; another document is loaded afresh. It returns nil when the
// reference loops: an ancestor in from's chain (from itself excluded) is
// the same document and fragment.
func resolveSchema(ref string, from *refSchema, sr schemaRefs) (*refSchema, error) {
	chain := append(from.chain[:len(from.chain):len(from.chain)], from)
	locPart, frag := splitRef(ref)
	loc, id := from.loc, from.id
	if locPart != "" {
		base := from.loc
		if full, ok := from.full.(*ojson.Object); ok {
			if sid, ok := full.Value("$id").(string); ok && sid != "" {
				base = sid
			}
		}
		var err error
		if loc, err = joinLoc(base, locPart); err != nil {
			return nil, fmt.Errorf("$ref %q: %w", ref, err)
		}
		id = loc
	}
	if sr.resolved != nil {
		sr.resolved(id)
	}
	for _, anc := range from.chain {
		if anc.id == id && sameFrag(anc.frag, frag) {
			return nil, nil
		}
		if anc.id == id && wholeDoc(anc.frag) && wholeDoc(frag) {
			// The tool chain tells "#" (fragment "") from its entry document
			// (no fragment) here, and recurses until Python gives up; a
			// reference to the whole document loops as any other.
			sr.warn(fmt.Sprintf("$ref %q refers to the whole document it is in: jrpcld stops the loop there, the OGC tool chain fails on it (RecursionError)", ref))
			return nil, nil
		}
	}
	if frag != nil && *frag == "" {
		frag = nil // the tool chain keeps no empty fragment
	}
	r := &refSchema{loc: loc, id: id, frag: frag, chain: chain, ref: &ref}
	if id == from.id {
		r.full, r.anchors = from.full, from.anchors
		if locPart != "" {
			r.anchors = findAnchors(r.full)
		}
	} else {
		doc, err := sr.load(loc)
		if err != nil {
			return nil, fmt.Errorf("$ref %q: %w", ref, err)
		}
		r.full, r.anchors = doc, findAnchors(doc)
	}
	r.sub = r.full
	if frag != nil && *frag != "" {
		b, err := getBranch(r.full, *frag, r.anchors)
		if err != nil && !strings.HasPrefix(*frag, "/") {
			// What the tool chain refuses: "#definitions/X", a pointer
			// missing its slash, and a draft-07 anchor ("$id": "#X").
			if b, err = getBranch(r.full, "/"+*frag, r.anchors); err == nil {
				sr.warn(fmt.Sprintf("$ref %q in %s: read as the JSON pointer #/%s; the OGC tool chain fails on it (a pointer needs its leading slash)", ref, displayLoc(from.loc), *frag))
			} else if o := findIDAnchor(r.full, *frag); o != nil {
				b, err = o, nil
				sr.warn(fmt.Sprintf("$ref %q in %s: read as the draft-07 anchor \"$id\": \"#%s\"; the OGC tool chain fails on it (it knows only $anchor)", ref, displayLoc(from.loc), *frag))
			}
		}
		if err != nil {
			return nil, fmt.Errorf("$ref %q in %s: %w", ref, displayLoc(from.loc), err)
		}
		r.sub = b
	}
	return r, nil
}

// wholeDoc reports whether a fragment names the whole document.
func wholeDoc(f *string) bool { return f == nil || *f == "" }

func sameFrag(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// findAnchors returns the objects of doc that declare an $anchor, by
// anchor, breadth first (a later one of the same name wins).
func findAnchors(doc any) map[string]*ojson.Object {
	anchors := map[string]*ojson.Object{}
	queue := []any{doc}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		switch x := cur.(type) {
		case *ojson.Object:
			if a, ok := x.Value("$anchor").(string); ok {
				anchors[a] = x
			}
			for _, k := range x.Keys() {
				queue = append(queue, x.Value(k))
			}
		case []any:
			queue = append(queue, x...)
		}
	}
	return anchors
}

// findIDAnchor returns the object of doc whose "$id" is "#name".
func findIDAnchor(doc any, name string) *ojson.Object {
	switch x := doc.(type) {
	case *ojson.Object:
		if id, _ := x.Value("$id").(string); id == "#"+name {
			return x
		}
		for _, k := range x.Keys() {
			if o := findIDAnchor(x.Value(k), name); o != nil {
				return o
			}
		}
	case []any:
		for _, e := range x {
			if o := findIDAnchor(e, name); o != nil {
				return o
			}
		}
	}
	return nil
}

// getBranch returns the part of doc a fragment names: an anchor, or a JSON
// pointer.
func getBranch(doc any, frag string, anchors map[string]*ojson.Object) (any, error) {
	frag = strings.TrimPrefix(frag, "#")
	if a, ok := anchors[frag]; ok {
		return a, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("#%s is neither an $anchor of the document nor a JSON pointer", frag)
	}
	cur := doc
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case *ojson.Object:
			v, ok := x.Get(tok)
			if !ok {
				return nil, fmt.Errorf("#%s: no member %q", frag, tok)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("#%s: no item %q", frag, tok)
			}
			cur = x[i]
		default:
			return nil, fmt.Errorf("#%s: %q is inside a %s", frag, tok, typeName(cur))
		}
	}
	return cur, nil
}
