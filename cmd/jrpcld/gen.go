package main

import (
	"bufio"
	"io"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/spf13/pflag"
)

func genCommand() command {
	c := command{name: "gen", args: "[-n N] [-o FILE] [-q] TEMPLATE...",
		summary: "generate a large synthetic log by cycling recorded ones"}
	c.help = genHelp
	c.setup = runGen
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

func runGen(c *command, fs *pflag.FlagSet) runner {
	o := &genOptions{}
	fs.IntVarP(&o.n, "messages", "n", 1000000, "number of `messages` to write")
	fs.StringVarP(&o.outPath, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	o.quiet = addQuietFlag(fs)
	return func(e *env, files []string) error {
		if len(files) == 0 {
			return failf("give at least one TEMPLATE log (\"-\" for standard input)")
		}
		if o.n < 0 {
			return failf("-n must not be negative")
		}
		if err := refuseInput(e, "-o", o.outPath, files); err != nil {
			return err
		}
		var readers []*rpclog.Reader
		for _, name := range files {
			in, display, _, err := openInput(e, name)
			if err != nil {
				return fail(err)
			}
			if c, ok := in.(io.Closer); ok {
				defer c.Close()
			}
			br := bufio.NewReaderSize(in, 64<<10)
			head, _ := br.Peek(512)
			if err := notALog(name, display, head); err != nil {
				return fail(err)
			}
			r, err := rpclog.NewReader(br, display, rpclog.ReaderOptions{})
			if err != nil {
				return fail(err)
			}
			readers = append(readers, r)
		}
		g, err := rpclog.NewGenerator(readers...)
		if err != nil {
			return fail(err)
		}
		out, err := openOutput(e, c.name, o.outPath)
		if err != nil {
			return fail(err)
		}
		var written atomic.Int64
		bar := watchBytes(e, *o.quiet, 0, &written)
		err = g.Generate(countingWriter{out, &written}, o.n)
		bar.done()
		if err != nil {
			out.finish(false)
			return fail(err)
		}
		if err := out.finish(true); err != nil {
			return fail(err)
		}
		return nil
	}
}
