package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// rpcDecode decodes exactly one JSON value the way callers of Classify do.
func rpcDecode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// rpcWant is one expected problem: where, which code, how bad.
type rpcWant struct {
	pointer string
	code    int
	sev     diag.Severity
}

func rpcErr(pointer string) rpcWant  { return rpcWant{pointer, CodeInvalidRequest, diag.Error} }
func rpcWarn(pointer string) rpcWant { return rpcWant{pointer, CodeInvalidRequest, diag.Warning} }

// rpcCheck compares m with the expected kind, batch member kinds and
// problems, and checks that Valid agrees with the expected severities.
func rpcCheck(t *testing.T, m Message, kind Kind, members []Kind, want []rpcWant) {
	t.Helper()
	if m.Kind != kind {
		t.Errorf("Kind = %v, want %v", m.Kind, kind)
	}
	var gotMembers []Kind
	for _, mm := range m.Members {
		gotMembers = append(gotMembers, mm.Kind)
	}
	if !reflect.DeepEqual(gotMembers, members) {
		t.Errorf("member kinds = %v, want %v", gotMembers, members)
	}
	var got []rpcWant
	for _, p := range m.AllDiagnostics() {
		got = append(got, rpcWant{p.Pointer, p.Code, p.Severity})
		if p.Message == "" {
			t.Errorf("problem at %q has an empty message", p.Pointer)
		}
		if p.Schema != "" {
			t.Errorf("rule problem at %q has Schema %q", p.Pointer, p.Schema)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %v, want %v\nall: %+v", got, want, m.AllDiagnostics())
	}
	wantValid := true
	for _, w := range want {
		if w.sev == diag.Error {
			wantValid = false
		}
	}
	if m.Valid() != wantValid {
		t.Errorf("Valid() = %v, want %v", m.Valid(), wantValid)
	}
}

func TestClassifyRules(t *testing.T) {
	E, W := rpcErr, rpcWarn
	tests := []struct {
		name    string
		text    string
		kind    Kind
		members []Kind
		want    []rpcWant
		method  string // checked when set
		msg     string // a substring of the first problem's message, checked when set
	}{
		// Not an object or an array.
		{name: "number", text: `1`, want: []rpcWant{E("")}, msg: "must be an object or an array of objects, got 1"},
		{name: "string", text: `"x"`, want: []rpcWant{E("")}, msg: `got "x"`},
		{name: "null", text: `null`, want: []rpcWant{E("")}, msg: "got null"},
		{name: "boolean", text: `true`, want: []rpcWant{E("")}, msg: "got true"},

		// jsonrpc.
		{name: "request", text: `{"jsonrpc":"2.0","method":"m","id":1}`, kind: KindRequest, method: "m"},
		{name: "jsonrpc missing", text: `{"method":"m","id":1}`, want: []rpcWant{E("/jsonrpc")}, msg: `missing "jsonrpc"`},
		{name: "jsonrpc number", text: `{"jsonrpc":2,"method":"m","id":1}`, want: []rpcWant{E("/jsonrpc")}, msg: `"jsonrpc" must be the string "2.0", got 2`},
		{name: "jsonrpc 2.0 number", text: `{"jsonrpc":2.0,"method":"m","id":1}`, want: []rpcWant{E("/jsonrpc")}, msg: "got 2.0"},
		{name: "jsonrpc 1.0", text: `{"jsonrpc":"1.0","method":"m","id":1}`, want: []rpcWant{E("/jsonrpc")}, msg: `got "1.0"`},
		{name: "jsonrpc null", text: `{"jsonrpc":null,"result":1,"id":1}`, want: []rpcWant{E("/jsonrpc")}},

		// method and params.
		{name: "method number", text: `{"jsonrpc":"2.0","method":1,"id":1}`, want: []rpcWant{E("/method")}, msg: `"method" must be a string, got 1`},
		{name: "method null", text: `{"jsonrpc":"2.0","method":null}`, want: []rpcWant{E("/method")}},
		{name: "method object", text: `{"jsonrpc":"2.0","method":{},"id":"a"}`, want: []rpcWant{E("/method")}, msg: "got an object"},
		{name: "notification", text: `{"jsonrpc":"2.0","method":"update"}`, kind: KindNotification, method: "update"},
		{name: "params array", text: `{"jsonrpc":"2.0","method":"m","params":[1,2],"id":1}`, kind: KindRequest},
		{name: "params object", text: `{"jsonrpc":"2.0","method":"m","params":{"a":1}}`, kind: KindNotification},
		{name: "params empty array", text: `{"jsonrpc":"2.0","method":"m","params":[],"id":1}`, kind: KindRequest},
		{name: "params string", text: `{"jsonrpc":"2.0","method":"m","params":"bar","id":1}`, want: []rpcWant{E("/params")}, msg: `"params" must be an object or an array, got "bar"`},
		{name: "params null", text: `{"jsonrpc":"2.0","method":"m","params":null}`, want: []rpcWant{E("/params")}},
		{name: "params number", text: `{"jsonrpc":"2.0","method":"m","params":3,"id":1}`, want: []rpcWant{E("/params")}},
		{name: "rpc. method", text: `{"jsonrpc":"2.0","method":"rpc.discover","id":1}`, kind: KindRequest, want: []rpcWant{W("/method")}, method: "rpc.discover", msg: `"rpc."`},
		{name: "rpc. notification", text: `{"jsonrpc":"2.0","method":"rpc."}`, kind: KindNotification, want: []rpcWant{W("/method")}},
		{name: "rpc without dot", text: `{"jsonrpc":"2.0","method":"rpcfoo","id":1}`, kind: KindRequest},
		{name: "RPC. upper case", text: `{"jsonrpc":"2.0","method":"RPC.x","id":1}`, kind: KindRequest},

		// id.
		{name: "id string", text: `{"jsonrpc":"2.0","method":"m","id":"abc"}`, kind: KindRequest},
		{name: "id empty string", text: `{"jsonrpc":"2.0","method":"m","id":""}`, kind: KindRequest},
		{name: "id negative", text: `{"jsonrpc":"2.0","method":"m","id":-7}`, kind: KindRequest},
		{name: "id boolean", text: `{"jsonrpc":"2.0","method":"m","id":true}`, want: []rpcWant{E("/id")}, msg: `"id" must be a string, a number or null, got true`},
		{name: "id object", text: `{"jsonrpc":"2.0","method":"m","id":{}}`, want: []rpcWant{E("/id")}},
		{name: "id array", text: `{"jsonrpc":"2.0","method":"m","id":[1]}`, want: []rpcWant{E("/id")}},
		{name: "request id null", text: `{"jsonrpc":"2.0","method":"m","id":null}`, kind: KindRequest, want: []rpcWant{W("/id")}, msg: "null"},
		{name: "id fraction", text: `{"jsonrpc":"2.0","method":"m","id":1.5}`, kind: KindRequest, want: []rpcWant{W("/id")}, msg: "1.5"},
		{name: "id small fraction", text: `{"jsonrpc":"2.0","method":"m","id":1e-3}`, kind: KindRequest, want: []rpcWant{W("/id")}},
		{name: "id 1.0 is integral", text: `{"jsonrpc":"2.0","method":"m","id":1.0}`, kind: KindRequest},
		{name: "id 1e2 is integral", text: `{"jsonrpc":"2.0","method":"m","id":1e2}`, kind: KindRequest},
		{name: "id 1.25e1 is fractional", text: `{"jsonrpc":"2.0","method":"m","id":1.25e1}`, kind: KindRequest, want: []rpcWant{W("/id")}},
		{name: "id huge integer", text: `{"jsonrpc":"2.0","method":"m","id":123456789012345678901234567890}`, kind: KindRequest},
		{name: "response id fraction", text: `{"jsonrpc":"2.0","result":1,"id":0.5}`, kind: KindResponse, want: []rpcWant{W("/id")}},
		{name: "response id boolean", text: `{"jsonrpc":"2.0","result":1,"id":false}`, want: []rpcWant{E("/id")}},

		// Responses.
		{name: "response", text: `{"jsonrpc":"2.0","result":19,"id":1}`, kind: KindResponse},
		{name: "result null", text: `{"jsonrpc":"2.0","result":null,"id":1}`, kind: KindResponse},
		{name: "result false", text: `{"jsonrpc":"2.0","result":false,"id":"a"}`, kind: KindResponse},
		{name: "result empty string", text: `{"jsonrpc":"2.0","result":"","id":2}`, kind: KindResponse},
		{name: "result array", text: `{"jsonrpc":"2.0","result":["hello",5],"id":"9"}`, kind: KindResponse},
		{name: "error response", text: `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}`, kind: KindErrorResponse},
		{name: "error with data", text: `{"jsonrpc":"2.0","error":{"code":1,"message":"m","data":{"x":[1]}},"id":1}`, kind: KindErrorResponse},
		{name: "error with null data", text: `{"jsonrpc":"2.0","error":{"code":1,"message":"","data":null},"id":1}`, kind: KindErrorResponse},
		{name: "result and error", text: `{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"m"},"id":1}`, want: []rpcWant{E("")}, msg: "exactly one of"},
		{name: "response without id", text: `{"jsonrpc":"2.0","result":1}`, want: []rpcWant{E("/id")}, msg: `missing "id"`},
		{name: "error response without id", text: `{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}`, want: []rpcWant{E("/id")}},
		{name: "success id null", text: `{"jsonrpc":"2.0","result":1,"id":null}`, kind: KindResponse, want: []rpcWant{W("/id")}},
		{name: "error id null", text: `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}`, kind: KindErrorResponse},
		{name: "error string", text: `{"jsonrpc":"2.0","error":"boom","id":1}`, want: []rpcWant{E("/error")}, msg: `"error" must be an object`},
		{name: "error null", text: `{"jsonrpc":"2.0","error":null,"id":1}`, want: []rpcWant{E("/error")}},
		{name: "error array", text: `{"jsonrpc":"2.0","error":[],"id":1}`, want: []rpcWant{E("/error")}},
		{name: "code missing", text: `{"jsonrpc":"2.0","error":{"message":"m"},"id":1}`, want: []rpcWant{E("/error/code")}, msg: `missing "code"`},
		{name: "code string", text: `{"jsonrpc":"2.0","error":{"code":"-32600","message":"m"},"id":1}`, want: []rpcWant{E("/error/code")}, msg: `got "-32600"`},
		{name: "code null", text: `{"jsonrpc":"2.0","error":{"code":null,"message":"m"},"id":1}`, want: []rpcWant{E("/error/code")}},
		{name: "code fraction", text: `{"jsonrpc":"2.0","error":{"code":1.5,"message":"m"},"id":1}`, want: []rpcWant{E("/error/code")}, msg: "fractional"},
		{name: "code 1.0 integral", text: `{"jsonrpc":"2.0","error":{"code":1.0,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code 1e3 integral", text: `{"jsonrpc":"2.0","error":{"code":1e3,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code int64 max", text: `{"jsonrpc":"2.0","error":{"code":9223372036854775807,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code int64 min", text: `{"jsonrpc":"2.0","error":{"code":-9223372036854775808,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code past int64", text: `{"jsonrpc":"2.0","error":{"code":9223372036854775808,"message":"m"},"id":1}`, want: []rpcWant{E("/error/code")}, msg: "out of range"},
		{name: "code 1e30", text: `{"jsonrpc":"2.0","error":{"code":1e30,"message":"m"},"id":1}`, want: []rpcWant{E("/error/code")}, msg: "out of range"},
		{name: "message missing", text: `{"jsonrpc":"2.0","error":{"code":1},"id":1}`, want: []rpcWant{E("/error/message")}, msg: `missing "message"`},
		{name: "message number", text: `{"jsonrpc":"2.0","error":{"code":1,"message":2},"id":1}`, want: []rpcWant{E("/error/message")}, msg: `"message" must be a string, got 2`},
		{name: "error empty object", text: `{"jsonrpc":"2.0","error":{},"id":1}`, want: []rpcWant{E("/error/code"), E("/error/message")}},
		{name: "code -32500 reserved", text: `{"jsonrpc":"2.0","error":{"code":-32500,"message":"m"},"id":1}`, kind: KindErrorResponse, want: []rpcWant{W("/error/code")}, msg: "-32500"},
		{name: "code -32768 reserved", text: `{"jsonrpc":"2.0","error":{"code":-32768,"message":"m"},"id":1}`, kind: KindErrorResponse, want: []rpcWant{W("/error/code")}},
		{name: "code -32100 reserved", text: `{"jsonrpc":"2.0","error":{"code":-32100,"message":"m"},"id":1}`, kind: KindErrorResponse, want: []rpcWant{W("/error/code")}},
		{name: "code -32099 server", text: `{"jsonrpc":"2.0","error":{"code":-32099,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code -32000 server", text: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code -32769 application", text: `{"jsonrpc":"2.0","error":{"code":-32769,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code -31999 application", text: `{"jsonrpc":"2.0","error":{"code":-31999,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code -32602 predefined", text: `{"jsonrpc":"2.0","error":{"code":-32602,"message":"m"},"id":1}`, kind: KindErrorResponse},
		{name: "code -32603 predefined", text: `{"jsonrpc":"2.0","error":{"code":-32603,"message":"m"},"id":1}`, kind: KindErrorResponse},

		// Mixed and unknown shapes.
		{name: "method and result", text: `{"jsonrpc":"2.0","method":"m","result":1,"id":1}`, want: []rpcWant{E("")}, msg: `both "method" and "result"`},
		{name: "method and error", text: `{"jsonrpc":"2.0","method":"m","error":{"code":1,"message":"m"},"id":1}`, want: []rpcWant{E("")}},
		{name: "method and result, bad id", text: `{"jsonrpc":"2.0","method":"m","result":1,"id":true}`, want: []rpcWant{E(""), E("/id")}},
		{name: "neither", text: `{"jsonrpc":"2.0","id":1}`, want: []rpcWant{E("")}, msg: "neither a request nor a response"},
		{name: "foo boo", text: `{"foo":"boo"}`, want: []rpcWant{E("/jsonrpc"), E("")}},
		{name: "empty object", text: `{}`, want: []rpcWant{E("/jsonrpc"), E("")}},
		{name: "extra members", text: `{"jsonrpc":"2.0","method":"m","id":1,"x":1,"_meta":{}}`, kind: KindRequest},
		{name: "extra members response", text: `{"jsonrpc":"2.0","result":1,"id":1,"x":null}`, kind: KindResponse},
		{name: "many errors", text: `{"jsonrpc":"1.0","method":1,"params":"x","id":true}`, want: []rpcWant{E("/jsonrpc"), E("/method"), E("/params"), E("/id")}},

		// Batches.
		{name: "empty batch", text: `[]`, want: []rpcWant{E("")}, msg: "empty batch"},
		{name: "batch of one number", text: `[1]`, kind: KindBatch, members: []Kind{KindInvalid}, want: []rpcWant{E("/0")}, msg: "got 1"},
		{name: "nested array", text: `[[]]`, kind: KindBatch, members: []Kind{KindInvalid}, want: []rpcWant{E("/0")}, msg: "nested"},
		{name: "nested batch", text: `[[{"jsonrpc":"2.0","method":"m"}]]`, kind: KindBatch, members: []Kind{KindInvalid}, want: []rpcWant{E("/0")}},
		{name: "batch mixed", text: `[{"jsonrpc":"2.0","method":"m"},{"jsonrpc":2,"method":"m"},null,{"jsonrpc":"2.0","result":1,"id":3}]`,
			kind: KindBatch, members: []Kind{KindNotification, KindInvalid, KindInvalid, KindResponse}, want: []rpcWant{E("/1/jsonrpc"), E("/2")}},
		{name: "batch member warning", text: `[{"jsonrpc":"2.0","method":"rpc.x","id":1},{"jsonrpc":"2.0","error":{"code":-32001,"message":"m"},"id":null}]`,
			kind: KindBatch, members: []Kind{KindRequest, KindErrorResponse}, want: []rpcWant{W("/0/method")}},
		{name: "batch member deep pointer", text: `[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","error":{"code":"x","message":"m"},"id":2}]`,
			kind: KindBatch, members: []Kind{KindResponse, KindInvalid}, want: []rpcWant{E("/1/error/code")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := rpcDecode([]byte(tt.text))
			if err != nil {
				t.Fatalf("bad test input %s: %v", tt.text, err)
			}
			m := Classify(v)
			rpcCheck(t, m, tt.kind, tt.members, tt.want)
			if tt.method != "" && m.Method != tt.method {
				t.Errorf("Method = %q, want %q", m.Method, tt.method)
			}
			if tt.msg != "" {
				if all := m.AllDiagnostics(); len(all) == 0 || !strings.Contains(all[0].Message, tt.msg) {
					t.Errorf("first problem %+v does not mention %q", all, tt.msg)
				}
			}
		})
	}
}

func TestClassifyIDAndMethod(t *testing.T) {
	tests := []struct {
		text   string
		id     any
		hasID  bool
		method string
	}{
		{`{"jsonrpc":"2.0","method":"sum","id":"1"}`, "1", true, "sum"},
		{`{"jsonrpc":"2.0","method":"sum","id":7}`, json.Number("7"), true, "sum"},
		{`{"jsonrpc":"2.0","method":"sum","id":null}`, nil, true, "sum"},
		{`{"jsonrpc":"2.0","method":"hello"}`, nil, false, "hello"},
		{`{"jsonrpc":"2.0","result":1,"id":-3}`, json.Number("-3"), true, ""},
		{`{"jsonrpc":"2.0","method":5,"id":true}`, true, true, ""},
	}
	for _, tt := range tests {
		v, err := rpcDecode([]byte(tt.text))
		if err != nil {
			t.Fatal(err)
		}
		m := Classify(v)
		if m.HasID != tt.hasID || !reflect.DeepEqual(m.ID, tt.id) || m.Method != tt.method {
			t.Errorf("%s: got id %#v (has %v) method %q, want %#v (has %v) %q", tt.text, m.ID, m.HasID, m.Method, tt.id, tt.hasID, tt.method)
		}
	}
}

// TestClassifyGoValues feeds values that encoding/json without UseNumber, or
// a Go caller, may produce: other number types and types JSON never decodes to.
func TestClassifyGoValues(t *testing.T) {
	E, W := rpcErr, rpcWarn
	req := func(id any) map[string]any { return map[string]any{"jsonrpc": "2.0", "method": "m", "id": id} }
	errResp := func(code any) map[string]any {
		return map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": code, "message": "m"}}
	}
	tests := []struct {
		name    string
		v       any
		kind    Kind
		members []Kind
		want    []rpcWant
	}{
		{"nil", nil, KindInvalid, nil, []rpcWant{E("")}},
		{"struct", struct{}{}, KindInvalid, nil, []rpcWant{E("")}},
		{"map of strings", map[string]string{"jsonrpc": "2.0"}, KindInvalid, nil, []rpcWant{E("")}},
		{"slice of strings", []string{"a"}, KindInvalid, nil, []rpcWant{E("")}},
		{"id int", req(1), KindRequest, nil, nil},
		{"id int64", req(int64(-5)), KindRequest, nil, nil},
		{"id int8", req(int8(3)), KindRequest, nil, nil},
		{"id uint64 max", req(uint64(math.MaxUint64)), KindRequest, nil, nil},
		{"id float64 integral", req(2.0), KindRequest, nil, nil},
		{"id float64 fraction", req(1.5), KindRequest, nil, []rpcWant{W("/id")}},
		{"id float32 fraction", req(float32(0.25)), KindRequest, nil, []rpcWant{W("/id")}},
		{"id NaN", req(math.NaN()), KindInvalid, nil, []rpcWant{E("/id")}},
		{"id +Inf", req(math.Inf(1)), KindInvalid, nil, []rpcWant{E("/id")}},
		{"id bad json.Number", req(json.Number("abc")), KindInvalid, nil, []rpcWant{E("/id")}},
		{"id struct", req(struct{}{}), KindInvalid, nil, []rpcWant{E("/id")}},
		{"params []string", map[string]any{"jsonrpc": "2.0", "method": "m", "params": []string{"a"}}, KindInvalid, nil, []rpcWant{E("/params")}},
		{"code int", errResp(-32601), KindErrorResponse, nil, nil},
		{"code float64", errResp(-32601.0), KindErrorResponse, nil, nil},
		{"code float64 fraction", errResp(1.5), KindInvalid, nil, []rpcWant{E("/error/code")}},
		{"code float64 huge", errResp(1e30), KindInvalid, nil, []rpcWant{E("/error/code")}},
		{"code float64 2^63", errResp(math.Pow(2, 63)), KindInvalid, nil, []rpcWant{E("/error/code")}},
		{"code float64 -2^63", errResp(-math.Pow(2, 63)), KindErrorResponse, nil, nil},
		{"code uint64 2^63", errResp(uint64(1) << 63), KindInvalid, nil, []rpcWant{E("/error/code")}},
		{"code int64 reserved", errResp(int64(-32500)), KindErrorResponse, nil, []rpcWant{W("/error/code")}},
		{"code empty json.Number", errResp(json.Number("")), KindInvalid, nil, []rpcWant{E("/error/code")}},
		{"code NaN", errResp(math.NaN()), KindInvalid, nil, []rpcWant{E("/error/code")}},
		{"batch", []any{1, req("a"), []any{}}, KindBatch, []Kind{KindInvalid, KindRequest, KindInvalid}, []rpcWant{E("/0"), E("/2")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rpcCheck(t, Classify(tt.v), tt.kind, tt.members, tt.want)
		})
	}
}

func TestRPCParseNumber(t *testing.T) {
	const (
		invalid = iota
		fraction
		bigInt // integral, outside int64
		small  // integral, inside int64
	)
	tests := []struct {
		s    string
		want int
		i    int64
	}{
		{"0", small, 0},
		{"-0", small, 0},
		{"0.0", small, 0},
		{"0e-999999999999999999999", small, 0},
		{"7", small, 7},
		{"-32601", small, -32601},
		{"1.0", small, 1},
		{"1.000e0", small, 1},
		{"1e3", small, 1000},
		{"1E+3", small, 1000},
		{"10e-1", small, 1},
		{"1200e-2", small, 12},
		{"0.05e2", small, 5},
		{"1.5e1", small, 15},
		{"-2.5E1", small, -25},
		{"100", small, 100},
		{"9223372036854775807", small, math.MaxInt64},
		{"-9223372036854775808", small, math.MinInt64},
		{"922337203685477580.7e1", small, math.MaxInt64},
		{"9223372036854775808", bigInt, 0},
		{"-9223372036854775809", bigInt, 0},
		{"18446744073709551616", bigInt, 0},
		{"1e19", bigInt, 0},
		{"1e400", bigInt, 0},
		{"1e99999999999999999999", bigInt, 0},
		{"1.5", fraction, 0},
		{"0.05", fraction, 0},
		{"1e-3", fraction, 0},
		{"-0.1", fraction, 0},
		{"1.25e1", fraction, 0},
		{"1e-99999999999999999999", fraction, 0},
		{"123456789.0000000001", fraction, 0},
		{"", invalid, 0},
		{"-", invalid, 0},
		{"+1", invalid, 0},
		{"01", invalid, 0},
		{"1.", invalid, 0},
		{".5", invalid, 0},
		{"1e", invalid, 0},
		{"1e+", invalid, 0},
		{"1x", invalid, 0},
		{"0x10", invalid, 0},
		{"NaN", invalid, 0},
		{" 1", invalid, 0},
	}
	for _, tt := range tests {
		n := rpcParseNumber(tt.s)
		got := invalid
		switch {
		case !n.valid:
		case !n.integer:
			got = fraction
		case !n.inInt64:
			got = bigInt
		default:
			got = small
		}
		if got != tt.want || n.i != tt.i {
			t.Errorf("rpcParseNumber(%q) = %+v, want class %d value %d", tt.s, n, tt.want, tt.i)
		}
	}
}

func TestKindString(t *testing.T) {
	kinds := map[Kind]string{
		KindInvalid: "invalid", KindRequest: "request", KindNotification: "notification",
		KindResponse: "response", KindErrorResponse: "error-response", KindBatch: "batch", Kind(42): "Kind(42)",
	}
	for k, want := range kinds {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
	codes := map[int]int{CodeParseError: -32700, CodeInvalidRequest: -32600, CodeMethodNotFound: -32601, CodeInvalidParams: -32602, CodeInternalError: -32603}
	for got, want := range codes {
		if got != want {
			t.Errorf("code constant %d, want %d", got, want)
		}
	}
}

// rpcSpecExample is one entry of reference/jsonrpc/spec-examples.json.
type rpcSpecExample struct {
	Name        string  `json:"name"`
	Request     string  `json:"request"`
	Response    *string `json:"response"`
	RequestKind string  `json:"request_kind"`
}

// rpcKindNames maps the names used in spec-examples.json to kinds.
var rpcKindNames = map[string]Kind{"request": KindRequest, "notification": KindNotification, "invalid": KindInvalid}

// rpcFirstError returns the code of the first error-severity problem of m, or 0.
func rpcFirstError(m Message) int {
	for _, p := range m.Diagnostics {
		if p.Severity == diag.Error {
			return p.Code
		}
	}
	return 0
}

// rpcSpecCode returns the error code of a decoded response object, or 0 when
// it is a success response.
func rpcSpecCode(t *testing.T, resp any) int {
	t.Helper()
	obj, ok := resp.(map[string]any)
	if !ok {
		t.Fatalf("spec response %v is not an object", resp)
	}
	e, ok := obj["error"].(map[string]any)
	if !ok {
		return 0
	}
	c, err := e["code"].(json.Number).Int64()
	if err != nil {
		t.Fatalf("spec error code: %v", err)
	}
	return int(c)
}

func TestClassifySpecExamples(t *testing.T) {
	data, err := os.ReadFile(shared.Dir(t, "reference", "jsonrpc", "spec-examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []rpcSpecExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) != 15 {
		t.Fatalf("got %d examples, want the spec's 15", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.Name, func(t *testing.T) {
			var resp any
			if ex.Response != nil {
				if resp, err = rpcDecode([]byte(*ex.Response)); err != nil {
					t.Fatalf("spec response does not parse: %v", err)
				}
				rpcCheckSpecResponse(t, resp)
			}

			v, perr := rpcDecode([]byte(ex.Request))
			if perr != nil {
				if ex.RequestKind != "parse-error" {
					t.Fatalf("request does not parse (%v), want %s", perr, ex.RequestKind)
				}
				if got := rpcSpecCode(t, resp); got != CodeParseError {
					t.Errorf("spec answers %d to text that is not JSON, want CodeParseError", got)
				}
				return
			}
			m := Classify(v)

			if inner, ok := strings.CutPrefix(ex.RequestKind, "batch: ["); ok {
				var want []Kind
				for _, name := range strings.Split(strings.TrimSuffix(inner, "]"), ", ") {
					k, ok := rpcKindNames[name]
					if !ok {
						t.Fatalf("unknown member kind %q", name)
					}
					want = append(want, k)
				}
				var got []Kind
				for _, mm := range m.Members {
					got = append(got, mm.Kind)
				}
				if m.Kind != KindBatch || !reflect.DeepEqual(got, want) {
					t.Fatalf("Classify = %v %v, want batch %v", m.Kind, got, want)
				}
				rpcMatchBatch(t, m, resp)
				return
			}
			want, ok := rpcKindNames[ex.RequestKind]
			if !ok {
				t.Fatalf("unknown request_kind %q", ex.RequestKind)
			}
			if m.Kind != want {
				t.Fatalf("Classify = %v, want %v (problems %+v)", m.Kind, want, m.Diagnostics)
			}
			if m.Valid() != (want != KindInvalid) {
				t.Errorf("Valid() = %v for kind %v", m.Valid(), want)
			}
			switch {
			case resp == nil:
				if want != KindNotification {
					t.Errorf("the spec sends no response, yet the request is %v", want)
				}
			case want == KindInvalid:
				// The spec answers an invalid request with an error of the code
				// the classifier gives it, and id null.
				if got, code := rpcSpecCode(t, resp), rpcFirstError(m); got != code {
					t.Errorf("spec answers %d, classifier gives %d", got, code)
				}
			default:
				// A valid request: whatever the spec answers, it is not about
				// the message's form, and it carries the request's id.
				if got := rpcSpecCode(t, resp); got == CodeParseError || got == CodeInvalidRequest {
					t.Errorf("spec answers %d to a request the classifier finds valid", got)
				}
				if id := resp.(map[string]any)["id"]; !m.HasID || !reflect.DeepEqual(id, m.ID) {
					t.Errorf("response id %#v, request id %#v", id, m.ID)
				}
			}
		})
	}
}

// rpcMatchBatch pairs the members of a classified batch request with the
// spec's responses: an invalid member gets an error with id null and the
// classifier's code, a request gets the response with its id, a notification
// gets nothing, and no response is left over.
func rpcMatchBatch(t *testing.T, m Message, resp any) {
	t.Helper()
	var left []any
	switch r := resp.(type) {
	case nil:
	case []any:
		left = append(left, r...)
	default:
		t.Fatalf("the spec answers a batch with %T", resp)
	}
	take := func(match func(obj map[string]any) bool) map[string]any {
		for i, r := range left {
			if obj := r.(map[string]any); match(obj) {
				left = append(left[:i], left[i+1:]...)
				return obj
			}
		}
		return nil
	}
	for i, mm := range m.Members {
		switch mm.Kind {
		case KindNotification:
		case KindInvalid:
			obj := take(func(obj map[string]any) bool { _, hasErr := obj["error"]; return hasErr && obj["id"] == nil })
			if obj == nil {
				t.Errorf("member %d is invalid but the spec has no id-null error for it", i)
			} else if got, code := rpcSpecCode(t, obj), rpcFirstError(mm); got != code {
				t.Errorf("member %d: spec answers %d, classifier gives %d", i, got, code)
			}
		case KindRequest:
			obj := take(func(obj map[string]any) bool { return reflect.DeepEqual(obj["id"], mm.ID) })
			if obj == nil {
				t.Errorf("member %d (id %v) has no response in the spec", i, mm.ID)
			} else if got := rpcSpecCode(t, obj); got == CodeParseError || got == CodeInvalidRequest {
				t.Errorf("member %d: spec answers %d to a request the classifier finds valid", i, got)
			}
		default:
			t.Errorf("member %d: unexpected kind %v in a request batch", i, mm.Kind)
		}
	}
	if len(left) > 0 {
		t.Errorf("spec responses without a request: %v", left)
	}
}

// rpcCheckSpecResponse checks that a response the spec gives classifies as a
// valid response or error response (or batch of them), as its "error" member says.
func rpcCheckSpecResponse(t *testing.T, resp any) {
	t.Helper()
	m := Classify(resp)
	if !m.Valid() || len(m.AllDiagnostics()) > 0 {
		t.Errorf("spec response classified with problems: %+v", m.AllDiagnostics())
	}
	wantKind := func(v any) Kind {
		if _, ok := v.(map[string]any)["error"]; ok {
			return KindErrorResponse
		}
		return KindResponse
	}
	if arr, ok := resp.([]any); ok {
		if m.Kind != KindBatch || len(m.Members) != len(arr) {
			t.Fatalf("spec response batch classified as %v with %d members", m.Kind, len(m.Members))
		}
		for i, r := range arr {
			if m.Members[i].Kind != wantKind(r) {
				t.Errorf("spec response member %d: %v, want %v", i, m.Members[i].Kind, wantKind(r))
			}
		}
		return
	}
	if m.Kind != wantKind(resp) {
		t.Errorf("spec response: %v, want %v", m.Kind, wantKind(resp))
	}
}

// rpcCorpus returns every message of the bare corpus logs, decoded.
func rpcCorpus(tb testing.TB) []any {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(shared.Dir(tb, "corpus", "mcp-sessions"), "*.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	var msgs []any
	for _, name := range files {
		if strings.HasSuffix(name, ".dir.jsonl") {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for line := 1; sc.Scan(); line++ {
			v, err := rpcDecode(sc.Bytes())
			if err != nil {
				tb.Fatalf("%s:%d: %v", name, line, err)
			}
			msgs = append(msgs, v)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
	}
	if len(msgs) == 0 {
		tb.Fatal("no corpus messages found")
	}
	return msgs
}

// TestClassifyCorpus checks real MCP traffic: every message is valid, without
// warnings, and its kind is the one its members name.
func TestClassifyCorpus(t *testing.T) {
	for i, v := range rpcCorpus(t) {
		obj := v.(map[string]any)
		_, method := obj["method"]
		_, id := obj["id"]
		_, failed := obj["error"]
		var want Kind
		switch {
		case method && id:
			want = KindRequest
		case method:
			want = KindNotification
		case failed:
			want = KindErrorResponse
		default:
			want = KindResponse
		}
		m := Classify(v)
		if m.Kind != want || len(m.Diagnostics) > 0 {
			t.Errorf("message %d: %v %+v, want %v without problems", i, m.Kind, m.Diagnostics, want)
		}
	}
}

func TestClassifyAllocations(t *testing.T) {
	tests := []struct {
		text string
		max  float64
	}{
		{`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"},"id":12}`, 0},
		{`{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}`, 0},
		{`[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","result":1,"id":2}]`, 1},
	}
	for _, tt := range tests {
		v, err := rpcDecode([]byte(tt.text))
		if err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(100, func() { Classify(v) }); got > tt.max {
			t.Errorf("%s: %v allocations, want at most %v", tt.text, got, tt.max)
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	msgs := rpcCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, v := range msgs {
			if !Classify(v).Valid() {
				b.Fatal("corpus message classified invalid")
			}
		}
	}
	b.ReportMetric(float64(b.N*len(msgs))/b.Elapsed().Seconds(), "msgs/s")
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}`,
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}`,
		`[{"jsonrpc":"2.0","method":"notify"},1,[],{"foo":"boo"}]`,
		`{"jsonrpc":"2.0","result":null,"error":{"code":1e400},"id":1.5e-7}`,
		`{"jsonrpc":"2.0","method":"rpc.x","id":null,"params":"p"}`,
		`[]`,
		`{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := rpcDecode(data)
		if err != nil {
			return
		}
		m := Classify(v)
		checkObject(t, v)
		hasError := false
		for _, p := range m.AllDiagnostics() {
			if p.Severity == diag.Error {
				hasError = true
			}
			if p.Code != CodeInvalidRequest || p.Message == "" || (p.Pointer != "" && p.Pointer[0] != '/') {
				t.Fatalf("bad problem %+v", p)
			}
		}
		if m.Valid() == hasError {
			t.Fatalf("Valid() = %v but error problems: %v", m.Valid(), hasError)
		}
		arr, isArr := v.([]any)
		if m.Kind == KindBatch {
			if !isArr || len(m.Members) != len(arr) || len(m.Diagnostics) > 0 {
				t.Fatalf("batch of %d members for %T with problems %v", len(m.Members), v, m.Diagnostics)
			}
			for _, mm := range m.Members {
				if mm.Kind == KindBatch || len(mm.Members) > 0 {
					t.Fatalf("nested batch member %+v", mm)
				}
			}
			return
		}
		// A single value is invalid exactly when it has an error.
		if (m.Kind == KindInvalid) != hasError || len(m.Members) > 0 {
			t.Fatalf("kind %v with error problems %v", m.Kind, hasError)
		}
	})
}

// TestDecode: numbers stay json.Number, and what encoding/json refuses or
// would alter is a -32700 diagnostic at its column.
func TestDecode(t *testing.T) {
	v, err := Decode([]byte(` {"id": 12345678901234567890, "x": [1.50]} `))
	want := map[string]any{"id": json.Number("12345678901234567890"), "x": []any{json.Number("1.50")}}
	if err != nil || !reflect.DeepEqual(v, want) {
		t.Errorf("Decode = %#v, %v", v, err)
	}
	for text, col := range map[string]int{`{"a":}`: 6, "\"\xff\"": 2, `"\udc00"`: 2, `[1] [2]`: 5, ``: 1} {
		_, err := Decode([]byte(text))
		var d *diag.Diagnostic
		if !errors.As(err, &d) || d.Code != CodeParseError || d.Column != col || d.Severity != diag.Error {
			t.Errorf("Decode(%q): %#v, want -32700 at column %d", text, err, col)
		}
	}
}
