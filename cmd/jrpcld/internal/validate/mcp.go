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

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/jrpcld/jrpcld/mcp/rules"
	"github.com/jrpcld/jrpcld/schema"
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
with no schema there is one warning for the log, whose messages of that
version are then checked against the JSON-RPC 2.0 rules only; a
--mcp-version with no schema is a usage error that lists those there are.
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
	fs.StringVar(&m.version, "mcp-version", "", "with --mcp: the `VERSION` of a log without a handshake or _meta version (default: inferred from its messages)")
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
	versions  *rules.Versions
	byVersion map[string]*schema.Schema // the schemas of the log's versions
	rules     *rules.Checker            // nil with --mcp-rules=false
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
	l = &MCPLog{versions: &rules.Versions{}}
	if r, err := read(); err == nil { // a log rpclog cannot open is reported as validate reports it
		if l.versions, err = rules.Scan(r); err != nil {
			return nil, le, done, fmt.Errorf("%s: %w", display, err)
		}
	}
	if err := m.settle(l.versions, read); err != nil {
		return nil, le, done, fmt.Errorf("%s: %w", display, err)
	}
	if l.byVersion, err = m.schemasOf(e, cmd, display, l.versions); err != nil {
		return nil, le, done, err
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

// schemasOf returns the schemas of the versions of v, by version; a
// version without one is a warning.
func (m *MCPFlags) schemasOf(e *cli.Env, cmd, display string, v *rules.Versions) (map[string]*schema.Schema, error) {
	out := map[string]*schema.Schema{}
	seen := map[string]bool{}
	for _, sp := range v.Spans {
		if seen[sp.Version] || sp.Messages == 0 {
			continue
		}
		seen[sp.Version] = true
		s, err := m.set.Schema(sp.Version)
		if errors.Is(err, mcp.ErrNoSchema) {
			cli.Errorf(e, cmd, "%s: warning: no schema for MCP %q in %s: only the JSON-RPC 2.0 rules are checked", display, sp.Version, m.set.Dir)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("MCP %s: %w", sp.Version, err)
		}
		out[sp.Version] = s
	}
	return out, nil
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
		out = append(out, fmt.Sprintf("%s: MCP %s for %s%s: %s", pos, sp.Version, strconv.Itoa(sp.Messages)+" message"+cli.Plural(sp.Messages), session, sp.Reason()))
	}
	return out
}

// Notice says on standard error which version each span of a log takes
// (for stats, whose report has no place for it).
func (l *MCPLog) Notice(e *cli.Env, cmd, display string) {
	for _, line := range l.versionLines(display) {
		cli.Errorf(e, cmd, "%s", line)
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
}

// tally returns the tally of a log checked with l (nil: none).
func (l *MCPLog) tally(emit func(schema.Finding)) *ruleTally {
	return &ruleTally{l: l, out: emit, errored: map[int]bool{}}
}

func (t *ruleTally) emit(f schema.Finding) {
	if t.l != nil && t.l.rules != nil && f.Severity == diag.Error && t.l.rules.MaySpeakOf(f.Index) {
		t.errored[f.Index] = true
	}
	t.out(f)
}

// end emits the rules' findings about sessions, counting them in sum.
func (t *ruleTally) end(display string, sum *schema.Summary) {
	if t.l == nil || t.l.rules == nil {
		return
	}
	for _, f := range t.l.rules.End() {
		f.File = display
		switch {
		case f.Severity == diag.Warning:
			sum.Warnings++
		case !t.errored[f.Index]:
			t.errored[f.Index] = true
			sum.Valid--
			if sum.Invalid == nil {
				sum.Invalid = map[string]int{}
			}
			sum.Invalid[f.Kind.String()]++
		}
		t.out(f)
	}
}
