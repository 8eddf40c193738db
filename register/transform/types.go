package transform

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The transform types of the tool chain, and what runs each there.
const (
	TypeJQ              = "jq"               // a jq program over JSON
	TypeJSONLDFrame     = "jsonld-frame"     // JSON-LD framing
	TypeSHACLRules      = "shacl-af-rule"    // SHACL Advanced Features rules over a graph
	TypeSHACL           = "shacl"            // the same, on the media types transforms.yaml names
	TypeSPARQLUpdate    = "sparql-update"    // a SPARQL 1.1 Update over a graph
	TypeSPARQLConstruct = "sparql-construct" // a SPARQL CONSTRUCT query over a graph
	TypeXSLT            = "xslt"             // an XSLT 1.0 stylesheet over XML
	TypePython          = "python"           // Python code
	TypeNode            = "node"             // JavaScript code for Node.js
	TypeSemanticUplift  = "semantic-uplift"  // an ogc-na-tools uplift definition over JSON
)

// typeInfo is what jrpcld knows of a transform type: its default media
// types in the tool chain and, for a type jrpcld does not run, what runs
// it there.
type typeInfo struct {
	inputs, outputs []string
	runner          string // "" for a type jrpcld runs
}

var rdfTypes = []string{"text/turtle", "application/rdf+xml"}

var types = map[string]typeInfo{
	TypeJQ:          {inputs: []string{"application/json"}, outputs: []string{"application/json"}},
	TypeJSONLDFrame: {inputs: []string{"text/turtle", "rdf/xml", "application/ld+json"}, outputs: []string{"application/ld+json"}},
	TypeSHACLRules:  {inputs: rdfTypes, outputs: rdfTypes},
	// The tool chain (6a10405) gives this type no media types of its own:
	// its reference build of testdata/ogc-registers/transforms-uplift
	// publishes none and runs it on nothing unless transforms.yaml names
	// them.
	TypeSHACL:           {},
	TypeSPARQLUpdate:    {inputs: rdfTypes, outputs: rdfTypes},
	TypeSPARQLConstruct: {inputs: rdfTypes, outputs: rdfTypes},
	TypeXSLT:            {inputs: []string{"application/xml"}, outputs: []string{"application/xml"}, runner: "lxml's XSLT 1.0 processor (Python)"},
	TypePython:          {runner: "Python, in a virtual environment with the pip packages the transform declares"},
	TypeNode:            {runner: "Node.js, with the npm packages the transform declares"},
	TypeSemanticUplift:  {inputs: []string{"application/json"}, outputs: []string{"text/turtle", "rdf/xml"}, runner: "ogc-na-tools' ingest_json (Python)"},
}

// aliasOfFrame is the name the tool chain's schema gives JSON-LD framing;
// the tool chain registers no transformer under it.
const aliasOfFrame = "json-ld-frame"

// Runner says what runs a transform of the given type in the OGC tool
// chain, as the end of a sentence ("the OGC tool chain runs it with
// Node.js, ..."), for a type jrpcld does not run; "" for a type it runs.
func Runner(typ string) string {
	if Runs(typ) {
		return ""
	}
	if info, ok := types[typ]; ok {
		return "the OGC tool chain runs it with " + info.runner
	}
	if typ == aliasOfFrame {
		return "the OGC tool chain has no transformer of that name: its JSON-LD framing type is \"jsonld-frame\", which jrpcld runs"
	}
	return fmt.Sprintf("a transform plugin for type %q runs it (plugins.transforms in bblocks-config.yaml)", typ)
}

// defaultMediaTypes returns the default inputs or outputs of a type.
func defaultMediaTypes(typ, io string) []string {
	info := types[typ]
	if io == "inputs" {
		return info.inputs
	}
	return info.outputs
}

// The versions of Python and Node.js in the tool chain's Docker image
// (python:3.10.20-slim, Debian's nodejs): a transform whose dependencies
// exclude them is skipped there.
const (
	toolchainPython = "3.10.20"
	toolchainNode   = "18.19.0"
)

// skipReason returns why the tool chain skips a Python or Node.js transform
// whose metadata.dependencies name a version its image does not have, or "".
func skipReason(t *Transform) string {
	deps := t.decl.Object("metadata").Object("dependencies")
	var want, have, what string
	switch t.Type {
	case TypePython:
		want, _ = deps.String("python")
		have, what = toolchainPython, "Python"
	case TypeNode:
		want, _ = deps.String("node")
		have, what = toolchainNode, "Node.js"
	default:
		return ""
	}
	if want == "" || satisfies(have, want) {
		return ""
	}
	return fmt.Sprintf("it needs %s %s and the tool chain runs %s %s", what, want, what, have)
}

// satisfies reports whether version satisfies a constraint such as
// ">=3.10" or ">=3.8, <4": clauses separated by commas, each an operator
// (==, !=, >=, <=, >, <, ~=, or none for ==) and a version, "==3.10.*"
// matching a prefix. A constraint it cannot read is satisfied, as in the
// tool chain.
func satisfies(version, constraint string) bool {
	v, ok := parseVersion(version)
	if !ok {
		return true
	}
	for _, clause := range strings.Split(constraint, ",") {
		clause = strings.TrimSpace(clause)
		if clause == "" {
			continue
		}
		op := ""
		for _, o := range []string{"===", "~=", "==", "!=", ">=", "<=", ">", "<", "="} {
			if strings.HasPrefix(clause, o) {
				op = o
				break
			}
		}
		rest := strings.TrimSpace(strings.TrimPrefix(clause, op))
		rest = strings.TrimPrefix(rest, "v")
		wildcard := strings.HasSuffix(rest, ".*")
		w, ok := parseVersion(strings.TrimSuffix(rest, ".*"))
		if !ok {
			return true
		}
		c := compareVersions(v, w)
		if wildcard {
			c = compareVersions(v[:min(len(v), len(w))], w)
		}
		var holds bool
		switch op {
		case "", "=", "==", "===":
			holds = c == 0
		case "!=":
			holds = c != 0
		case ">=":
			holds = c >= 0
		case "<=":
			holds = c <= 0
		case ">":
			holds = c > 0
		case "<":
			holds = c < 0
		case "~=":
			// Compatible release: at least w, and the same release series.
			holds = c >= 0 && len(w) > 1 && compareVersions(v[:min(len(v), len(w)-1)], w[:len(w)-1]) == 0
		}
		if !holds {
			return false
		}
	}
	return true
}

// parseVersion reads a release number "3.10.20" as its numbers.
func parseVersion(s string) ([]int, bool) {
	if s == "" {
		return nil, false
	}
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// compareVersions compares release numbers, missing parts counting as 0.
func compareVersions(a, b []int) int {
	for i := range max(len(a), len(b)) {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
