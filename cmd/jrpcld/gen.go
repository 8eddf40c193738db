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

func runGen(c *command, fs *pflag.FlagSet) func(e *env, args []string) int {
	n := fs.IntP("messages", "n", 1000000, "number of `messages` to write")
	outPath := fs.StringP("output", "o", "", "write to `FILE` (atomically) instead of standard output")
	quiet := addQuietFlag(fs)
	return func(e *env, files []string) int {
		if len(files) == 0 {
			errorf(e, "gen", "give at least one TEMPLATE log (\"-\" for standard input)")
			return exitUsage
		}
		if *n < 0 {
			errorf(e, "gen", "-n must not be negative")
			return exitUsage
		}
		if refuseInput(e, c.name, "-o", *outPath, files) {
			return exitUsage
		}
		var readers []*rpclog.Reader
		for _, name := range files {
			in, display, _, err := openInput(e, name)
			if err != nil {
				errorf(e, "gen", "%v", err)
				return exitUsage
			}
			if c, ok := in.(io.Closer); ok {
				defer c.Close()
			}
			br := bufio.NewReaderSize(in, 64<<10)
			head, _ := br.Peek(512)
			if err := notALog(name, display, head); err != nil {
				errorf(e, "gen", "%v", err)
				return exitUsage
			}
			r, err := rpclog.NewReader(br, display, rpclog.ReaderOptions{})
			if err != nil {
				errorf(e, "gen", "%v", err)
				return exitUsage
			}
			readers = append(readers, r)
		}
		g, err := rpclog.NewGenerator(readers...)
		if err != nil {
			errorf(e, "gen", "%v", err)
			return exitUsage
		}
		out, err := openOutput(e, c.name, *outPath)
		if err != nil {
			errorf(e, "gen", "%v", err)
			return exitUsage
		}
		var written atomic.Int64
		bar := watchBytes(e, *quiet, 0, &written)
		err = g.Generate(countingWriter{out, &written}, *n)
		bar.done()
		if err != nil {
			out.finish(false)
			errorf(e, "gen", "%v", err)
			return exitUsage
		}
		if err := out.finish(true); err != nil {
			errorf(e, "gen", "%v", err)
			return exitUsage
		}
		return exitOK
	}
}
