package transform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/limits"
	"github.com/jrpcld/jrpcld/internal/pyjson"
)

// compileJQ parses and compiles a jq program. gojq gives no access to the
// environment, to modules or to other inputs, so a program reads nothing
// but the value it is given.
func compileJQ(program string) (*gojq.Code, error) {
	q, err := gojq.Parse(program)
	if err != nil {
		return nil, fmt.Errorf("jq program: %w", jqError(err, program))
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, fmt.Errorf("jq program: %w", err)
	}
	return code, nil
}

// jqError adds the line and column of a parse error to its message.
func jqError(err error, program string) error {
	var pe *gojq.ParseError
	if errors.As(err, &pe) {
		line := 1 + strings.Count(program[:min(pe.Offset, len(program))], "\n")
		col := pe.Offset - strings.LastIndex(program[:min(pe.Offset, len(program))], "\n")
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	}
	return err
}

// runJQ runs a compiled jq program on one JSON value and returns its
// result: a program that gives no result fails, as does one that raises an
// error; with first, the first result counts, else a second result fails
// too (the tool chain takes the first result of an uplift step, and reads a
// transform's output as one JSON text).
func runJQ(ctx context.Context, code *gojq.Code, input any, first bool) (any, error) {
	iter := code.RunWithContext(ctx, input)
	var results []any
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break
			}
			if ctx.Err() != nil {
				return nil, fmt.Errorf("jq program stopped: it ran longer than the limit (%v): %w", runLimit, ctx.Err())
			}
			return nil, fmt.Errorf("jq program: %w", err)
		}
		if deeper(v, limits.Depth) {
			return nil, fmt.Errorf("the jq program's result is nested more than %d deep", limits.Depth)
		}
		results = append(results, v)
		if first {
			break
		}
		if len(results) > 1 {
			return nil, errors.New("the jq program gives more than one result; a transform must give exactly one")
		}
	}
	if len(results) == 0 {
		return nil, errors.New("the jq program gives no result; a transform must give exactly one")
	}
	return results[0], nil
}

// decodeJSON reads one JSON value, numbers as json.Number (which gojq takes
// and keeps), and refuses text after it and nesting past limits.Depth;
// what names it in errors ("input", "the frame").
func decodeJSON(data []byte, what string) (any, error) {
	if off := jsonparse.DepthPast(data, limits.Depth); off >= 0 {
		return nil, fmt.Errorf("%s: line %d: nested more than %d deep", what, 1+bytes.Count(data[:off], []byte("\n")), limits.Depth)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%s is not JSON: %w", what, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s is not JSON: text after the value", what)
	}
	return v, nil
}

// deeper reports whether v nests arrays and objects more than max deep,
// looking no deeper than that.
func deeper(v any, max int) bool {
	switch x := v.(type) {
	case map[string]any:
		if max == 0 {
			return true
		}
		for _, e := range x {
			if deeper(e, max-1) {
				return true
			}
		}
	case []any:
		if max == 0 {
			return true
		}
		for _, e := range x {
			if deeper(e, max-1) {
				return true
			}
		}
	}
	return false
}

// jq runs a jq transform: the program on the snippet's JSON, the result
// written as the tool chain writes it.
func jq(ctx context.Context, program string, data []byte) ([]byte, error) {
	code, err := compileJQ(program)
	if err != nil {
		return nil, err
	}
	in, err := decodeJSON(data, "input")
	if err != nil {
		return nil, err
	}
	out, err := runJQ(ctx, code, jqNumbers(in), false)
	if err != nil {
		return nil, err
	}
	return pyjson.Indent(jqNumbers(out))
}

// jqNumbers turns the numbers of a JSON value into what jq, which the tool
// chain runs, makes of them: doubles, written without a fraction when they
// are whole (the tool chain reads jq's "0" back as the integer 0, its
// "0.5" as a float). Whole numbers beyond what a double holds exactly are
// kept as they are.
func jqNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > -1<<53 && n < 1<<53 {
				return int(n)
			} else if err == nil || errors.Is(err, strconv.ErrRange) {
				return x
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !math.IsInf(f, 0) {
			return x
		}
		return jqNumbers(f)
	case float64:
		switch {
		case math.IsNaN(x):
			return nil
		case math.IsInf(x, 1):
			return math.MaxFloat64
		case math.IsInf(x, -1):
			return -math.MaxFloat64
		case x == math.Trunc(x) && math.Abs(x) < 1e17:
			return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
		}
		return x
	case *big.Int:
		return json.Number(x.String())
	case map[string]any:
		for k, e := range x {
			x[k] = jqNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jqNumbers(e)
		}
	}
	return v
}

// jqStep runs a jq program on a decoded JSON value (numbers as
// json.Number or float64, objects as map[string]any) and returns its first
// result, as a semantic-uplift jq step does, numbers made what jq makes of
// them.
func jqStep(ctx context.Context, program string, v any) (any, error) {
	code, err := compileJQ(program)
	if err != nil {
		return nil, err
	}
	out, err := runJQ(ctx, code, jqNumbers(v), true)
	if err != nil {
		return nil, err
	}
	return jqNumbers(out), nil
}
