package register

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ojson"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/docs"
	"github.com/jrpcld/jrpcld/register/internal/lang"
	"github.com/jrpcld/jrpcld/register/report"
	"github.com/jrpcld/jrpcld/register/transform"
)

// blockTransforms is what a block declares on top of its examples: its
// transforms and the extra steps of its semantic uplift, and what running
// the transforms gave.
type blockTransforms struct {
	list   []*transform.Transform
	uplift *transform.Uplift // nil when the block has no semantic-uplift.yaml
	// results holds, by example and snippet (0-based, the snippets as the
	// tool chain lists them: see exampleSnippets), the result of each
	// transform that ran on the snippet, in the order of the transforms.
	results map[[2]int][]transformResult
	// prefixes are, by transform id, the prefixes of the last example the
	// transform ran on (the tool chain leaves them in its metadata).
	prefixes map[string]map[string]string
	// unread are the errors of the transforms whose code could not be read.
	unread []error
}

// transformResult is the outcome of one transform on one snippet.
type transformResult struct {
	id      string
	success bool
	stderr  string
	file    string // the output below the output folder; "" when none was written
	size    int
	// profiles are the verdicts on the output against the profiles of the
	// transform (profiles.go).
	profiles []profileResult
}

// loadTransforms reads the block's transforms.yaml and semantic-uplift.yaml,
// when it has them, with the code their refs name. A declaration that
// breaks the tool chain's rules is an error of the block; the others are
// kept.
func (bd *builder) loadTransforms(o *blockOut, global func(s report.Section, format string, args ...any)) {
	b := o.b
	o.tr = &blockTransforms{results: map[[2]int][]transformResult{}, prefixes: map[string]map[string]string{}}
	problems := func(ps []diag.Diagnostic) {
		for _, p := range ps {
			if p.Severity == diag.Warning {
				o.warnf("%s", problemText(p))
			} else {
				global(report.Files, "%s", problemText(p))
			}
		}
	}
	if data, err := b.ReadFile(transform.File); err == nil {
		list, probs, err := transform.Parse(transform.File, data)
		problems(probs)
		if err != nil {
			global(report.Files, "%v", err)
		}
		for _, t := range list {
			if err := t.Load(b.ReadFile); err != nil {
				// It fails on each snippet it takes; said once by runTransforms.
				o.tr.unread = append(o.tr.unread, err)
			}
		}
		o.tr.list = list
		if slices.ContainsFunc(list, func(t *transform.Transform) bool { return transform.Runs(t.Type) }) {
			bd.opts.Sandbox.Start() // it readies itself while the block builds
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		global(report.Files, "%v", err)
	}
	if data, err := b.ReadFile(transform.UpliftFile); err == nil {
		u, probs, err := transform.ParseUplift(transform.UpliftFile, data)
		problems(probs)
		if err != nil {
			global(report.Files, "%v", err)
			return
		}
		for _, err := range u.Load(b.ReadFile) {
			global(report.Files, "%s: %v", transform.UpliftFile, err)
		}
		o.tr.uplift = u
		u.Inherited = bd.inheritedSteps(o)
		if len(u.Steps)+len(u.Inherited) > 0 {
			bd.opts.Sandbox.Start() // it readies itself while the block builds
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		global(report.Files, "%v", err)
	}
}

// inheritedSteps returns the post-uplift steps block o inherits from the
// blocks it depends on (transform.Inherit), with a warning for each block
// its inheritedPostSteps names that it does not depend on.
func (bd *builder) inheritedSteps(o *blockOut) []*transform.Step {
	steps, unknown := transform.Inherit(o.b.ID, o.tr.uplift, bd.upliftOf)
	for _, id := range unknown {
		o.warnf("%s: inheritedPostSteps names %s, which is not among the blocks %s depends on or is a profile of: nothing is inherited from it", transform.UpliftFile, id, o.b.ID)
	}
	return steps
}

// upliftOf returns the blocks block id depends on and is a profile of (in
// that order), and the semantic-uplift steps it lends to the blocks that
// inherit them. ok is false for a block neither the register nor a mapped
// import has.
func (bd *builder) upliftOf(id string) (deps []string, steps []*transform.Step, ok bool) {
	if b := bd.reg.Block(id); b != nil {
		deps = b.Inherits()
		var u *transform.Uplift
		if o := bd.built[id]; o != nil && o.tr != nil {
			u = o.tr.uplift
		} else if data, err := b.ReadFile(transform.UpliftFile); err == nil {
			// Not built yet (a cycle): read quietly, its build reports it.
			if u, _, _ = transform.ParseUplift(transform.UpliftFile, data); u != nil {
				u.Load(b.ReadFile)
			}
		}
		return deps, u.InheritableSteps(id), true
	}
	ib, found := bd.reg.Imports.Block(id)
	if !found {
		return nil, nil, false
	}
	deps = append(slices.Clone(ib.DependsOn), ib.IsProfileOf...)
	if ib.SemanticUplift != nil {
		// The published steps carry their code: nothing to read.
		if u, _, err := transform.ParseUplift("register.json", ib.SemanticUplift); err == nil {
			steps = u.InheritableSteps(id)
		}
	}
	return deps, steps, true
}

// snippet is one snippet of an example as the tool chain lists them for
// the transforms and the documentation: those of examples.yaml, then the
// uplifted JSON-LD and Turtle the example's snippets gave, when the example
// has no snippet in that language.
type snippet struct {
	language string // as declared ("json"), or "jsonld" / "ttl" for an added one
	code     []byte
	file     string // the file below the block's tests folder
	added    bool   // an uplifted snippet the tool chain adds
}

// exampleSnippets returns example i's snippets (0-based) as the tool chain
// lists them once its snippets are checked: the declared ones (nil code
// for one that could not be read), then, for each of jsonld and ttl in the
// order the checks first made them, the last uplifted file of that
// language among the snippets whose doc-uplift-formats name it (both by
// default), unless a declared snippet has the language.
func (o *blockOut) exampleSnippets(i int) []snippet {
	if i >= len(o.examples) {
		return nil
	}
	declared := map[string]bool{}
	var out []snippet
	var order []string
	last := map[string]snippet{}
	for _, it := range o.examples[i].Snippets {
		l := strings.ToLower(strings.TrimSpace(it.Language))
		declared[l] = true
		switch l {
		case "turtle", "text/turtle":
			declared["ttl"] = true
		case "json-ld", "application/ld+json":
			declared["jsonld"] = true
		}
		out = append(out, snippet{language: it.Language, code: it.Source, file: it.File})
		// doc-uplift-formats: the uplifted forms this snippet may add.
		formats := []string{"jsonld", "ttl"}
		if decl := o.b.Examples.Examples[i].Snippets; it.SnippetIndex() >= 1 && it.SnippetIndex() <= len(decl) && decl[it.SnippetIndex()-1].DocUpliftFormats != nil {
			formats = decl[it.SnippetIndex()-1].DocUpliftFormats
		}
		for _, up := range []snippet{{"jsonld", it.JSONLD, it.Base + ".jsonld", true}, {"ttl", it.Turtle, it.Base + ".ttl", true}} {
			if up.code == nil || up.language == "jsonld" && lang.Kind(it.Language) == lang.JSONLD || !slices.Contains(formats, up.language) {
				continue
			}
			if _, seen := last[up.language]; !seen {
				order = append(order, up.language)
			}
			last[up.language] = up
		}
	}
	for _, l := range order {
		if !declared[l] {
			out = append(out, last[l])
		}
	}
	return out
}

// runTransforms runs each transform on each snippet of each example whose
// media type it takes, as the tool chain does once the examples are
// checked, and writes the outputs to tests/PATH/transforms/. A transform
// that fails, or whose type jrpcld does not run, gets a failed result on
// the snippet and a warning, as the tool chain logs one; a failed
// transform does not fail the block.
func (bd *builder) runTransforms(o *blockOut) {
	if o.tr == nil {
		return
	}
	for _, err := range o.tr.unread {
		o.warnf("%s: %v; it fails on each snippet it takes", transform.File, err)
	}
	if len(o.tr.list) == 0 || o.b.Examples == nil {
		return
	}
	top := o.b.Examples.Prefixes
	// The uplifted JSON-LD names the block's built context by its URL: the
	// transforms get the context itself, never fetched.
	var builtContext any
	if o.context != nil {
		if doc, err := ojson.DecodeJSON(o.context); err == nil {
			if d, ok := ojson.Plain(doc).(map[string]any); ok {
				builtContext = d["@context"]
			}
		}
	}
	for _, t := range o.tr.list {
		if why := t.Skipped(); why != "" {
			o.warnf("%s: transform %q (%s) is skipped, as the OGC tool chain skips it: %s", transform.File, t.ID, t.Type, why)
			continue
		}
		if len(t.Inputs) == 0 {
			why := "declare its inputs.mediaTypes"
			if !transform.Runs(t.Type) {
				why = transform.Runner(t.Type)
			}
			o.warnf("%s: transform %q (%s) takes no media type, so it runs on no snippet, as in the tool chain: %s", transform.File, t.ID, t.Type, why)
			continue
		}
		takes := map[string]bool{}
		for _, mt := range t.Inputs {
			takes[mt.MIME] = true
		}
		suffix := ""
		if len(t.Outputs) > 0 && t.Outputs[0].Extension != "" {
			suffix = "." + t.Outputs[0].Extension
		}
		var failures []error
		notRun := false
		for i, ex := range o.b.Examples.Examples {
			prefixes := map[string]string{}
			for k, v := range top {
				prefixes[k] = v
			}
			for k, v := range ex.Prefixes {
				prefixes[k] = v
			}
			for j, sn := range o.exampleSnippets(i) {
				mt := transform.NormalizeMediaType(sn.language)
				if sn.language == "" || !takes[mt] || sn.code == nil {
					continue
				}
				name := fmt.Sprintf("example_%d_%d.%s%s", i+1, j+1, t.ID, suffix)
				if bof := ex.BaseOutputFilename; bof != "" {
					stem := path.Base(bof)
					stem = strings.TrimSuffix(stem, path.Ext(stem))
					name = fmt.Sprintf("%s.%s%s", stem, t.ID, suffix)
				}
				if len(prefixes) > 0 {
					o.tr.prefixes[t.ID] = prefixes
				}
				r := transformResult{id: t.ID}
				in := transform.Input{Data: sn.code, MediaType: mt, Prefixes: prefixes}
				if builtContext != nil {
					from := path.Join(o.tests, sn.file)
					in.Contexts = map[string]any{bd.link(from, path.Join(o.annotated, "context.jsonld")): builtContext}
				}
				out, err := bd.opts.Sandbox.Run(context.Background(), t, in)
				switch {
				case errors.Is(err, transform.ErrNotRun):
					r.stderr = err.Error()
					if !notRun {
						o.warnf("%s: %v; reported as failed on each snippet it takes", transform.File, err)
					}
					notRun = true
				case err != nil:
					r.stderr = fmt.Sprintf("transform %q failed: %v", t.ID, err)
					if t.Loaded() { // an unread one is said once above
						failures = append(failures, fmt.Errorf("example %d snippet %d: %w", i+1, j+1, err))
					}
				default:
					r.success = true
				}
				if len(out) > 0 {
					r.file = path.Join(o.tests, "transforms", name)
					r.size = len(out)
					bd.put(r.file, out)
				}
				key := [2]int{i, j}
				o.tr.results[key] = append(o.tr.results[key], r)
				if r.success && r.file != "" && len(t.Profiles) > 0 {
					bd.profileChecks = append(bd.profileChecks, profileCheck{o: o, key: key, n: len(o.tr.results[key]) - 1, profiles: t.Profiles, code: out})
				}
			}
		}
		if len(failures) > 0 {
			more := ""
			if len(failures) > 1 {
				more = fmt.Sprintf(" (and %d more snippets)", len(failures)-1)
			}
			o.warnf("%s: transform %q (%s) failed on %v%s", transform.File, t.ID, t.Type, failures[0], more)
		}
	}
}

// transformsJSON returns the block's transforms as register.json and the
// full JSON documentation list them, ref made absolute against the URL of
// the block's source folder (below the base URL, as the tool chain
// publishes the sources; left as declared without a base URL); nil when
// the block declares none.
func (bd *builder) transformsJSON(o *blockOut) []any {
	if o.tr == nil || len(o.tr.list) == 0 {
		return nil
	}
	sourceFiles := bd.layout().SourceFolder(o.b)
	out := make([]any, len(o.tr.list))
	for i, t := range o.tr.list {
		out[i] = t.Entry(sourceFiles, o.tr.prefixes[t.ID])
	}
	return out
}

// transformResults returns the results of the transforms that ran on
// snippet j of example i (0-based, as exampleSnippets lists them).
func (o *blockOut) transformResults(i, j int) []docs.TransformResult {
	if o.tr == nil {
		return nil
	}
	var out []docs.TransformResult
	for _, r := range o.tr.results[[2]int{i, j}] {
		tr := docs.TransformResult{ID: r.id, Success: r.success, Stderr: r.stderr, File: r.file, Size: r.size}
		for _, p := range r.profiles {
			tr.Profiles = append(tr.Profiles, docs.ProfileResult{ID: p.id, Passed: p.passed, Report: p.report, Uplifted: p.uplifted})
		}
		out = append(out, tr)
	}
	return out
}

// preUplift runs the block's pre-uplift steps (jq) on the text of a JSON
// resource and returns the text to uplift. Each step adds its entry to the
// Semantic Uplift section of the resource's report; a step that fails adds
// an error to the Unknown errors section and stops the uplift (ok is
// false), as an exception does in the tool chain.
func (bd *builder) preUplift(o *blockOut, it *item, code []byte) ([]byte, bool) {
	if o.tr == nil || o.tr.uplift == nil {
		return code, true
	}
	v, err := decodeJSON(code)
	if err != nil {
		return code, true // the uplift says what is wrong with it
	}
	note := func(msg string) { it.rep.Info(report.SemanticUplift, msg) }
	out, err := bd.opts.Sandbox.Pre(context.Background(), o.tr.uplift, v, note)
	if err == nil {
		code, err = json.Marshal(out)
	}
	if err != nil {
		stepFailed(it, err)
		return nil, false
	}
	return code, true
}

// postUplift runs the block's post-uplift steps (SHACL rules, SPARQL
// updates and CONSTRUCT queries) on a resource's uplifted graph, whose
// prefixes are those it was uplifted with, as preUplift does before the
// uplift. The tool chain runs them only on a graph that is not empty.
func (bd *builder) postUplift(o *blockOut, it *item, ts []rdf.Triple, prefixes []rdf.Prefix) ([]rdf.Triple, bool) {
	if o.tr == nil || !o.tr.uplift.HasPost() || len(ts) == 0 {
		return ts, true
	}
	note := func(msg string) { it.rep.Info(report.SemanticUplift, msg) }
	names := make(map[string]string, len(prefixes))
	for _, p := range prefixes {
		names[p.Name] = p.IRI
	}
	out, err := bd.opts.Sandbox.Post(context.Background(), o.tr.uplift, ts, names, note)
	if err != nil {
		stepFailed(it, err)
		return nil, false
	}
	return out, true
}

// stepFailed reports an uplift step that failed or was not run as the tool
// chain reports the exception that stops the uplift: an error of the
// Unknown errors section with the exception's class (NotImplementedError
// for a step jrpcld does not run).
func stepFailed(it *item, err error) {
	exc := "ValueError"
	if errors.Is(err, transform.ErrNotRun) {
		exc = "NotImplementedError"
	}
	it.rep.Error(report.Unknown, err.Error(), report.M("exception", exc))
}
