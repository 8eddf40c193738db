package convert

// The compiled walk of JSON text. A message read typed keeps params and
// result as their checked text (rpclog.BatchOptions.Typed); where the
// block's context maps them into nodes (the MCP block's params), the plan
// walks that text as it walks a decoded object, with no map. It takes
// objects of terms whose values are objects, strings, numbers, booleans
// and @json values, and gives up on anything else: arrays, lists, nulls and
// members it drops, which make the message need a patch and so its decoded
// value anyway; what the decoded walk would tell about (a member named like
// a keyword, a number beyond a double); escaped member names and canonical
// forms jcs.Writer does not write from the text. The message is then
// mapped from its decoded value, as before. So the text walk must only be
// right where it succeeds, which TestTextWalk checks against the decoded
// walk.

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/rdf"
)

// textMember maps member k of an object, whose value's text is v, with
// scope s, as member maps the decoded value of a member other than a
// message's id; ok is false when the text walk gives up.
func (w *cwalk) textMember(k string, v []byte, s *cscope, subj rdf.Term) (prop, ok bool) {
	w.path = append(w.path, pathElem{key: k, idx: -1}) // for fixNumber's pointer
	prop, ok = w.textValue(k, v, s, subj)
	w.path = w.path[:len(w.path)-1]
	return prop, ok
}

// textValue is textMember once the member is on w.path.
func (w *cwalk) textValue(k string, v []byte, s *cscope, subj rdf.Term) (prop, ok bool) {
	t, known := s.key(k)
	if strings.HasPrefix(k, "@") || !known || t == nil || t.kind == ckUnsupported || t.kind == ckDrop || t.list {
		return false, false
	}
	if t.kind == ckJSON {
		return true, w.jsonText(subj, t, v)
	}
	switch v[0] {
	case 'n', '[':
		return false, false
	case '{':
		c := s.textChild(k, t)
		if c == nil {
			return false, false
		}
		b, ok := w.newBlank()
		if !ok {
			return false, false
		}
		w.out = append(w.out, rdf.Triple{S: subj, P: t.iri, O: b})
		if !t.exact {
			w.whole = false
		}
		return true, w.textObject(v, c, b)
	}
	if t.scoped && s.textChild(k, t) == nil {
		return false, false
	}
	o, exact, ok := w.textScalar(t, s, v)
	if !exact || !t.exact {
		// fixNumber copies the number's text into its patch.
		if !ok || v[0] == '"' || v[0] == 't' || v[0] == 'f' || !w.fixNumber(t, o, unsafe.String(&v[0], len(v))) {
			w.whole = false
		}
	}
	if ok {
		w.add(subj, t.iri, o)
	}
	return true, ok
}

// textObject is object of the text of an object, which is no message.
func (w *cwalk) textObject(text []byte, s *cscope, subj rdf.Term) bool {
	start := len(w.fields)
	fields, ok := jsonparse.AppendMembers(w.fields, text)
	w.fields = fields
	defer func() { w.fields = w.fields[:start] }()
	if !ok {
		return false
	}
	end := len(w.fields)
	// Names are not repeated in a message read typed.
	slices.SortFunc(w.fields[start:end], func(a, b jsonparse.Member) int { return bytes.Compare(a.Name, b.Name) })
	for i := start; i < end; i++ {
		f := w.fields[i] // the walk below appends past end
		k := ""
		if len(f.Name) > 0 {
			k = unsafe.String(&f.Name[0], len(f.Name))
		}
		if _, ok := w.textMember(k, f.Value, s, subj); !ok {
			return false
		}
	}
	return true
}

// textScalar is scalar of the text v of a string, number or boolean; ok is
// false when it gives up (a number beyond a double).
func (w *cwalk) textScalar(t *cterm, s *cscope, v []byte) (o rdf.Term, exact, ok bool) {
	switch v[0] {
	case '"':
		x, ok := w.textString(v)
		if !ok {
			return noObject, false, false
		}
		return w.scalar(t, s, x)
	case 't', 'f':
		return w.scalar(t, s, v[0] == 't')
	}
	// A number. Its literal may hold its text, which without an arena
	// must not outlive the message.
	n := unsafe.String(&v[0], len(v))
	if w.arena == nil {
		n = strings.Clone(n)
	}
	return numberObject(n, t)
}

// textChild is child for k, a member name that points into a message's
// text, which the scope must not keep.
func (s *cscope) textChild(k string, t *cterm) *cscope {
	if t.scoped && t.child.Load() == nil {
		k = strings.Clone(k)
	}
	return s.child(k, t)
}

// textString returns the string whose text, quotes included, is v: with
// an arena, pointing into v when it holds no escape, else written into the
// arena; without one, a copy. It gives up on a lone surrogate.
func (w *cwalk) textString(v []byte) (string, bool) {
	body := v[1 : len(v)-1]
	switch {
	case len(body) == 0:
		return "", true
	case w.arena == nil:
		b, ok := jsonparse.AppendString(nil, v)
		return string(b), ok
	}
	if end, valid := jcs.PlainRun(body, 0); end == len(body) && valid {
		return unsafe.String(&body[0], len(body)), true
	}
	start := len(*w.arena)
	dst, ok := jsonparse.AppendString(*w.arena, v)
	if !ok || len(dst) == start {
		return "", false
	}
	*w.arena = dst
	return unsafe.String(&dst[start], len(dst)-start), true
}
