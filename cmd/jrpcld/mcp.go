package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/spf13/pflag"
)

// mcpHelp is what --mcp does, for the help of validate and stats.
const mcpHelp = `With --mcp, each LOG is checked against the official MCP schema of the
version its initialize handshake negotiated: the protocolVersion of the
server's answer, else of the client's request (said in a notice), else
--mcp-version (default: the newest with a schema, said in a notice; a
version with no schema there is a usage error that lists those it has); the
handshake is looked for among a log's first 10,000 messages. The schemas come from
--mcp-schemas DIR (laid out VERSION/schema.json) or from the user's cache,
which "jrpcld fetch mcp-schemas" fills. A version with no schema there is
one warning for the log, whose messages are then checked against the
JSON-RPC 2.0 rules only.`

// mcpFlags are the flags of validate and stats that check each log against
// the MCP schema of the version it negotiated.
type mcpFlags struct {
	on      bool
	dir     string
	version string
	set     *mcp.Set
}

func addMCPFlags(fs *pflag.FlagSet) *mcpFlags {
	m := &mcpFlags{}
	fs.BoolVar(&m.on, "mcp", false, "check each log against the MCP schema of the version its handshake negotiated")
	fs.StringVar(&m.dir, "mcp-schemas", "", "with --mcp: the MCP schemas, `DIR`/VERSION/schema.json (default: the cache \"jrpcld fetch mcp-schemas\" fills)")
	fs.StringVar(&m.version, "mcp-version", "", "with --mcp: the `VERSION` of a log without a handshake (default: the newest known)")
	return m
}

// open checks the flags and finds the schemas; other names the flags that
// choose a schema otherwise, and whether one was given.
func (m *mcpFlags) open(compiler *schema.Compiler, other string, given bool) error {
	if !m.on {
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

// schemaFor returns the schema of the MCP version the log name negotiated
// (nil, with a warning, when there is none for it), and the env to read
// the log with: standard input is kept in a temporary file, read twice;
// done removes it.
func (m *mcpFlags) schemaFor(e *env, cmd, name string) (s *schema.Schema, le *env, done func(), err error) {
	le, done = e, func() {}
	var in io.Reader
	display := name
	if name == "-" {
		display = "stdin"
		tmp, err := os.CreateTemp("", "jrpcld-stdin-*")
		if err != nil {
			return nil, e, done, err
		}
		done = func() { tmp.Close(); os.Remove(tmp.Name()) }
		if _, err := io.Copy(tmp, stdinReader(e)); err != nil {
			return nil, e, done, fmt.Errorf("stdin: %w", err)
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return nil, e, done, err
		}
		in = tmp
		copied := *e
		copied.stdin = tmp
		le = &copied
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, e, done, err
		}
		defer f.Close()
		in = f
	}
	h := mcp.Handshake{}
	if r, err := rpclog.NewReader(bufio.NewReaderSize(in, 64<<10), display, rpclog.ReaderOptions{}); err == nil {
		if h, err = mcp.Negotiated(r); err != nil {
			return nil, le, done, fmt.Errorf("%s: %w", display, err)
		}
	} // a log rpclog cannot open is reported as validate reports it
	if name == "-" {
		if _, err := le.stdin.(io.Seeker).Seek(0, io.SeekStart); err != nil {
			return nil, le, done, err
		}
	}
	v := h.Version
	switch {
	case h.Answered:
	case v != "":
		errorf(e, cmd, "%s: MCP %s, as the client's initialize request (line %d) asks: the log has no answer to it", display, v, h.Line)
	case m.version != "":
		v = m.version
	default:
		v = m.set.Newest()
		errorf(e, cmd, "%s: no initialize handshake: checked against MCP %s, the newest known (choose another with --mcp-version)", display, v)
	}
	s, err = m.set.Schema(v)
	if errors.Is(err, mcp.ErrNoSchema) {
		errorf(e, cmd, "%s: warning: no schema for MCP %q in %s: only the JSON-RPC 2.0 rules are checked", display, v, m.set.Dir)
		return nil, le, done, nil
	}
	if err != nil {
		return nil, le, done, fmt.Errorf("MCP %s: %w", v, err)
	}
	return s, le, done, nil
}
