package validate

import (
	"bufio"
	"fmt"
	"io"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/spf13/pflag"
)

// MCPGraphHelp is what --mcp does, for the help of rdf and turtle.
const MCPGraphHelp = `With --mcp, each log is first checked as "jrpcld validate --mcp" checks it:
the MCP version of each message, then MCP's rules across messages
(docs/mcp-rules.md). Each rule finding is written into the graph as a
jlog:Finding node that its message links with jlog:finding (a batch
member's, the member): the rule's id (jlog:rule), its severity (sh:Violation
for a MUST broken, sh:Warning for a SHOULD), what was found (jlog:message),
where in the message (jlog:pointer), and the section of the specification
that states the rule (rdfs:seeAlso). Which version each run of messages took
is said on standard error (not with -q). The findings do not change the exit
status ("jrpcld validate --mcp" judges a log); examples/queries/mcp/findings.rq
lists them. The schemas come from --mcp-schemas DIR or from the cache, as for
validate; --mcp-version gives the version of a log without a handshake or
_meta version. Without --mcp the graph has no findings. Not with --push.`

// AddMCPGraphFlags binds the flags of rdf and turtle that write the MCP
// rules' findings into the graph.
func AddMCPGraphFlags(fs *pflag.FlagSet) *MCPFlags {
	m := &MCPFlags{rules: true}
	fs.BoolVar(&m.On, "mcp", false, "check MCP's rules across messages, as validate --mcp does, and write each finding into the graph (jlog:finding)")
	fs.StringVar(&m.dir, "mcp-schemas", "", "with --mcp: the MCP schemas, `DIR`/VERSION/schema.json (default: the cache \"jrpcld fetch mcp-schemas\" fills)")
	fs.StringVar(&m.version, "mcp-version", "", "with --mcp: the `VERSION` of a log without a handshake or _meta version (default: inferred from its messages)")
	return m
}

// GraphFindings checks the log name as validate --mcp does, and returns
// the MCP rules' findings by the position of their message (from 1), and
// the env to read the log again with: standard input is kept in a
// temporary file, which done removes. Unless quiet, which version each run
// of messages took is said on standard error. opts are those the log is
// read with.
func (m *MCPFlags) GraphFindings(e *cli.Env, cmd, name string, quiet bool, opts rpclog.ReaderOptions) (findings map[int][]diag.Diagnostic, le *cli.Env, done func(), err error) {
	m.readerOpts = opts
	ml, le, done, err := m.Prepare(e, cmd, name)
	if err != nil {
		return nil, le, done, err
	}
	display := DisplayName(name)
	if !quiet {
		ml.Notice(e, cmd, display)
	}
	in, _, _, err := cli.OpenInput(le, name)
	if err != nil {
		return nil, le, done, err
	}
	if c, ok := in.(io.Closer); ok && name != "-" {
		defer c.Close()
	}
	r, err := rpclog.NewReader(bufio.NewReaderSize(in, 64<<10), display, m.readerOpts)
	if err != nil {
		return nil, le, done, err // the error names the input
	}
	checker, err := schema.NewChecker(nil, "")
	if err != nil {
		return nil, le, done, err
	}
	ml.Observe(checker)
	findings = map[int][]diag.Diagnostic{}
	add := func(f schema.Finding) {
		if f.Rule != "" {
			findings[f.Index+1] = append(findings[f.Index+1], f.Diagnostic)
		}
	}
	if _, err := schema.ValidateLog(r, checker, display, add); err != nil {
		return nil, le, done, fmt.Errorf("%s: %w", display, err)
	}
	for _, f := range ml.rules.End() {
		add(f)
	}
	if s, ok := le.Stdin.(io.Seeker); ok && name == "-" {
		if _, err := s.Seek(0, io.SeekStart); err != nil {
			return nil, le, done, err
		}
	}
	return findings, le, done, nil
}
