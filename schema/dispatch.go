package schema

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema/kind"
)

// dispatch picks, for MCP-style schemas, the definition a message is checked
// against: a request or notification by its method (the definition whose
// "method" is a const equal to it), a response by the request it answers.
type dispatch struct {
	// methods maps a method to the definitions with its constant; where a
	// schema has several (2026-07-28 defines notifications/cancelled twice),
	// a message must match one of them, and those named like a request or
	// notification come first.
	methods map[string][]*methodDef

	// Definitions for messages without a method definition, or nil.
	request, notification, resultResponse, errorResponse *def
	// serverResult answers requests of the client, clientResult those of
	// the server; either may be nil.
	serverResult, clientResult *def
	// serverOther and clientOther are the alternatives of serverResult's
	// and clientResult's union that no request's result is named after
	// (Result, EmptyResult, an inline {}): the results a request whose
	// own result the schema does not name (ping) may get.
	serverOther, clientOther []*def
	// results are the definitions named ...Result, by name, which an
	// Observer may choose for a response (see Choice.Results).
	results map[string]*def
	// errorIDOptional tells that the error response definition does not
	// require "id" (MCP since 2025-11-25).
	errorIDOptional bool
}

type methodDef struct {
	def
	result *def // nil when no definition is named after the request
}

// def is one compiled definition. message says whether it describes a
// whole message (true) or only the value of "result" (false).
type def struct {
	name    string
	sch     *jsonschema.Schema
	message bool
}

// newDispatch scans the schema's definitions ($defs or definitions) for
// method constants. It returns nil when there are none: the schema is then
// applied whole to every message.
func newDispatch(s *Schema, doc any) (*dispatch, error) {
	root, _ := doc.(map[string]any)
	defsKey := ""
	var defs map[string]any
	for _, k := range []string{"$defs", "definitions"} {
		if m, ok := root[k].(map[string]any); ok {
			defsKey, defs = k, m
			break
		}
	}
	d := &dispatch{methods: map[string][]*methodDef{}, results: map[string]*def{}}
	get := func(names ...string) (*def, error) {
		for _, n := range names {
			if _, ok := defs[n]; !ok {
				continue
			}
			sch, err := s.compileURL(s.url + "#/" + defsKey + "/" + jsonptr.Escape(n))
			if err != nil {
				return nil, err
			}
			return &def{name: n, sch: sch, message: describesMessage(sch, 0)}, nil
		}
		return nil, nil
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasSuffix(n, "Result") {
			df, err := get(n)
			if err != nil {
				return nil, err
			}
			d.results[n] = df
		}
		m, _ := defs[n].(map[string]any)
		props, _ := m["properties"].(map[string]any)
		meth, _ := props["method"].(map[string]any)
		c, ok := meth["const"].(string)
		if !ok {
			continue
		}
		md, err := get(n)
		if err != nil {
			return nil, err
		}
		// The response to a request: a whole-message definition named after
		// it where the schema has one (2026-07-28: ReadResourceResultResponse,
		// whose result may also be an InputRequiredResult), else the result's.
		base := strings.TrimSuffix(n, "Request")
		res, err := get(base+"ResultResponse", base+"Result")
		if err != nil {
			return nil, err
		}
		if !strings.HasSuffix(n, "Request") {
			res = nil
		}
		d.methods[c] = append(d.methods[c], &methodDef{def: *md, result: res})
	}
	for _, list := range d.methods {
		sort.SliceStable(list, func(i, j int) bool { return conventional(list[i].name) && !conventional(list[j].name) })
	}
	if len(d.methods) == 0 {
		return nil, nil
	}
	var err error
	for _, x := range []struct {
		p     **def
		names []string
	}{
		{&d.request, []string{"JSONRPCRequest"}},
		{&d.notification, []string{"JSONRPCNotification"}},
		{&d.resultResponse, []string{"JSONRPCResultResponse", "JSONRPCResponse"}},
		{&d.errorResponse, []string{"JSONRPCErrorResponse", "JSONRPCError"}},
		{&d.serverResult, []string{"ServerResult"}},
		{&d.clientResult, []string{"ClientResult"}},
	} {
		if *x.p, err = get(x.names...); err != nil {
			return nil, err
		}
	}
	d.errorIDOptional = d.errorResponse != nil && !slices.Contains(d.errorResponse.sch.Required, "id")
	claimed := map[string]bool{}
	for _, n := range names {
		if base, ok := strings.CutSuffix(n, "Request"); ok {
			claimed[base+"Result"], claimed[base+"ResultResponse"] = true, true
		}
	}
	d.serverOther, d.clientOther = unclaimed(d.serverResult, claimed), unclaimed(d.clientResult, claimed)
	return d, nil
}

// unclaimed returns the alternatives of union's anyOf or oneOf whose
// definition's name is not in claimed (an inline alternative has none), or
// nil when union is nil or no union.
func unclaimed(union *def, claimed map[string]bool) []*def {
	if union == nil {
		return nil
	}
	sch := union.sch
	for sch.Ref != nil && len(sch.AnyOf) == 0 && len(sch.OneOf) == 0 {
		sch = sch.Ref
	}
	alts := sch.AnyOf
	if len(alts) == 0 {
		alts = sch.OneOf
	}
	var out []*def
	for _, a := range alts {
		name := ""
		if a.Ref != nil {
			_, frag, _ := strings.Cut(a.Ref.Location, "#")
			name = frag[strings.LastIndex(frag, "/")+1:]
		}
		if !claimed[name] {
			out = append(out, &def{name: name, sch: a, message: describesMessage(a, 0)})
		}
	}
	return out
}

func conventional(name string) bool {
	return strings.HasSuffix(name, "Request") || strings.HasSuffix(name, "Notification")
}

// describesMessage reports whether a definition describes a whole JSON-RPC
// message (it names "jsonrpc", "id" or "result", itself or through allOf and
// $ref) rather than the value of a result.
func describesMessage(sch *jsonschema.Schema, depth int) bool {
	if sch == nil || depth > 16 {
		return false
	}
	for _, k := range []string{"jsonrpc", "result", "method"} {
		if _, ok := sch.Properties[k]; ok {
			return true
		}
		for _, r := range sch.Required {
			if r == k {
				return true
			}
		}
	}
	if describesMessage(sch.Ref, depth+1) {
		return true
	}
	for _, a := range sch.AllOf {
		if describesMessage(a, depth+1) {
			return true
		}
	}
	// A union of whole messages (the OGC block's ServerResult: an anyOf of
	// definitions that are each a JSON-RPC response) describes one too.
	for _, alts := range [][]*jsonschema.Schema{sch.AnyOf, sch.OneOf} {
		if len(alts) > 0 && !slices.ContainsFunc(alts, func(a *jsonschema.Schema) bool { return !describesMessage(a, depth+1) }) {
			return true
		}
	}
	return false
}

// check validates one message v (not a batch) of classification m, whose
// JSON text is raw (nil when unknown), with c. dir is the message's
// direction; answers is the method of the request a response answers, or
// "" when the log does not show it.
func (d *dispatch) check(c *Checker, m jsonrpc.Message, v any, raw []byte, dir jsonrpc.Direction, answers, prefix string) []diag.Diagnostic {
	switch m.Kind {
	case jsonrpc.KindRequest, jsonrpc.KindNotification:
		if mds := d.methods[m.Method]; len(mds) > 0 {
			var first []diag.Diagnostic
			for i, md := range mds {
				probs := c.validate(md.sch, v, raw, prefix)
				if len(probs) == 0 {
					return nil
				}
				if i == 0 {
					first = probs
				}
			}
			return first
		}
		return d.unknownMethod(c, m, v, raw, prefix)
	case jsonrpc.KindResponse:
		if mds := d.methods[answers]; len(mds) > 0 {
			if mds[0].result != nil {
				return d.validateResult(c, mds[0].result, v, raw, prefix)
			}
			// A request the schema defines but names no result for (ping):
			// its result is one of those no other request claims.
			if probs, ok := d.validateOthers(c, d.others(dir), v, raw, prefix); ok {
				return probs
			}
		}
		// The request is not in the log, or has no result definition: the
		// result must be one of those the answering side may send.
		var cands []*def
		switch dir {
		case jsonrpc.ServerToClient:
			cands = []*def{d.serverResult}
		case jsonrpc.ClientToServer:
			cands = []*def{d.clientResult}
		default:
			cands = []*def{d.serverResult, d.clientResult}
		}
		var best []diag.Diagnostic
		tried := false
		for _, cand := range cands {
			if cand == nil {
				continue
			}
			probs := d.validateResult(c, cand, v, raw, prefix)
			if len(probs) == 0 {
				return nil
			}
			if !tried || len(probs) < len(best) {
				best = probs
			}
			tried = true
		}
		if !tried {
			return d.validate(c, d.resultResponse, v, raw, prefix)
		}
		return best
	case jsonrpc.KindErrorResponse:
		return d.validate(c, d.errorResponse, v, raw, prefix)
	}
	return nil
}

// unknownMethod checks a request or notification whose method the schema
// does not define. Where the schema has a generic definition for it
// (JSONRPCRequest), a warning says so and the message is checked against
// that. Where it has none, as in the OGC MCP block whose schema is a union
// of its messages, the whole schema is the check: a message it accepts
// gets the warning alone, one it rejects a single error naming the method,
// since every alternative would fail on it.
func (d *dispatch) unknownMethod(c *Checker, m jsonrpc.Message, v any, raw []byte, prefix string) []diag.Diagnostic {
	s := c.schema
	p := diag.Diagnostic{Pointer: prefix + "/method", Code: jsonrpc.CodeMethodNotFound, Severity: diag.Warning, Violation: kind.MethodUnknown,
		Message: fmt.Sprintf("method %q is not defined by schema %s; checked as a generic %s", m.Method, s.name, m.Kind)}
	generic := d.request
	if m.Kind == jsonrpc.KindNotification {
		generic = d.notification
	}
	if generic != nil {
		return append([]diag.Diagnostic{p}, d.validate(c, generic, v, raw, prefix)...)
	}
	if len(d.validate(c, nil, v, raw, prefix)) == 0 {
		return []diag.Diagnostic{p}
	}
	p.Severity = diag.Error
	p.Message = fmt.Sprintf("method %q is not one of the %d methods schema %s defines, and the schema has no %s of any other method; correct the method's name, or check the log against a schema that defines it",
		m.Method, len(d.methods), s.name, m.Kind)
	return []diag.Diagnostic{p}
}

// others returns the results, not named after any request, that a
// response going in direction dir may carry.
func (d *dispatch) others(dir jsonrpc.Direction) []*def {
	switch dir {
	case jsonrpc.ServerToClient:
		return d.serverOther
	case jsonrpc.ClientToServer:
		return d.clientOther
	}
	return append(slices.Clip(d.serverOther), d.clientOther...)
}

// validateOthers checks a success response against alts: valid when it
// matches one; else the problems of the alternative with the fewest. ok is
// false when alts is empty.
func (d *dispatch) validateOthers(c *Checker, alts []*def, v any, raw []byte, prefix string) (probs []diag.Diagnostic, ok bool) {
	for i, alt := range alts {
		p := d.validateResult(c, alt, v, raw, prefix)
		if len(p) == 0 {
			return nil, true
		}
		if i == 0 || len(p) < len(probs) {
			probs = p
		}
	}
	return probs, len(alts) > 0
}

// checkResults is check, but for a success response when results names
// the definitions its result may match (see Choice.Results): it is valid
// when it matches one of them; else its diagnostics are the first's.
func (d *dispatch) checkResults(c *Checker, m jsonrpc.Message, v any, raw []byte, dir jsonrpc.Direction, answers string, results []string, prefix string) []diag.Diagnostic {
	if m.Kind != jsonrpc.KindResponse || len(results) == 0 {
		return d.check(c, m, v, raw, dir, answers, prefix)
	}
	var first []diag.Diagnostic
	for i, name := range results {
		var probs []diag.Diagnostic
		if df := d.results[name]; df != nil {
			probs = d.validateResult(c, df, v, raw, prefix)
		} else {
			probs = d.check(c, m, v, raw, dir, answers, prefix)
		}
		if len(probs) == 0 {
			return nil
		}
		if i == 0 {
			first = probs
		}
	}
	return first
}

// validate checks v against df, or against the whole schema when df is nil.
func (d *dispatch) validate(c *Checker, df *def, v any, raw []byte, prefix string) []diag.Diagnostic {
	if df == nil {
		return c.validate(c.schema.root, v, raw, prefix)
	}
	return c.validate(df.sch, v, raw, prefix)
}

// validateResult checks a success response against a result definition: the
// whole message when the definition describes one, or else the message
// against the generic response definition and its "result" against df.
func (d *dispatch) validateResult(c *Checker, df *def, v any, raw []byte, prefix string) []diag.Diagnostic {
	if df.message {
		return c.validate(df.sch, v, raw, prefix)
	}
	probs := d.validate(c, d.resultResponse, v, raw, prefix)
	var result []byte
	if raw != nil {
		result = c.eval.idx.member(raw, "result")
	}
	var rv any // wanted only without the text of "result"
	if result == nil {
		obj, _ := v.(map[string]any)
		if obj == nil && raw != nil {
			// A message read typed (rpclog.BatchOptions.Typed) has no value.
			full, _ := c.eval.decode(raw)
			obj, _ = full.(map[string]any)
		}
		rv = obj["result"]
	}
	return append(probs, c.validate(df.sch, rv, result, prefix+"/result")...)
}
