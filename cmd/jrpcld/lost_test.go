package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// validateSummary runs validate --format json on the files and returns
// its exit status and its summary object.
func validateSummary(t *testing.T, files ...string) (int, map[string]any, string) {
	t.Helper()
	code, out, errOut := jrpcld(t, "", append([]string{"validate", "--format", "json"}, files...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Summary == nil {
		t.Fatalf("validate: exit %d, no summary: %v\n%s\n%s", code, err, out, errOut)
	}
	return code, last.Summary, out
}

// TestBadFirstLine: a first line that begins a document and never ends
// (a truncated object, a lone "["), or garbage that starts with a NUL
// byte, costs that line only: the 1,000 messages after it are valid for
// validate and stats, and all of them go through turtle and come back
// from json (issue 23, item 6).
func TestBadFirstLine(t *testing.T) {
	var good strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&good, `{"jsonrpc":"2.0","id":%d,"method":"m"}`+"\n", i)
	}
	dir := t.TempDir()
	for _, first := range []string{
		`{"jsonrpc":"2.0","method":"a","params":{"x":`,
		`[`,
		"\x00garbage",
	} {
		t.Run(fmt.Sprintf("%q", first), func(t *testing.T) {
			log := filepath.Join(dir, "log.jsonl")
			if err := os.WriteFile(log, []byte(first+"\n"+good.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			code, sum, out := validateSummary(t, log)
			if code != exitInvalid || sum["valid"] != 1000.0 || sum["invalid"] != 1.0 || !strings.Contains(out, `"line":1,`) {
				t.Errorf("validate: exit %d, summary %v, want 1,000 valid and line 1 invalid:\n%.600s", code, sum, out)
			}
			code, out, errOut := jrpcld(t, "", "stats", "--format", "json", log)
			var st struct {
				Total struct {
					Validation struct{ Valid, Invalid int } `json:"validation"`
				} `json:"total"`
			}
			if err := json.Unmarshal([]byte(out), &st); err != nil || st.Total.Validation.Valid != 1000 || st.Total.Validation.Invalid != 1 {
				t.Errorf("stats: exit %d, %+v (%v), want 1,000 valid and 1 invalid: %s", code, st.Total.Validation, err, errOut)
			}
			ttl := filepath.Join(dir, "log.ttl")
			if code, _, errOut := jrpcld(t, "", "turtle", "-o", ttl, log); code != exitInvalid || !strings.Contains(errOut, "log.jsonl:1:") {
				t.Errorf("turtle: exit %d, want 1 and line 1 skipped:\n%.600s", code, errOut)
			}
			code, back, errOut := jrpcld(t, "", "json", ttl)
			if code != exitOK || !jsonLinesEqual(t, back, good.String()) {
				t.Errorf("json: exit %d, %d lines back, want the 1,000 messages: %s", code, strings.Count(back, "\n"), errOut)
			}
		})
	}
}

// jsonLinesEqual reports whether two texts of JSON lines hold equal JSON
// values, line by line.
func jsonLinesEqual(t *testing.T, got, want string) bool {
	t.Helper()
	return strings.TrimSpace(got) != "" && reflect.DeepEqual(jsonLines(t, got), jsonLines(t, want))
}
