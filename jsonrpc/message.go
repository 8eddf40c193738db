package jsonrpc

// The JSON-RPC 2.0 rules that no JSON schema expresses: what kind of
// message a value is, and what is wrong with it. The rules follow
// https://www.jsonrpc.org/specification (sections 4 to 6).

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
)

// Kind is the kind of a JSON-RPC 2.0 message.
type Kind uint8

// The kinds of message Classify tells apart.
const (
	KindInvalid       Kind = iota // not a valid JSON-RPC 2.0 message
	KindRequest                   // a call with "method" and "id"
	KindNotification              // a call with "method" and no "id"
	KindResponse                  // a success response with "result"
	KindErrorResponse             // a failure response with "error"
	KindBatch                     // a non-empty array of messages
)

// String returns the kind's name: "invalid", "request", "notification",
// "response", "error-response" or "batch".
func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResponse:
		return "response"
	case KindErrorResponse:
		return "error-response"
	case KindBatch:
		return "batch"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Standard JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700 // the text is not JSON
	CodeInvalidRequest = -32600 // the JSON is not a valid message
	CodeMethodNotFound = -32601 // the method does not exist
	CodeInvalidParams  = -32602 // the parameters are wrong for the method
	CodeInternalError  = -32603 // the server failed
)

// The error codes the specification reserves, and the part of them left to
// server implementations.
const (
	rpcReservedMin    = -32768
	rpcReservedMax    = -32000
	rpcServerErrorMin = -32099
	rpcServerErrorMax = -32000
)

// Message is the classification of one decoded JSON-RPC value.
type Message struct {
	Kind   Kind
	ID     any    // the id as decoded; meaningful only when HasID
	HasID  bool   // the message has an "id" member (of any type)
	Method string // for requests and notifications, when "method" is a string
	// Shape is the kind the message has the form of, even when it breaks
	// a rule (Kind is then KindInvalid): a call with "method" and "id" is
	// shaped as a request. KindInvalid when it has none.
	Shape       Kind
	Members     []Message         // batch members in order; their diagnostics' pointers are prefixed with "/<index>"
	Diagnostics []diag.Diagnostic // about this value itself (for a batch: about the array, e.g. empty)
}

// Valid reports whether m and all its members have no error-severity
// diagnostic.
func (m Message) Valid() bool {
	for _, p := range m.Diagnostics {
		if p.Severity == diag.Error {
			return false
		}
	}
	for _, mm := range m.Members {
		if !mm.Valid() {
			return false
		}
	}
	return true
}

// AllDiagnostics returns m's diagnostics and its members', in document
// order: the value's own first, then each member's in turn.
func (m Message) AllDiagnostics() []diag.Diagnostic {
	if len(m.Members) == 0 {
		return m.Diagnostics
	}
	var all []diag.Diagnostic
	all = append(all, m.Diagnostics...)
	for _, mm := range m.Members {
		all = append(all, mm.AllDiagnostics()...)
	}
	return all
}

// Classify applies the JSON-RPC 2.0 rules to v, a value decoded by
// encoding/json (preferably with UseNumber). It never panics: values of other
// Go types are reported as problems.
func Classify(v any) Message {
	switch v := v.(type) {
	case map[string]any:
		return rpcClassifyObject(v)
	case []any:
		if len(v) == 0 {
			return rpcInvalid("", "empty batch: a batch must hold at least one request or response")
		}
		m := Message{Kind: KindBatch, Shape: KindBatch, Members: make([]Message, len(v))}
		for i, e := range v {
			var mm Message
			switch e := e.(type) {
			case map[string]any:
				mm = rpcClassifyObject(e)
			case []any:
				mm = rpcInvalid("", "a batch member must be an object, got an array: batches cannot be nested")
			default:
				mm = rpcInvalid("", "a batch member must be an object, got "+rpcShow(e))
			}
			// Prefix pointers only when there is something to report, so
			// that valid members cost no allocation.
			if len(mm.Diagnostics) > 0 {
				prefix := "/" + strconv.Itoa(i)
				for j := range mm.Diagnostics {
					mm.Diagnostics[j].Pointer = prefix + mm.Diagnostics[j].Pointer
				}
			}
			m.Members[i] = mm
		}
		return m
	default:
		return rpcInvalid("", "a JSON-RPC message must be an object or an array of objects, got "+rpcShow(v))
	}
}

// rpcInvalid returns an invalid message with one error at pointer.
func rpcInvalid(pointer, msg string) Message {
	m := Message{Kind: KindInvalid}
	m.errorf(pointer, msg)
	return m
}

// errorf records an error-severity rule diagnostic at pointer.
func (m *Message) errorf(pointer, msg string) {
	m.Diagnostics = append(m.Diagnostics, diag.Diagnostic{Pointer: pointer, Code: CodeInvalidRequest, Severity: diag.Error, Message: msg})
}

// warnf records a warning-severity rule diagnostic at pointer.
func (m *Message) warnf(pointer, msg string) {
	m.Diagnostics = append(m.Diagnostics, diag.Diagnostic{Pointer: pointer, Code: CodeInvalidRequest, Severity: diag.Warning, Message: msg})
}

// rpcClassifyObject classifies one message object. Pointers are relative to
// the object; Classify prefixes them for batch members.
func rpcClassifyObject(obj map[string]any) Message {
	var m Message
	if v, ok := obj["jsonrpc"]; !ok {
		m.errorf("/jsonrpc", `missing "jsonrpc": every message must have "jsonrpc": "2.0"`)
	} else if s, ok := v.(string); !ok || s != "2.0" {
		m.errorf("/jsonrpc", `"jsonrpc" must be the string "2.0", got `+rpcShow(v))
	}

	method, hasMethod := obj["method"]
	_, hasResult := obj["result"]
	errv, hasError := obj["error"]
	m.ID, m.HasID = obj["id"]

	var kind Kind
	switch {
	case hasMethod && (hasResult || hasError):
		m.errorf("", `a message cannot have both "method" and "result" or "error": a request has "method", a response has "result" or "error"`)
		m.checkID("a message")
	case hasMethod:
		kind = KindNotification
		if m.HasID {
			kind = KindRequest
		}
		if s, ok := method.(string); !ok {
			m.errorf("/method", `"method" must be a string, got `+rpcShow(method))
		} else {
			m.Method = s
			if strings.HasPrefix(s, "rpc.") {
				m.warnf("/method", `method `+rpcShow(s)+` starts with "rpc.", which the spec reserves for system extensions; use another name unless this is such an extension`)
			}
		}
		if p, ok := obj["params"]; ok {
			switch p.(type) {
			case map[string]any, []any, jsonparse.Undecoded: // undecoded: an object or an array
			default:
				m.errorf("/params", `"params" must be an object or an array, got `+rpcShow(p)+`; omit "params" when there are none`)
			}
		}
		if m.HasID && m.ID == nil {
			m.warnf("/id", `"id" is null: the spec discourages null ids in requests because a response with id null means the id could not be read; use a string or a number`)
		}
		m.checkID("a request")
	case hasResult || hasError:
		kind = KindResponse
		if hasError {
			kind = KindErrorResponse
		}
		if hasResult && hasError {
			m.errorf("", `a response must have exactly one of "result" and "error", got both`)
		}
		if !m.HasID {
			m.errorf("/id", `missing "id": a response must have the id of its request (null when that id could not be read)`)
		} else if m.ID == nil && !hasError {
			m.warnf("/id", `"id" is null in a success response: it should carry the id of the request it answers`)
		}
		m.checkID("a response")
		if hasError {
			m.checkErrorObject(errv)
		}
	default:
		m.errorf("", `neither a request nor a response: a request needs "method", a response needs "result" or "error"`)
		m.checkID("a message")
	}

	m.Kind, m.Shape = kind, kind
	for _, p := range m.Diagnostics {
		if p.Severity == diag.Error {
			m.Kind = KindInvalid
			break
		}
	}
	return m
}

// checkID checks the type of m.ID when the message has one; in names the kind
// of message for the warning. The null-id rules depend on the kind of message
// and are checked by the caller.
//
// An id number is judged by its value, not its spelling: 1.0 and 1e2 are
// integers and draw no warning. JSON gives 1.0 and 1 the same value, many
// encoders write one for the other, and the spec's advice is about fractional
// parts (decimal fractions that binary floating point cannot hold exactly),
// which 1.0 does not have.
func (m *Message) checkID(in string) {
	if !m.HasID {
		return
	}
	switch m.ID.(type) {
	case nil, string:
		return
	}
	n, isNum := rpcNumber(m.ID)
	switch {
	case !isNum:
		m.errorf("/id", `"id" must be a string, a number or null, got `+rpcShow(m.ID))
	case !n.valid:
		m.errorf("/id", `"id" is not a valid JSON number: `+rpcShow(m.ID))
	case !n.integer:
		m.warnf("/id", `"id" `+rpcShow(m.ID)+` in `+in+` has a fractional part, which the spec discourages; use an integer or a string`)
	}
}

// checkErrorObject checks the "error" member of an error response.
func (m *Message) checkErrorObject(v any) {
	obj, ok := v.(map[string]any)
	if !ok {
		m.errorf("/error", `"error" must be an object with "code" and "message", got `+rpcShow(v))
		return
	}
	if c, ok := obj["code"]; !ok {
		m.errorf("/error/code", `missing "code": an error object must have an integer "code"`)
	} else if n, isNum := rpcNumber(c); !isNum || !n.valid {
		m.errorf("/error/code", `"code" must be an integer, got `+rpcShow(c))
	} else if !n.integer {
		m.errorf("/error/code", `"code" must be an integer, got `+rpcShow(c)+`, which has a fractional part`)
	} else if !n.inInt64 {
		m.errorf("/error/code", `"code" `+rpcShow(c)+` is out of range for a 64-bit integer`)
	} else if rpcReservedMin <= n.i && n.i <= rpcReservedMax && !rpcKnownCode(n.i) {
		m.warnf("/error/code", `"code" `+strconv.FormatInt(n.i, 10)+` is in the range -32768..-32000 that the spec reserves, `+
			`but it is neither a predefined code nor a server error (-32099..-32000); use a code outside the reserved range`)
	}
	if s, ok := obj["message"]; !ok {
		m.errorf("/error/message", `missing "message": an error object must have a short "message" string`)
	} else if _, ok := s.(string); !ok {
		m.errorf("/error/message", `"message" must be a string, got `+rpcShow(s))
	}
}

// rpcKnownCode reports whether c is one of the five predefined codes or in the
// server-error range.
func rpcKnownCode(c int64) bool {
	switch c {
	case CodeParseError, CodeInvalidRequest, CodeMethodNotFound, CodeInvalidParams, CodeInternalError:
		return true
	}
	return rpcServerErrorMin <= c && c <= rpcServerErrorMax
}

// rpcNum describes a number: whether it is a valid JSON number, whether its
// value is an integer, and whether that integer fits an int64 (then i holds it).
type rpcNum struct {
	valid, integer, inInt64 bool
	i                       int64
}

// rpcNumber describes v if it is a number: a json.Number or any Go integer or
// floating-point type. isNum is false for every other type.
func rpcNumber(v any) (n rpcNum, isNum bool) {
	switch v := v.(type) {
	case json.Number:
		return rpcParseNumber(string(v)), true
	case float64:
		return rpcFloat(v), true
	case float32:
		return rpcFloat(float64(v)), true
	case int:
		return rpcInt(int64(v)), true
	case int8:
		return rpcInt(int64(v)), true
	case int16:
		return rpcInt(int64(v)), true
	case int32:
		return rpcInt(int64(v)), true
	case int64:
		return rpcInt(v), true
	case uint:
		return rpcUint(uint64(v)), true
	case uint8:
		return rpcUint(uint64(v)), true
	case uint16:
		return rpcUint(uint64(v)), true
	case uint32:
		return rpcUint(uint64(v)), true
	case uint64:
		return rpcUint(v), true
	case uintptr:
		return rpcUint(uint64(v)), true
	}
	return rpcNum{}, false
}

func rpcInt(i int64) rpcNum { return rpcNum{valid: true, integer: true, inInt64: true, i: i} }

func rpcUint(u uint64) rpcNum {
	if u > math.MaxInt64 {
		return rpcNum{valid: true, integer: true}
	}
	return rpcInt(int64(u))
}

func rpcFloat(f float64) rpcNum {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return rpcNum{} // JSON has no NaN or infinity
	}
	if f != math.Trunc(f) {
		return rpcNum{valid: true}
	}
	// -2^63 is exactly representable; 2^63 is the first float past MaxInt64.
	if f < -(1<<63) || f >= 1<<63 {
		return rpcNum{valid: true, integer: true}
	}
	return rpcInt(int64(f))
}

// rpcParseNumber reads s by the JSON number grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and judges its exact decimal
// value, without floating point and without allocating.
func rpcParseNumber(s string) rpcNum {
	i := 0
	neg := i < len(s) && s[i] == '-'
	if neg {
		i++
	}
	start := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && rpcIsDigit(s[i]) {
			i++
		}
	default:
		return rpcNum{}
	}
	intPart := s[start:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && rpcIsDigit(s[i]) {
			i++
		}
		if i == start {
			return rpcNum{}
		}
		frac = s[start:i]
	}
	// Exponents are clamped far beyond any int64 so that they cannot overflow.
	const expLimit = 1 << 30
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && rpcIsDigit(s[i]) {
			if exp < expLimit {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return rpcNum{}
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(s) {
		return rpcNum{}
	}

	// The value is the digits intPart+frac times 10^(exp-len(frac)). Trailing
	// zeros move into the exponent, leading zeros are dropped.
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		trimmed := strings.TrimRight(intPart, "0")
		exp += len(intPart) - len(trimmed)
		intPart = trimmed
	}
	exp -= len(frac)
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		frac = strings.TrimLeft(frac, "0")
	}
	if intPart == "" && frac == "" {
		return rpcInt(0)
	}
	if exp < 0 {
		return rpcNum{valid: true}
	}
	// An int64 has at most 19 digits, and 19 digits fit a uint64.
	if len(intPart)+len(frac)+exp > 19 {
		return rpcNum{valid: true, integer: true}
	}
	var u uint64
	for _, part := range [2]string{intPart, frac} {
		for j := 0; j < len(part); j++ {
			u = u*10 + uint64(part[j]-'0')
		}
	}
	for ; exp > 0; exp-- {
		u *= 10
	}
	switch {
	case !neg && u <= math.MaxInt64:
		return rpcInt(int64(u))
	case neg && u <= 1<<63:
		return rpcInt(int64(-u)) // two's complement: -(1<<63) wraps to MinInt64
	}
	return rpcNum{valid: true, integer: true}
}

func rpcIsDigit(c byte) bool { return '0' <= c && c <= '9' }

// rpcShow renders a decoded value briefly for a message: scalars as JSON,
// long strings cut short, containers by their type.
func rpcShow(v any) string {
	const max = 40
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case string:
		if len(v) > max {
			cut := max
			for cut > 0 && !rpcRuneStart(v[cut]) {
				cut--
			}
			return strconv.Quote(v[:cut]) + "..."
		}
		return strconv.Quote(v)
	case json.Number:
		if len(v) > max {
			return string(v[:max]) + "..."
		}
		return string(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32)
	}
	if _, ok := rpcNumber(v); ok {
		return fmt.Sprint(v)
	}
	return "a value that is not JSON"
}

// rpcRuneStart reports whether b can begin a UTF-8 sequence.
func rpcRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Err returns the first error-severity diagnostic of m or its members, as
// an error (a *diag.Diagnostic), or nil when m is valid.
func (m Message) Err() error {
	for _, d := range m.AllDiagnostics() {
		if d.Severity == diag.Error {
			return &d
		}
	}
	return nil
}

// Decode decodes the JSON text of one message (or batch) into the values
// Classify and the rest of jrpcld take: objects as map[string]any, arrays
// as []any, numbers as json.Number (never rounded through float64). It is
// stricter than encoding/json: invalid UTF-8 and lone UTF-16 surrogate
// escapes are errors, as in a log. A syntax error is a *diag.Diagnostic
// with the code -32700 and the 1-based byte column.
func Decode(text []byte) (any, error) {
	p := jsonparse.Parser{MaxDepth: maxDecodeDepth}
	v, perr := p.Parse(text)
	if perr != nil {
		return nil, &diag.Diagnostic{Column: perr.Offset + 1, Code: CodeParseError, Severity: diag.Error, Message: perr.Msg}
	}
	return v, nil
}

// maxDecodeDepth is the deepest nesting Decode accepts, as a log reader
// does by default.
const maxDecodeDepth = 512
