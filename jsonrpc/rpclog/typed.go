package rpclog

import (
	"bytes"
	"encoding/json"
	"slices"
	"unsafe"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// Reading a line typed (BatchOptions.Typed): the envelope and the
// message's members straight into a jsonrpc.Object, with no map. Only
// the lines whose record holds nothing but a message the rules find
// nothing to say about are read so: a line with anything else (a batch, a
// member the typed read does not know, a member named twice, a lone
// surrogate, an envelope's "dir" that is not "c2s" or "s2c", an error
// response, text that is not JSON, ...) is read by decodeText, as without
// Typed, so that its record and its findings are the same.

// typedRecord is a record read typed and its Object, with room for the
// text of its strings (the id and "ts"): these strings point into buf,
// written before them and not again until the record is read anew (see
// BatchOptions.Typed).
type typedRecord struct {
	Record
	obj     jsonrpc.Object
	msg     jsonrpc.Message // obj classified
	buf     [typedBuf]byte
	vouched [2]vouchSpan // where the Voucher's text for params and result is in the batch's
}

// vouchSpan is where a Voucher wrote for a value it vouched for.
type vouchSpan struct {
	start, end int
	ok         bool
}

// typedBuf is the room a typedRecord has for its strings: a timestamp
// and an id as logs write them.
const typedBuf = 48

// str returns b as a string in the room left in tr.buf from *used on, or
// allocated when it does not fit.
func (tr *typedRecord) str(b []byte, used *int) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > len(tr.buf)-*used {
		return string(b)
	}
	n := copy(tr.buf[*used:], b)
	s := unsafe.String(&tr.buf[*used], n)
	*used += n
	return s
}

// The member names a typed read knows, as bits: the message's, then the
// envelope's.
const (
	mVersion uint16 = 1 << iota
	mMethod
	mID
	mParams
	mResult
	mDir
	mTS
	mSession
	mMsg

	envelopeMembers = mDir | mTS | mSession | mMsg
)

// memberBit returns the bit of a member name, or 0 for a name a typed read
// does not know.
func memberBit(name []byte) uint16 {
	switch string(name) {
	case "jsonrpc":
		return mVersion
	case "method":
		return mMethod
	case "id":
		return mID
	case "params":
		return mParams
	case "result":
		return mResult
	case "dir":
		return mDir
	case "ts":
		return mTS
	case "session":
		return mSession
	case "msg":
		return mMsg
	}
	return 0
}

// typedScan is one line being read typed.
type typedScan struct {
	p    *jsonparse.Parser
	text []byte
	lens bool // note the Lens of the parser's Lazy members

	obj              jsonrpc.Object
	id               []byte // the id's text: a string's content, or a number
	dir, ts, session []byte // the envelope's strings, between their quotes; nil when absent
	msgStart, msgEnd int    // the "msg" value's extent, when there is one

	v       Voucher      // reads params and result in the parser's place, when not nil
	vbuf    *[]byte      // where v writes
	vouched [2]vouchSpan // what v wrote for params and result
}

// decodeTyped reads text, a line nextText returned, with p, as decodeText
// does, straight into tr, and returns its record; nil when the line is not
// one a typed read takes (see above). With lens, the Lens of the parser's
// Lazy members go into p.Lens, as decodeText notes them. The id of a
// request, which a Tracker keeps, is a string of its own; the record's
// other strings are in tr.
//
// With v, params and result are read by v when it vouches for them, its
// text going into *vbuf.
func (r *Reader) decodeTyped(p *jsonparse.Parser, text []byte, line int, lens bool, tr *typedRecord, v Voucher, vbuf *[]byte) *Record {
	if p.MaxDepth < 2 {
		return nil
	}
	start := jsonparse.SkipSpace(text, 0)
	if start >= len(text) || text[start] != '{' {
		return nil
	}
	s := typedScan{p: p, text: text, lens: lens, msgStart: -1, v: v, vbuf: vbuf}
	end, seen, ok := s.object(start, 0)
	if !ok || jsonparse.SkipSpace(text, end) != len(text) {
		return nil
	}
	*tr = typedRecord{vouched: s.vouched}
	used := 0
	tr.Line = line
	switch {
	case seen&mMsg != 0 && seen&mVersion == 0:
		// An envelope: nothing but "dir", "ts", "session" and "msg".
		if seen&^envelopeMembers != 0 {
			return nil
		}
		tr.Raw = text[s.msgStart:s.msgEnd]
		if s.dir != nil {
			switch string(s.dir) {
			case "c2s":
				tr.Dir = jsonrpc.ClientToServer
			case "s2c":
				tr.Dir = jsonrpc.ServerToClient
			default:
				return nil
			}
		}
		if s.ts != nil {
			tr.TS = tr.str(s.ts, &used)
		}
		if s.session != nil {
			tr.Session = s.p.SharedString(s.session) // the same from line to line
		}
	case seen&envelopeMembers == 0:
		tr.Raw = text[start:end]
	default:
		return nil
	}
	tr.obj = s.obj
	if s.id != nil {
		var id string
		if tr.obj.HasMethod {
			id = string(s.id) // a request's: kept after the record
		} else {
			id = tr.str(s.id, &used)
		}
		if tr.obj.ID == "" { // a string
			tr.obj.ID = id
		} else {
			tr.obj.ID = json.Number(id)
		}
	}
	if tr.msg, ok = tr.obj.Classify(); !ok {
		return nil
	}
	tr.Object = &tr.obj
	return &tr.Record
}

// object reads the object that starts at text[i], inside depth arrays and
// objects, and its members: a message's into s.obj, and at the top (depth
// 0) an envelope's. It returns the offset past the object and the members
// it holds; ok is false when a typed read does not take it.
func (s *typedScan) object(i, depth int) (end int, seen uint16, ok bool) {
	text, p := s.text, s.p
	i = jsonparse.SkipSpace(text, i+1)
	for {
		// A member name without escapes, one of those known.
		if i >= len(text) || text[i] != '"' {
			return 0, 0, false
		}
		j := bytes.IndexByte(text[i+1:], '"')
		if j < 0 {
			return 0, 0, false
		}
		name := text[i+1 : i+1+j]
		bit := memberBit(name)
		if bit == 0 || seen&bit != 0 || depth > 0 && bit&envelopeMembers != 0 {
			return 0, 0, false
		}
		seen |= bit
		if i = jsonparse.SkipSpace(text, i+j+2); i >= len(text) || text[i] != ':' {
			return 0, 0, false
		}
		if i = jsonparse.SkipSpace(text, i+1); i >= len(text) {
			return 0, 0, false
		}
		start, c := i, text[i]
		if bit == mMsg {
			if c != '{' {
				return 0, 0, false
			}
			if i, _, ok = s.object(i, depth+1); !ok {
				return 0, 0, false
			}
			s.msgStart, s.msgEnd = start, i
		} else {
			// Parse leaves the Lazy members of a message undecoded, and
			// notes their Lens, when they are objects or arrays.
			lens := s.lens && (c == '{' || c == '[') && slices.Contains(p.Lazy, string(name))
			if !s.vouch(bit, &i, depth+1) {
				var clean bool
				var perr *jsonparse.SyntaxError
				if i, clean, perr = p.Check(text, i, depth+1, lens); perr != nil || !clean {
					return 0, 0, false
				}
			}
			if !s.member(bit, text[start:i]) {
				return 0, 0, false
			}
		}
		if i = jsonparse.SkipSpace(text, i); i >= len(text) {
			return 0, 0, false
		}
		switch text[i] {
		case '}':
			return i + 1, seen, true
		case ',':
			i = jsonparse.SkipSpace(text, i+1)
		default:
			return 0, 0, false
		}
	}
}

// vouch offers the value at text[*i] of the member of bit, inside depth
// arrays and objects, to the Voucher when the member is params or result,
// one of the parser's Lazy members, and there is one; when it vouches for
// the value, *i moves past it.
func (s *typedScan) vouch(bit uint16, i *int, depth int) bool {
	k := 0
	switch {
	case s.v == nil || s.lens:
		return false
	case bit == mResult:
		k = 1
	case bit != mParams:
		return false
	}
	if !slices.Contains(s.p.Lazy, vouchNames[k]) {
		return false
	}
	start := len(*s.vbuf)
	out, end, ok := s.v.Vouch(*s.vbuf, s.text, *i, depth, s.p.MaxDepth)
	if !ok {
		return false
	}
	*s.vbuf, *i = out, end
	s.vouched[k] = vouchSpan{start: start, end: len(out), ok: true}
	return true
}

// vouchNames are the names of the members a Voucher may read.
var vouchNames = [2]string{"params", "result"}

// member takes the value v, checked, of the member of bit.
func (s *typedScan) member(bit uint16, v []byte) bool {
	o := &s.obj
	switch bit {
	case mParams:
		o.Params = v
		return true
	case mResult:
		o.Result = v
		return true
	case mID:
		switch v[0] {
		case '"':
			str, ok := plainString(v)
			if !ok {
				return false
			}
			// Its string is made once the record is (decodeTyped).
			o.ID, s.id = "", str
		case 'n':
			o.ID = nil
		case 't', 'f', '{', '[':
			return false
		default:
			o.ID, s.id = json.Number(""), v
		}
		o.HasID = true
		return true
	}
	str, ok := plainString(v)
	if !ok {
		return false
	}
	switch bit {
	case mVersion:
		if string(str) != "2.0" {
			return false
		}
		o.Version, o.HasVersion = "2.0", true
	case mMethod:
		o.Method, o.HasMethod = s.p.SharedString(str), true
	case mDir:
		s.dir = str
	case mTS:
		s.ts = str
	case mSession:
		s.session = str
	}
	return true
}

// plainString returns the content of the string text v when it holds no
// escape; ok is false for a string with one, or another value.
func plainString(v []byte) ([]byte, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return nil, false
	}
	return v[1 : len(v)-1], true
}
