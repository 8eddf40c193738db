// Package importcmd is "jrpcld import" (import is a keyword): a recording
// of another tool (MCP Inspector, mcp-recorder, VCR) converted into a log.
package importcmd

import (
	"errors"
	"io"
	"os"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/mcp"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld import".
func NewCmd() cli.Command {
	c := cli.Command{Name: "import", Args: "--from inspector|mcp-recorder|vcr [-o LOG] FILE",
		Summary: "convert an MCP Inspector, mcp-recorder or agent-vcr recording into a log"}
	c.Help = importHelp
	c.Setup = runImport
	return c
}

const importHelp = `
Converts a recording of an MCP session made by another tool into the log
the other commands read: envelope lines {"dir","ts","msg"}, on standard
output or into LOG (written whole or not at all). The recording is read as
a stream: memory holds one of its entries, and the answers that wait for
the requests sent before them, however long it is. FILE ("-" for standard
input) is, with --from:

  inspector     an export of MCP Inspector: its request history (each
                message, its response, who sent it, when, how long the
                answer took) or its network log of Streamable HTTP traffic
                (request bodies; JSON and server-sent-event responses)
  mcp-recorder  an mcp-recorder cassette (the client's requests and
                notifications and the server's responses; no times)
  vcr           an agent-vcr recording (.vcr): the initialize handshake,
                then each request, its notifications and its response

Messages keep their JSON text; each gets its direction and the time the
recording gives it, at the precision it gives it (an answer's is its
request's plus the recorded latency, to the nanosecond). They come in the
order they were recorded: the recording's entries (each a request, what
was sent while it was open, and its answer) in the recording's order, and
each message an entry holds after its request and after the later
requests sent before it, by time (ties keep the recording's order); where
times are missing or cannot be compared, in the recording's order. What
holds no message (an HTTP DELETE, a 202) is skipped; what cannot be read,
or has to be guessed (a member of the wrong type or named twice, an
unknown direction, an answer timed before its request, a message nested
deeper or longer than the other commands read without a raised limit), is a
warning naming it (FILE: /pointer). Exit status: 0, or 2 when FILE cannot be read, is not
in the format given or holds no message.`

// importOptions are the flags of import.
type importOptions struct {
	from    string
	outPath string
}

func runImport(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &importOptions{}
	fs.StringVar(&o.from, "from", "", "the recording's format: `inspector`, mcp-recorder or vcr")
	fs.StringVarP(&o.outPath, "output", "o", "", "write the log to `LOG` (atomically) instead of standard output")
	return func(e *cli.Env, files []string) error {
		if o.from == "" {
			return cli.Failf("give the recording's format: --from inspector, mcp-recorder or vcr")
		}
		f, err := mcp.ParseRecorder(o.from)
		if err != nil {
			return cli.Failf("--from: %v", err)
		}
		if len(files) != 1 {
			return cli.Failf("give one FILE (\"-\" for standard input), got %d", len(files))
		}
		if err := cli.RefuseInput(e, "-o", o.outPath, files); err != nil {
			return err
		}
		in, display, _, err := cli.OpenInput(e, files[0])
		if err != nil {
			return cli.Fail(err)
		}
		if cl, ok := in.(io.Closer); ok {
			defer cl.Close()
		}
		return importTo(e, c.Name, o.outPath, in, display, f)
	}
}

// importTo converts the recording in (named display) into the log
// outPath, or standard output, whole or not at all: the log is written to
// a temporary file as it is converted, in memory that does not grow with
// the recording.
func importTo(e *cli.Env, cmd, outPath string, in io.Reader, display string, f mcp.Recorder) error {
	out, err := cli.OpenOutput(e, cmd, outPath)
	var spool *os.File
	if err == nil && !out.IsFile() {
		// Standard output gets the log once it is whole.
		if spool, err = os.CreateTemp("", "jrpcld-import-*"); err == nil {
			// Removed at once where the system allows it: nothing is left
			// behind, whatever stops the run.
			os.Remove(spool.Name())
			defer spool.Close()
		}
	}
	if err != nil {
		return cli.Fail(err)
	}
	var w io.Writer = out
	if spool != nil {
		w = spool
	}
	err = mcp.ConvertRecording(w, in, f, func(d diag.Diagnostic) {
		d.File = display
		cli.Errorf(e, cmd, "%s", d)
	})
	if err == nil && spool != nil {
		if _, err = spool.Seek(0, io.SeekStart); err == nil {
			_, err = io.Copy(out, spool)
		}
	}
	var fe *mcp.RecordingError
	switch {
	case errors.As(err, &fe):
		cli.Errorf(e, cmd, "%s: %v; is --from %s right?", display, err, f)
	case err != nil:
		cli.Errorf(e, cmd, "%s: %v", display, err)
	}
	if err := out.Finish(err == nil); err != nil {
		return cli.Fail(err)
	}
	if err != nil {
		return cli.ExitError(cli.ExitUsage) // printed above
	}
	return nil
}
