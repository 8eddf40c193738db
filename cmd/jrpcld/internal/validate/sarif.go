package validate

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"

	versioncmd "github.com/jrpcld/jrpcld/cmd/jrpcld/internal/version"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/jrpcld/jrpcld/schema/kind"
)

// sarifSchema is the address of the SARIF 2.1.0 schema, which a SARIF log
// names.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// sarifRule is what validate --format sarif says of a rule that is not an
// MCP rule: one line, and where it is stated.
type sarifRule struct{ text, help string }

// sarifRules are the rules behind validate's findings other than the MCP
// rules (mcp/rules names and places those).
var sarifRules = map[string]sarifRule{
	"json-parse-error":      {"the input is JSON text (RFC 8259)", "https://www.rfc-editor.org/rfc/rfc8259"},
	"json-text":             {"a remark about the JSON text, such as a member named twice", "https://www.rfc-editor.org/rfc/rfc8259#section-4"},
	"jsonrpc-invalid":       {"each message is a JSON-RPC 2.0 request, notification or response", "https://www.jsonrpc.org/specification"},
	"schema-unknown-method": {"the schema defines the message's method", ""},
	"mcp-version-no-schema": {"each message is checked against the MCP schema of its version", ""},
	"schema":                {"each message is valid against the schema", ""},
	"shacl":                 {"the log's graph conforms to the SHACL shapes", "https://www.w3.org/TR/shacl/"},
}

// sarifRuleID returns the id of the rule a finding is about.
func sarifRuleID(f schema.Finding) string {
	switch {
	case f.Rule != "":
		return f.Rule
	case f.Violation == kind.Unchecked && f.Schema == "":
		return "mcp-version-no-schema"
	case f.Schema != "":
		return "schema"
	case f.Node != "":
		return "shacl"
	case f.Code == -32700:
		return "json-parse-error"
	case f.Code == -32601:
		return "schema-unknown-method"
	case f.Code == 0:
		return "json-text"
	}
	return "jsonrpc-invalid"
}

// sarifLog gathers validate's findings as the results of one SARIF 2.1.0
// run, to be written whole at the end: at most limit of them, the rest
// counted.
type sarifLog struct {
	limit    int
	dropped  int
	results  []map[string]any
	rules    []map[string]any
	index    map[string]int // rule id: its place in rules
	versions []any          // the MCP version of each span of each log
}

func newSARIFLog(limit int) *sarifLog { return &sarifLog{limit: limit, index: map[string]int{}} }

// add adds a finding as a result.
func (l *sarifLog) add(f schema.Finding) {
	if len(l.results) >= l.limit {
		l.dropped++
		return
	}
	id := sarifRuleID(f)
	i, ok := l.index[id]
	if !ok {
		i = len(l.rules)
		l.index[id] = i
		l.rules = append(l.rules, sarifDescriptor(id, f))
	}
	level := "error"
	if f.Severity == diag.Warning {
		level = "warning"
	}
	text := f.Message
	if f.Pointer != "" {
		text += " (at " + f.Pointer + ")"
	}
	loc := map[string]any{"artifactLocation": map[string]any{"uri": fileURI(f.File)}}
	if f.Line > 0 {
		loc["region"] = map[string]any{"startLine": f.Line}
	}
	r := map[string]any{
		"ruleId": id, "ruleIndex": i, "level": level,
		"message":   map[string]any{"text": text},
		"locations": []any{map[string]any{"physicalLocation": loc}},
	}
	props := map[string]any{"kind": f.Kind.String()}
	if f.Code != 0 {
		props["code"] = f.Code
	}
	if f.Pointer != "" {
		props["pointer"] = f.Pointer
	}
	if f.Schema != "" {
		props["schemaLocation"] = f.Schema
	}
	if f.Help != "" {
		props["help"] = f.Help
	}
	r["properties"] = props
	l.results = append(l.results, r)
}

// sarifDescriptor describes rule id, first met in finding f.
func sarifDescriptor(id string, f schema.Finding) map[string]any {
	d := map[string]any{"id": id}
	text, help := sarifRules[id].text, sarifRules[id].help
	if r, ok := rules.Lookup(id); ok {
		text, help = r.Summary, f.Help
	}
	if text != "" {
		d["shortDescription"] = map[string]any{"text": text}
	}
	if help != "" {
		d["helpUri"] = help
	}
	return d
}

// fileURI writes a FILE argument as the URI SARIF locates artifacts
// with: a file: URI for an absolute path, else a relative reference.
func fileURI(name string) string {
	u := &url.URL{Path: filepath.ToSlash(name)}
	if filepath.IsAbs(name) {
		u.Scheme = "file"
	}
	return u.String()
}

// addVersions notes the MCP version of each span of a log.
func (l *sarifLog) addVersions(display string, ml *MCPLog) {
	for _, sp := range ml.versions.Spans {
		if sp.Messages > 0 {
			v := map[string]any{"file": display, "line": sp.Line, "messages": sp.Messages,
				"session": sp.Session, "version": sp.Version, "source": sp.Source.String(), "reason": sp.Reason()}
			if sp.ID != "" {
				v["sessionId"] = sp.ID
			}
			l.versions = append(l.versions, v)
		}
	}
}

// write writes the SARIF log: one run of jrpcld, its results, and the
// summary validate's other formats end with as the run's properties.
func (l *sarifLog) write(w io.Writer, summary map[string]any, ok bool) error {
	summary["notPrinted"] = l.dropped
	props := map[string]any{"summary": summary}
	if l.versions != nil {
		props["mcpVersions"] = l.versions
	}
	results := l.results
	if results == nil {
		results = []map[string]any{}
	}
	rulesList := l.rules
	if rulesList == nil {
		rulesList = []map[string]any{}
	}
	doc := map[string]any{
		"$schema": sarifSchema,
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "jrpcld", "version": versioncmd.Version(), "informationUri": "https://github.com/jrpcld/jrpcld",
				"rules": rulesList,
			}},
			"invocations": []any{map[string]any{"executionSuccessful": ok}},
			"results":     results,
			"properties":  props,
		}},
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
