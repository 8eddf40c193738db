package validate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/jsonptr"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/jrpcld/jrpcld/schema/kind"
	"github.com/spf13/pflag"
)

// MCPHelp is what --mcp does, for the help of validate and stats.
const MCPHelp = `With --mcp, each message of a LOG is checked against the official MCP
schema of its version: in a session opened by an initialize request, the
protocolVersion of the server's answer, else of the request (a log may
hold several sessions, one after the other); in a stateless version
(2026-07-28), the io.modelcontextprotocol/protocolVersion of the requests'
_meta; else --mcp-version; else the version inferred from the log (the
newest of the versions whose schemas accept the most of its first 1,000
such messages). Which version each run of messages took, and why, is a
line of the report (validate) or of standard error (stats). A version
negotiated or named in _meta with no schema there: with --mcp-version,
its messages are checked against that version's schema; without, they
are checked against the JSON-RPC 2.0 rules only, an error (validate) at
the line the version comes from, counted "unchecked" in the summary,
exit status 1 (stats: a warning). A --mcp-version with no schema is a
usage error that lists those there are.
The schemas come from --mcp-schemas DIR (laid out VERSION/schema.json) or
from the user's cache, which "jrpcld fetch mcp-schemas" fills.

--mcp also checks MCP's rules across messages (docs/mcp-rules.md): the
lifecycle (initialize first and answered before other requests,
notifications/initialized), version negotiation, capabilities used
without being declared, batches where the version removed them, answers
to no request, request ids used twice, cancellation and progress that
name unknown requests or tokens, tools called that no tools/list offered.
Each finding names its rule and the section of the version's
specification that states it; a MUST broken is an error (the message is
invalid), a SHOULD a warning; a rule applies only to the versions that
state it. --mcp-rules=false checks the schemas alone.`

// MCPFlags are the flags of validate and stats that check each message of
// a log against the MCP schema of its version, and the MCP rules.
type MCPFlags struct {
	On      bool
	dir     string
	version string
	rules   bool
	set     *mcp.Set
	// readerOpts are those the log is then read with (the limits of
	// validate), so that its messages are counted alike.
	readerOpts rpclog.ReaderOptions
}

// AddMCPFlags binds --mcp and the flags that go with it on fs.
func AddMCPFlags(fs *pflag.FlagSet) *MCPFlags {
	m := &MCPFlags{}
	fs.BoolVar(&m.On, "mcp", false, "check each log against the MCP schema of the version its handshake negotiated")
	fs.StringVar(&m.dir, "mcp-schemas", "", "with --mcp: the MCP schemas, `DIR`/VERSION/schema.json (default: the cache \"jrpcld fetch mcp-schemas\" fills)")
	fs.StringVar(&m.version, "mcp-version", "", "with --mcp: the `VERSION` of a log without a handshake or _meta version (default: inferred from its messages), and the schema for a version that has none")
	fs.BoolVar(&m.rules, "mcp-rules", true, "with --mcp: also check the MCP rules that span messages (docs/mcp-rules.md)")
	return m
}

// Open checks the flags and finds the schemas; other names the flags that
// choose a schema otherwise, and whether one was given.
func (m *MCPFlags) Open(compiler *schema.Compiler, other string, given bool) error {
	if !m.On {
		if m.dir != "" || m.version != "" {
			return errors.New("--mcp-schemas and --mcp-version go with --mcp")
		}
		return nil
	}
	if given {
		return fmt.Errorf("give --mcp or %s, not both", other)
	}
	if m.version != "" && !mcp.IsVersion(m.version) {
		return fmt.Errorf("--mcp-version %q: want a version such as %s", m.version, mcp.Newest())
	}
	dir := m.dir
	if dir == "" {
		var err error
		if dir, err = mcp.CacheDir(); err != nil {
			return err
		}
	}
	m.set = &mcp.Set{Dir: dir, Compiler: compiler}
	vs, err := m.set.Versions()
	switch {
	case err != nil && m.dir == "" && errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("no MCP schemas in the cache (%s): fetch them with \"jrpcld fetch mcp-schemas\", or give --mcp-schemas DIR", dir)
	case err != nil:
		return fmt.Errorf("--mcp-schemas: %w", err)
	case len(vs) == 0:
		return fmt.Errorf("%s holds no MCP schema (VERSION/schema.json); fetch them with \"jrpcld fetch mcp-schemas\", or give another --mcp-schemas DIR", dir)
	case m.version != "" && !slices.Contains(vs, m.version):
		// A version with no schema would check the JSON-RPC rules only:
		// a typo must not switch the schema off.
		return fmt.Errorf("--mcp-version %q: %w in %s%s", m.version, mcp.ErrNoSchema, dir, suggest.Have(m.version, vs, 50))
	}
	return nil
}

// inferLimit is how many messages of a log without a handshake or _meta
// version are checked against each schema to infer its version.
const inferLimit = 1000

// MCPLog is what --mcp knows of one log before it is checked: the version
// of each of its messages, their schemas, and the rules' checker.
type MCPLog struct {
	set       *mcp.Set
	versions  *rules.Versions
	byVersion map[string]*schema.Schema // the schemas of the log's versions
	rules     *rules.Checker            // nil with --mcp-rules=false
	// missing are the versions with no schema, in the order of their
	// first spans; with --mcp-version, they take its schema instead, and
	// lent maps each to it.
	missing  []string
	lent     map[string]string
	unknowns []unknownVersion // the spans of the missing versions
}

// unknownVersion is a span of a log whose version has no schema, and the
// message the version was read from.
type unknownVersion struct {
	span    *rules.Span
	index   int
	kind    jsonrpc.Kind
	pointer string
}

// Observe makes c check each message against the schema of its version,
// and the rules with it.
func (l *MCPLog) Observe(c *schema.Checker) {
	if l == nil {
		return
	}
	var o schema.Observer = versionsOnly{l}
	if l.rules != nil {
		o = l.rules
	}
	var schemas []*schema.Schema
	for _, s := range l.byVersion {
		schemas = append(schemas, s)
	}
	c.Observe(o, schemas...)
}

// versionsOnly chooses each message's schema, and checks no rule.
type versionsOnly struct{ l *MCPLog }

func (v versionsOnly) Observe(o *schema.Observed) schema.Choice {
	sp := v.l.versions.At(o.Index)
	if sp == nil {
		return schema.Choice{}
	}
	return schema.Choice{Schema: v.l.byVersion[sp.Version]}
}

// Prepare reads the log name for the version of each of its messages (see
// rules.Scan; a log without a handshake or _meta version takes
// --mcp-version, or the version inferred from its messages), finds their
// schemas (a version without one is one warning), and returns the env to
// read the log with again: standard input is kept in a temporary file;
// done removes it.
func (m *MCPFlags) Prepare(e *cli.Env, cmd, name string) (l *MCPLog, le *cli.Env, done func(), err error) {
	le, done = e, func() {}
	display := name
	var in io.ReadSeeker
	if name == "-" {
		display = "stdin"
		tmp, err := os.CreateTemp("", "jrpcld-stdin-*")
		if err != nil {
			return nil, e, done, err
		}
		done = func() { tmp.Close(); os.Remove(tmp.Name()) }
		if _, err := io.Copy(tmp, cli.StdinReader(e)); err != nil {
			return nil, e, done, fmt.Errorf("stdin: %w", err)
		}
		in = tmp
		copied := *e
		copied.Stdin = tmp
		le = &copied
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, e, done, err
		}
		defer f.Close()
		in = f
	}
	read := func() (*rpclog.Reader, error) {
		if _, err := in.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return rpclog.NewReader(bufio.NewReaderSize(in, 64<<10), display, m.readerOpts)
	}
	l = &MCPLog{set: m.set, versions: &rules.Versions{}}
	if r, err := read(); err == nil { // a log rpclog cannot open is reported as validate reports it
		if l.versions, err = rules.Scan(r); err != nil {
			return nil, le, done, fmt.Errorf("%s: %w", display, err)
		}
	}
	if err := m.settle(l.versions, read); err != nil {
		return nil, le, done, fmt.Errorf("%s: %w", display, err)
	}
	if err := m.schemasOf(l); err != nil {
		return nil, le, done, err
	}
	if err := l.locate(read); err != nil {
		return nil, le, done, fmt.Errorf("%s: %w", display, err)
	}
	if m.rules {
		l.rules = rules.NewChecker(rules.Options{Versions: l.versions, Schemas: l.byVersion})
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return nil, le, done, err
	}
	return l, le, done, nil
}

// settle gives the messages of unknown version --mcp-version, or the
// version their schemas infer, reading the log again with read.
func (m *MCPFlags) settle(v *rules.Versions, read func() (*rpclog.Reader, error)) error {
	switch {
	case v.Unsettled() == 0:
		return nil
	case m.version != "":
		v.Settle(m.version, rules.Given, "given with --mcp-version: no initialize handshake and no _meta version")
		return nil
	}
	r, err := read()
	if err != nil {
		return err
	}
	return v.Infer(r, m.set, inferLimit)
}

// schemasOf finds the schemas of the versions of l's spans; a version
// without one takes --mcp-version's schema if given, or else is missing.
func (m *MCPFlags) schemasOf(l *MCPLog) error {
	l.byVersion = map[string]*schema.Schema{}
	seen := map[string]bool{}
	for _, sp := range l.versions.Spans {
		if seen[sp.Version] || sp.Messages == 0 {
			continue
		}
		seen[sp.Version] = true
		s, err := m.set.Schema(sp.Version)
		if errors.Is(err, mcp.ErrNoSchema) && m.version != "" {
			// Open made sure --mcp-version has a schema.
			if l.lent == nil {
				l.lent = map[string]string{}
			}
			l.lent[sp.Version] = m.version
			s, err = m.set.Schema(m.version)
		}
		if errors.Is(err, mcp.ErrNoSchema) {
			l.missing = append(l.missing, sp.Version)
			continue
		}
		if err != nil {
			return fmt.Errorf("MCP %s: %w", sp.Version, err)
		}
		l.byVersion[sp.Version] = s
	}
	return nil
}

// locate finds, reading the log again with read, the message each span of
// a missing version took its version from (the server's answer to
// initialize, the request, or the first request with a _meta version), or
// else the span's first message.
func (l *MCPLog) locate(read func() (*rpclog.Reader, error)) error {
	byLine := map[int]*unknownVersion{}
	for i := range l.versions.Spans {
		sp := &l.versions.Spans[i]
		if sp.Messages == 0 || !slices.Contains(l.missing, sp.Version) {
			continue
		}
		u := unknownVersion{span: sp, index: sp.Start, kind: jsonrpc.KindRequest}
		line := sp.From
		switch sp.Source {
		case rules.FromAnswer:
			u.kind, u.pointer = jsonrpc.KindResponse, "/result/protocolVersion"
		case rules.FromRequest:
			u.pointer = "/params/protocolVersion"
		case rules.FromMeta:
			u.pointer = "/params/_meta/" + jsonptr.Escape(rules.MetaVersion)
		default:
			line = sp.Line
		}
		l.unknowns = append(l.unknowns, u)
		byLine[line] = &l.unknowns[len(l.unknowns)-1]
	}
	if len(l.unknowns) == 0 {
		return nil
	}
	r, err := read()
	if err != nil {
		return err
	}
	for index := 0; len(byLine) > 0; index++ {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if u := byLine[rec.Line]; u != nil {
			u.index = index
			if m := jsonrpc.Classify(rec.Value); rec.Value != nil && m.Kind != jsonrpc.KindInvalid {
				u.kind = m.Kind
			}
			delete(byLine, rec.Line)
		}
	}
	return nil
}

// findings returns an error for each span of a log whose version has no
// schema: its messages were checked against the JSON-RPC rules alone.
func (l *MCPLog) findings(display string, vs []string) []schema.Finding {
	var out []schema.Finding
	for _, u := range l.unknowns {
		sp := u.span
		line := sp.From
		if line == 0 {
			line = sp.Line
		}
		were := "the " + strconv.Itoa(sp.Messages) + " messages of its session were"
		if sp.Messages == 1 {
			were = "the 1 message of its session was"
		}
		msg := fmt.Sprintf("MCP %q (%s) has no schema in %s: %s checked against the JSON-RPC 2.0 rules only, against no MCP schema; give --mcp-version VERSION to check them against that version's schema%s",
			sp.Version, sp.Reason(), l.set.Dir, were, listOf(vs))
		out = append(out, schema.Finding{Index: u.index, Kind: u.kind, Diagnostic: diag.Diagnostic{File: display, Line: line, Pointer: u.pointer,
			Code: jsonrpc.CodeInvalidRequest, Severity: diag.Error, Message: msg, Violation: kind.Unchecked}})
	}
	return out
}

// listOf is " (there are A, B)" for the versions vs, or "" for none.
func listOf(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return " (there are " + strings.Join(vs, ", ") + ")"
}

// Base returns the schema a log's messages are checked against when no
// version is chosen for them: that of the log's first version; for a
// graph, whose messages have no place in the log's text,
// --mcp-version's or the newest's.
func (m *MCPFlags) Base(l *MCPLog) (*schema.Schema, error) {
	for _, sp := range l.versions.Spans {
		if sp.Messages > 0 && sp.Source != rules.Unknown {
			return l.byVersion[sp.Version], nil
		}
	}
	v := m.version
	if v == "" {
		v = m.set.Newest()
	}
	s, err := m.set.Schema(v)
	if errors.Is(err, mcp.ErrNoSchema) {
		return nil, nil
	}
	return s, err
}

// DisplayName is how a FILE argument is named in reports.
func DisplayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}

// versionLines returns, for each span of messages of a log, where it
// starts, its version and why.
func (l *MCPLog) versionLines(display string) []string {
	var out []string
	for _, sp := range l.versions.Spans {
		if sp.Messages == 0 {
			continue
		}
		pos := display
		if sp.Line > 0 {
			pos += ":" + strconv.Itoa(sp.Line)
		}
		session := ""
		switch {
		case len(l.versions.Spans) == 1:
		case sp.ID != "" && sp.Session > 0:
			session = fmt.Sprintf(", session %d (%q)", sp.Session, sp.ID)
		case sp.ID != "":
			session = fmt.Sprintf(", session %q", sp.ID)
		case sp.Session > 0:
			session = fmt.Sprintf(", session %d", sp.Session)
		}
		instead := ""
		if v, ok := l.lent[sp.Version]; ok {
			instead = fmt.Sprintf("; no schema for it: checked against MCP %s's, given with --mcp-version", v)
		}
		out = append(out, fmt.Sprintf("%s: MCP %s for %s%s: %s%s", pos, sp.Version, strconv.Itoa(sp.Messages)+" message"+cli.Plural(sp.Messages), session, sp.Reason(), instead))
	}
	return out
}

// Notice says on standard error which version each span of a log takes
// (for stats, whose report has no place for it).
func (l *MCPLog) Notice(e *cli.Env, cmd, display string) {
	for _, line := range l.versionLines(display) {
		cli.Errorf(e, cmd, "%s", line)
	}
	for _, v := range l.missing {
		cli.Errorf(e, cmd, "%s: warning: no schema for MCP %q in %s: only the JSON-RPC 2.0 rules are checked; --mcp-version VERSION checks its messages against VERSION's schema", display, v, l.set.Dir)
	}
}

// reportVersions writes the version of each span of a log checked with
// --mcp: as lines of the text report, as {"mcpVersion": {...}} JSON lines,
// or into the SARIF log.
func reportVersions(w io.Writer, sarif *sarifLog, format, display string, l *MCPLog) {
	switch format {
	case "sarif":
		sarif.addVersions(display, l)
		return
	case "json":
		for _, sp := range l.versions.Spans {
			if sp.Messages == 0 {
				continue
			}
			v := map[string]any{"file": display, "line": sp.Line, "messages": sp.Messages, "session": sp.Session,
				"version": sp.Version, "source": sp.Source.String(), "reason": sp.Reason()}
			if sp.ID != "" {
				v["sessionId"] = sp.ID
			}
			line, _ := json.Marshal(map[string]any{"mcpVersion": v})
			fmt.Fprintf(w, "%s\n", line)
		}
		return
	}
	for _, line := range l.versionLines(display) {
		fmt.Fprintln(w, termsafe.Escape(line))
	}
}

// ruleTally passes a log's findings on, and adds those the rules make of
// its sessions as wholes once it has been read, counting the message they
// are about invalid for an error.
type ruleTally struct {
	l       *MCPLog
	out     func(schema.Finding)
	errored map[int]bool // the messages End may speak of that have errors
	// bad are the messages with errors among those of a version with no
	// schema: the others of them are unchecked.
	bad map[int]bool
}

// tally returns the tally of a log checked with l (nil: none).
func (l *MCPLog) tally(emit func(schema.Finding)) *ruleTally {
	return &ruleTally{l: l, out: emit, errored: map[int]bool{}, bad: map[int]bool{}}
}

// start emits the errors of the versions with no schema, before the
// log's findings.
func (t *ruleTally) start(display string) {
	if t.l == nil || len(t.l.unknowns) == 0 {
		return
	}
	vs, _ := t.l.set.Versions()
	for _, f := range t.l.findings(display, vs) {
		t.out(f)
	}
}

func (t *ruleTally) emit(f schema.Finding) {
	if t.l != nil && f.Severity == diag.Error {
		if t.l.rules != nil && t.l.rules.MaySpeakOf(f.Index) {
			t.errored[f.Index] = true
		}
		t.noteBad(f.Index)
	}
	t.out(f)
}

// noteBad notes an error of the index-th message if its version has no
// schema.
func (t *ruleTally) noteBad(index int) {
	if len(t.l.missing) > 0 {
		if sp := t.l.versions.At(index); sp != nil && slices.Contains(t.l.missing, sp.Version) {
			t.bad[index] = true
		}
	}
}

// end emits the rules' findings about sessions, counting them in sum, and
// moves the messages of versions with no schema that have no error from
// valid to unchecked.
func (t *ruleTally) end(display string, sum *schema.Summary) {
	if t.l == nil {
		return
	}
	if t.l.rules != nil {
		for _, f := range t.l.rules.End() {
			f.File = display
			switch {
			case f.Severity == diag.Warning:
				sum.Warnings++
			case !t.errored[f.Index]:
				t.errored[f.Index] = true
				t.noteBad(f.Index)
				sum.Valid--
				if sum.Invalid == nil {
					sum.Invalid = map[string]int{}
				}
				sum.Invalid[f.Kind.String()]++
			}
			t.out(f)
		}
	}
	unchecked := -len(t.bad)
	for _, u := range t.l.unknowns {
		unchecked += u.span.Messages
	}
	if unchecked > 0 {
		sum.Valid -= unchecked
		sum.Unchecked += unchecked
	}
}
