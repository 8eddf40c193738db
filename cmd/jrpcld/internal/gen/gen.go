// Package gen is "jrpcld gen": a log of many messages generated from
// template logs (rpclog.Generator), for benchmarks and load tests.
package gen

import (
	"bufio"
	"io"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/spf13/pflag"
)

// NewCmd returns the command "jrpcld gen".
func NewCmd() cli.Command {
	c := cli.Command{Name: "gen", Args: "[-n N] [-o FILE] [-q] TEMPLATE...",
		Summary: "generate a large synthetic log by cycling recorded ones"}
	c.Help = genHelp
	c.Setup = runGen
	return c
}

const genHelp = `
Writes N messages (as JSON lines, or envelope lines when the templates have
direction and time) by cycling through the messages of the TEMPLATE logs
("-" for standard input). Each cycle gets fresh ids, so requests and their
responses still match, and later timestamps: a log of any size with the sizes,
kinds and pairing of real traffic, for benchmarks and scale tests.`

// genOptions are the flags of gen.
type genOptions struct {
	n       int
	outPath string
	quiet   *bool
}

func runGen(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &genOptions{}
	fs.IntVarP(&o.n, "messages", "n", 1000000, "number of `messages` to write")
	fs.StringVarP(&o.outPath, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	o.quiet = cli.AddQuietFlag(fs)
	return func(e *cli.Env, files []string) error {
		if len(files) == 0 {
			return cli.Failf("give at least one TEMPLATE log (\"-\" for standard input)")
		}
		if o.n < 0 {
			return cli.Failf("-n must not be negative")
		}
		if err := cli.RefuseInput(e, "-o", o.outPath, files); err != nil {
			return err
		}
		var readers []*rpclog.Reader
		for _, name := range files {
			in, display, _, err := cli.OpenInput(e, name)
			if err != nil {
				return cli.Fail(err)
			}
			if c, ok := in.(io.Closer); ok {
				defer c.Close()
			}
			br := bufio.NewReaderSize(in, 64<<10)
			head, _ := br.Peek(512)
			if err := cli.NotALog(name, display, head); err != nil {
				return cli.Fail(err)
			}
			r, err := rpclog.NewReader(br, display, rpclog.ReaderOptions{})
			if err != nil {
				return cli.Fail(err)
			}
			readers = append(readers, r)
		}
		g, err := rpclog.NewGenerator(readers...)
		if err != nil {
			return cli.Fail(err)
		}
		out, err := cli.OpenOutput(e, c.Name, o.outPath)
		if err != nil {
			return cli.Fail(err)
		}
		var written atomic.Int64
		bar := cli.WatchBytes(e, *o.quiet, 0, &written)
		err = g.Generate(cli.CountingWriter{W: out, N: &written}, o.n)
		bar.Done()
		if err != nil {
			out.Finish(false)
			return cli.Fail(err)
		}
		if err := out.Finish(true); err != nil {
			return cli.Fail(err)
		}
		return nil
	}
}
