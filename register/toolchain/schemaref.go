package toolchain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/register/toolchain/internal/ctxmerge"
)

// nesting counts the subschemas a walk of a schema is inside, in all and
// in the document it is in. The walks recurse, following $ref from part to
// part and document to document: a chain of a hundred thousand
// definitions, each the $ref of the one before, took more than five minutes
// and 5 GB, the path of each part as long as the chain.
type nesting struct {
	total, inDoc int
	doc          string // the id of the document the walk is in
	// max bounds total; 0 for maxRefNesting.
	max int
}

// maxNesting bounds the subschemas a walk may be inside in one document.
const maxNesting = limits.Depth

// maxRefNesting bounds the subschemas a walk may be inside in all,
// through references from document to document: a register whose blocks
// build on one another in a chain (each extending the next, say) goes two
// or three deeper for each block, and walks as deep as the chain (the OGC
// tool chain fails a few hundred deep, past Python's recursion limit).
const maxRefNesting = 20 * limits.Depth

// enter goes into a subschema of the document of from, or fails when that
// makes too many; it returns what leave restores.
func (n *nesting) enter(from *refSchema) (nesting, error) {
	saved := *n
	if from.id != n.doc {
		n.doc, n.inDoc = from.id, 0
	}
	if n.inDoc >= maxNesting {
		*n = saved
		return saved, fmt.Errorf("%s: subschemas nested more than %d deep (a chain of $ref?)", displayLoc(from.loc), maxNesting)
	}
	if n.total >= n.limit() {
		*n = saved
		return saved, fmt.Errorf("%s: subschemas nested more than %d deep through $ref from document to document (a chain of blocks, each extending or referring to the next?): make the chain shorter", displayLoc(from.loc), n.limit())
	}
	n.inDoc++
	n.total++
	return saved, nil
}

// limit returns the bound on total.
func (n *nesting) limit() int {
	if n.max > 0 {
		return n.max
	}
	return maxRefNesting
}

// leave comes out of the subschema enter went into.
func (n *nesting) leave(saved nesting) { *n = saved }

// walkStack holds the schema parts a walk is inside (the entry document,
// then each part a reference led to, until its walk ends), by document id:
// a reference to one of them loops. Finding them by id keeps a long chain
// of documents linear; the parts of one document nest maxNesting deep at
// most.
type walkStack struct {
	byID   map[string][]activeSchema
	pushed int // how many parts were pushed so far
}

// activeSchema is a part a walk is inside, and when it went in.
type activeSchema struct {
	s  *refSchema
	at int
}

func (w *walkStack) push(s *refSchema) {
	if w.byID == nil {
		w.byID = map[string][]activeSchema{}
	}
	w.byID[s.id] = append(w.byID[s.id], activeSchema{s, w.pushed})
	w.pushed++
}

func (w *walkStack) pop(s *refSchema) {
	l := w.byID[s.id]
	if len(l) <= 1 {
		delete(w.byID, s.id)
		return
	}
	w.byID[s.id] = l[:len(l)-1]
}

// since returns when the walk first went into a part of document id that
// it is still inside, and false when it is in none.
func (w *walkStack) since(id string) (int, bool) {
	if l := w.byID[id]; len(l) > 0 {
		return l[0].at, true
	}
	return 0, false
}

// refSchema is a schema document, or a part of it, that the tool chain's
// walks reached: where it is, the whole document and the part.
type refSchema struct {
	loc     string  // the location, for resolving references in it
	id      string  // the identity the tool chain compares and caches by
	frag    *string // the fragment; nil for none
	sub     any     // the part
	full    any     // the whole document
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

// schemaRefs is what resolving references needs: a loader, the parts the
// walk is inside, and where to report where jrpcld reads a reference the
// tool chain fails on.
type schemaRefs struct {
	load schemaLoader
	walk *walkStack
	warn func(string)
	// resolved, when not nil, is told the id of the document each
	// reference leads to, before its loop is checked.
	resolved func(id string)
}

// resolveSchema resolves ref from the schema from as the tool chain's
// resolver does: a reference into from's document reaches the same
// objects; another document is loaded afresh. It returns nil when the
// reference loops: a part the walk is inside (from itself, the innermost,
// excluded) is the same document and fragment.
func resolveSchema(ref string, from *refSchema, sr schemaRefs) (*refSchema, error) {
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
	ancestors := sr.walk.byID[id]
	if id == from.id && len(ancestors) > 0 {
		ancestors = ancestors[:len(ancestors)-1] // from
	}
	for _, a := range ancestors {
		anc := a.s
		if sameFrag(anc.frag, frag) {
			return nil, nil
		}
		if wholeDoc(anc.frag) && wholeDoc(frag) {
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
	r := &refSchema{loc: loc, id: id, frag: frag, ref: &ref}
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
			return nil, fmt.Errorf("#%s: %q is inside a %s", frag, tok, ctxmerge.TypeName(cur))
		}
	}
	return cur, nil
}
