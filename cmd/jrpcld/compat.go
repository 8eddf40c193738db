package main

import (
	"io"
	"sync/atomic"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/blockdoc"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/push"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
	versioncmd "github.com/jrpcld/jrpcld/cmd/jrpcld/internal/version"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register"
	"github.com/spf13/pflag"
)

// The names below are those of the packages under internal/, as the
// commands still in package main use them.

// defaultAddr is where serve and build --serve listen by default.
const defaultAddr = serve.DefaultAddr

// serveDir is serve.Dir.
func serveDir(e *env, dir, addr string, stop <-chan struct{}, ready func(url string)) error {
	return serve.Dir(e, dir, addr, stop, ready)
}

// cli is c as a cli.Command.
func (c command) cli() cli.Command {
	return cli.Command{Name: c.name, Args: c.args, Summary: c.summary, Help: c.help,
		Setup: func(_ *cli.Command, fs *pflag.FlagSet) runner { return c.setup(&c, fs) }}
}

// output is cli.Output, with the method names of package main.
type output struct{ *cli.Output }

// openOutput is cli.OpenOutput.
func openOutput(e *env, cmd, path string) (*output, error) {
	o, err := cli.OpenOutput(e, cmd, path)
	if err != nil {
		return nil, err
	}
	return &output{o}, nil
}

func (o *output) finish(ok bool) error { return o.Finish(ok) }

// progress is cli.Progress, with the method names of package main.
type progress struct{ *cli.Progress }

// newProgress is cli.NewProgress.
func newProgress(e *env, quiet bool, total int64) *progress {
	return &progress{cli.NewProgress(e, quiet, total)}
}

func (p *progress) update(done int64) { p.Update(done) }
func (p *progress) done()             { p.Done() }

// byteProgress is cli.ByteProgress, with the method names of package main.
type byteProgress struct{ *cli.ByteProgress }

// watchBytes is cli.WatchBytes.
func watchBytes(e *env, quiet bool, total int64, n *atomic.Int64) byteProgress {
	return byteProgress{cli.WatchBytes(e, quiet, total, n)}
}

func (b byteProgress) done() { b.Done() }

// countingReader is cli.CountingReader, written without field names.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	return cli.CountingReader{R: c.r, N: c.n}.Read(p)
}

// sameFile is cli.SameFile.
func sameFile(e *env, out string, inputs []string) (string, bool) {
	return cli.SameFile(e, out, inputs)
}

// refuseInput is cli.RefuseInput.
func refuseInput(e *env, flag, out string, inputs []string) error {
	return cli.RefuseInput(e, flag, out, inputs)
}

// outputFormat is cli.OutputFormat.
func outputFormat(format string, explicit, fixed bool, path string) (rdf.Format, bool, error) {
	return cli.OutputFormat(format, explicit, fixed, path)
}

// notALog is cli.NotALog.
func notALog(name, display string, head []byte) error { return cli.NotALog(name, display, head) }

// errIsDir is cli.ErrIsDir.
func errIsDir(name string) error { return cli.ErrIsDir(name) }

// stdinReader is cli.StdinReader.
func stdinReader(e *env) io.Reader { return cli.StdinReader(e) }

// addQuietFlag is cli.AddQuietFlag.
func addQuietFlag(fs *pflag.FlagSet) *bool { return cli.AddQuietFlag(fs) }

// openInput is cli.OpenInput.
func openInput(e *env, name string) (io.Reader, string, int64, error) { return cli.OpenInput(e, name) }

// profileHelp is cli.ProfileHelp.
const profileHelp = cli.ProfileHelp

// profiler is cli.Profiler, with the method names of package main.
type profiler struct{ *cli.Profiler }

// addProfileFlags is cli.AddProfileFlags.
func addProfileFlags(fs *pflag.FlagSet) *profiler { return &profiler{cli.AddProfileFlags(fs)} }

func (p *profiler) start(e *env, cmd string) error { return p.Start(e, cmd) }

// pushHelp is push.Help.
const pushHelp = push.Help

// pushUsage is push.Usage.
const pushUsage = push.Usage

// pusher is push.Pusher.
type pusher = push.Pusher

// pushFlags is push.Flags, with the method names of package main.
type pushFlags struct{ *push.Flags }

// addPushFlags is push.AddFlags.
func addPushFlags(fs *pflag.FlagSet, usage string) *pushFlags {
	return &pushFlags{push.AddFlags(fs, usage)}
}

func (p *pushFlags) pusher(e *env, cmd string, fs *pflag.FlagSet) (*pusher, error) {
	return p.Pusher(e, cmd, fs)
}

// pushLogs is push.Logs, with the limits of the flags.
func pushLogs(ps *pusher, base string, files []string, limits *limitFlags, newConverter func(quiet bool) *convert.Converter) error {
	return push.Logs(ps, base, files, limits.readerOptions(), newConverter)
}

// pushOntologies is push.Ontologies.
func pushOntologies(ps *pusher, out string, res *register.Result) error {
	return push.Ontologies(ps, out, res)
}

// The flags that choose a building block: cli's.
type (
	blockFlags = cli.BlockFlags
	contextMap = cli.ContextMap
	importMaps = cli.ImportMaps
)

// importUsage is cli.ImportUsage.
const importUsage = cli.ImportUsage

// addBlockFlags is cli.AddBlockFlags.
func addBlockFlags(fs *pflag.FlagSet) *blockFlags { return cli.AddBlockFlags(fs) }

// warn is cli.Warn.
func warn(e *env, cmd string, warns []ldctx.Warning) { cli.Warn(e, cmd, warns) }

// tuneGC is cli.TuneGC.
func tuneGC() func() { return cli.TuneGC() }

// reportOntology is blockdoc.ReportOntology.
func reportOntology(e *env, cmd string, b *bblock.Block, reg *bblock.Register, opts *ldctx.Options) {
	blockdoc.ReportOntology(e, cmd, b, reg, opts)
}

// version is jrpcld's version (version.Version).
func version() string { return versioncmd.Version() }
