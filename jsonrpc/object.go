package jsonrpc

import (
	"encoding/json"
	"strings"
)

// Object is a message object read member by member, straight from its
// JSON text, with no map in between: the members the rules look at,
// typed, and the text of the others a check reads. A reader fills it for
// the messages whose members have the types the rules ask for; one with
// another member, or a member of another type, is decoded and classified
// with Classify instead (see Classify's method).
type Object struct {
	Version string // the "jsonrpc" member, when HasVersion
	Method  string // the "method" member, when HasMethod
	ID      any    // the "id" member as decoded (a string, a json.Number or nil), when HasID
	// Params and Result are the texts of the "params" and "result"
	// members, nil when the message has none.
	Params, Result []byte

	HasVersion, HasMethod, HasID bool
}

// Classify returns what Classify returns for the decoded object, when the
// rules find nothing to say about it (ok true): a request, notification or
// success response with "jsonrpc": "2.0", a string id or an integer id
// (not null), params that are an object or an array, and a method that
// does not start with "rpc.". For any other object ok is false: classify
// its decoded value, whose diagnostics Classify words.
func (o *Object) Classify() (m Message, ok bool) {
	if !o.HasVersion || o.Version != "2.0" || !o.HasID && !o.HasMethod {
		return Message{}, false
	}
	if o.HasID {
		switch id := o.ID.(type) {
		case string:
		case json.Number:
			if n := rpcParseNumber(string(id)); !n.valid || !n.integer {
				return Message{}, false
			}
		default:
			return Message{}, false
		}
	}
	var kind Kind
	switch {
	case o.HasMethod && o.Result == nil:
		if strings.HasPrefix(o.Method, "rpc.") || o.Params != nil && (len(o.Params) == 0 || o.Params[0] != '{' && o.Params[0] != '[') {
			return Message{}, false
		}
		kind = KindNotification
		if o.HasID {
			kind = KindRequest
		}
	case !o.HasMethod && o.Result != nil && o.HasID:
		kind = KindResponse
	default:
		return Message{}, false
	}
	m = Message{Kind: kind, Shape: kind, ID: o.ID, HasID: o.HasID}
	if o.HasMethod {
		m.Method = o.Method
	}
	return m, true
}
