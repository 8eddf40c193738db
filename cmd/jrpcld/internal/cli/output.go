package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/internal/atomicfile"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// output is where a command writes its result: standard output, or a file
// written atomically (-o). On a failure, or when INT, TERM or HUP arrives,
// the file keeps its previous content and the temporary file is removed.
// A device or named pipe (-o /dev/null) is written straight.
type Output struct {
	io.Writer
	file *atomicfile.File
	stop func()

	mu       sync.Mutex // held by finish, and by the signal handler
	finished bool       // finish has begun: a signal no longer drops the file
}

// outputSignals are the signals that stop a command writing a file: the
// temporary file is removed and the process exits with status 128 plus
// the signal's number.
var outputSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// OpenOutput starts the output of command cmd: standard output for "" or
// "-", else the file at path, written atomically (through a symbolic link
// when path is one: see atomicfile.Create).
func OpenOutput(e *Env, cmd, path string) (*Output, error) {
	if path == "" || path == "-" {
		return &Output{Writer: e.Stdout, stop: func() {}}, nil
	}
	// Signals are caught before the temporary file exists, so that none
	// can end the process and leave it behind. A signal the process was
	// started to ignore (nohup) stays ignored.
	sigs := make(chan os.Signal, 1)
	Notify(sigs, outputSignals...)
	_, err := os.Stat(path)
	existed := err == nil
	f, err := atomicfile.Create(path)
	if err != nil {
		signal.Stop(sigs)
		return nil, err
	}
	o := &Output{Writer: f, file: f}
	o.stop = sync.OnceFunc(func() {
		// After Stop no signal is sent on sigs: closing it ends the
		// goroutine, once it has taken a signal sent before.
		signal.Stop(sigs)
		close(sigs)
	})
	go func() {
		sig, ok := <-sigs
		if ok {
			o.interrupted(e, cmd, path, existed, sig.(syscall.Signal))
		}
	}()
	return o, nil
}

// interrupted handles signal sig: unless finish has begun, it removes the
// temporary file, says so in one line and exits with status 128+sig. When
// finish has begun, the signal is sent again, to have its default effect.
func (o *Output) interrupted(e *Env, cmd, path string, existed bool, sig syscall.Signal) {
	o.mu.Lock()
	if o.finished {
		o.mu.Unlock()
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Signal(sig) // no longer caught: finish stopped that
		}
		return
	}
	state := "got part of the output" // a device or pipe: nothing to drop
	if !o.file.InPlace() {
		// The file is not closed, only its name removed: a write under
		// way in another goroutine goes on into a file no name reaches,
		// rather than failing with a second message before the exit.
		os.Remove(o.file.Temp())
		state = "is unchanged"
		if !existed {
			state = "was not created"
		}
	}
	if IsTerminal(e.Stderr) {
		fmt.Fprintln(e.Stderr) // past the ^C the terminal echoed
	}
	Errorf(e, cmd, "stopped by %s; %s %s", SignalName(sig), path, state)
	exit(128 + int(sig))
}

// exit ends the process; tests replace it.
var exit = os.Exit

// IsFile reports whether o writes a file (-o FILE), not standard output.
func (o *Output) IsFile() bool { return o.file != nil }

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// finish commits the file when ok, and drops it otherwise. From its start
// a signal no longer drops the file.
func (o *Output) Finish(ok bool) error {
	if o.file == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finished = true
	o.stop()
	if !ok {
		o.file.Abort()
		return nil
	}
	return o.file.Commit()
}

// SameFile returns the input among inputs that names the same file as out
// (os.SameFile: whatever the spelling, the symbolic links or hard links
// that lead to it), "-" when standard input is that file, and false when
// none is, or out does not exist or is a device or pipe.
func SameFile(e *Env, out string, inputs []string) (string, bool) {
	if out == "" || out == "-" {
		return "", false
	}
	ost, err := os.Stat(out)
	if err != nil || !ost.Mode().IsRegular() && !ost.IsDir() {
		return "", false // a device or pipe: writing it leaves the input be
	}
	for _, in := range inputs {
		var ist os.FileInfo
		if in == "-" {
			if f, ok := e.Stdin.(*os.File); ok {
				ist, err = f.Stat()
			} else {
				continue
			}
		} else {
			ist, err = os.Stat(in)
		}
		if err == nil && os.SameFile(ost, ist) {
			return in, true
		}
	}
	return "", false
}

// RefuseInput returns a failure when the file flag names (-o FILE, --html
// FILE) is one of the inputs: replacing it would destroy what is being
// read. Callers check before reading anything.
func RefuseInput(e *Env, flag, out string, inputs []string) error {
	in, same := SameFile(e, out, inputs)
	switch {
	case !same:
		return nil
	case in == "-":
		return Failf("%s %s is also the input (standard input): refusing to replace it (write elsewhere)", flag, out)
	case filepath.Clean(in) == filepath.Clean(out):
		return Failf("%s %s is also an input: refusing to replace it (write elsewhere)", flag, out)
	}
	return Failf("%s %s is also an input (%s): refusing to replace it (write elsewhere)", flag, out, in)
}

// progress draws a progress bar on standard error for long inputs, when it
// is a terminal and -q was not given.
type Progress struct {
	w       io.Writer
	total   int64 // bytes of input, 0 when unknown
	start   time.Time
	last    time.Time
	msgs    int
	enabled bool
}

// progressThreshold is the input size from which a progress bar is shown.
const progressThreshold = 4 << 20

func NewProgress(e *Env, quiet bool, total int64) *Progress {
	p := &Progress{w: e.Stderr, total: total, start: time.Now()}
	if f, ok := e.Stderr.(*os.File); ok && !quiet && total >= progressThreshold {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.enabled = true
		}
	}
	return p
}

// update records one more message, done bytes read so far.
func (p *Progress) Update(done int64) {
	p.msgs++
	if !p.enabled {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	secs := now.Sub(p.start).Seconds()
	rate := float64(p.msgs) / secs
	line := fmt.Sprintf("%6.1f MB", float64(done)/1e6)
	if p.total > 0 && done <= p.total {
		frac := float64(done) / float64(p.total)
		const width = 30
		bar := make([]byte, width)
		for i := range bar {
			if float64(i) < frac*width {
				bar[i] = '='
			} else {
				bar[i] = ' '
			}
		}
		left := time.Duration(0)
		if frac > 0 {
			left = time.Duration(secs*(1-frac)/frac) * time.Second
		}
		line = fmt.Sprintf("[%s] %5.1f%% %s of %.1f MB, %.0f msgs/s, %s left", bar, frac*100, line, float64(p.total)/1e6, rate, left.Round(time.Second))
	} else {
		line += fmt.Sprintf(", %.0f msgs/s", rate)
	}
	fmt.Fprintf(p.w, "\r%-100s", line)
}

// done clears the progress line.
func (p *Progress) Done() {
	if p.enabled && !p.last.IsZero() {
		fmt.Fprintf(p.w, "\r%-100s\r", "")
	}
}

// OutputFormat returns the RDF format a command writes and whether it
// gzip-compresses it: from the extension of the -o FILE path (.ttl, .nt,
// .nq, .jsonld or .json, each optionally followed by .gz), else from
// format, the value of --format. explicit says --format was given on the
// command line; fixed, that the command writes only format (turtle). An
// extension that disagrees with an explicit or fixed format is an error,
// as is a format jrpcld does not write, named by its format (--format) or
// by its extension (.rdf, .owl, .xml, .trig, .n3, .trix).
func OutputFormat(format string, explicit, fixed bool, path string) (rdf.Format, bool, error) {
	var ext rdf.Format
	var gz, known bool
	if path != "" && path != "-" {
		ext, gz, known = rdf.FormatOf(path)
		name := strings.TrimSuffix(strings.ToLower(path), ".gz")
		if filepath.Ext(name) == ".json" {
			ext, known = rdf.JSONLD, true // JSON-LD is JSON
		}
		if unwritten, ok := map[string]string{".trig": "TriG", ".n3": "Notation3", ".trix": "TriX", ".xml": "RDF/XML"}[filepath.Ext(name)]; ok {
			return 0, false, fmt.Errorf("-o %s: jrpcld does not write %s: use .ttl, .nt, .nq (each log its own named graph) or .jsonld (.json), each optionally followed by .gz", path, unwritten)
		}
	}
	f, err := rdf.ParseFormat(format)
	if err != nil {
		return 0, false, fmt.Errorf("unknown RDF format %q: jrpcld writes turtle, ntriples, nquads, jsonld or jsonld-expanded", format)
	}
	if known {
		switch {
		case !ext.Writable():
			return 0, false, fmt.Errorf("-o %s: jrpcld does not write %v: use .ttl, .nt, .nq (each log its own named graph) or .jsonld (.json), each optionally followed by .gz", path, ext)
		case fixed && ext != f:
			return 0, false, fmt.Errorf("-o %s names %v, but this command writes %v: use \"jrpcld rdf -o %s\"", path, ext, f, path)
		case explicit && ext != f && !(ext == rdf.JSONLD && f == rdf.JSONLDExpanded):
			return 0, false, fmt.Errorf("--format %v and -o %s (%v) disagree: drop --format, or change the extension", f, path, ext)
		case !explicit:
			f = ext
		}
	}
	if !f.Writable() {
		return 0, false, fmt.Errorf("jrpcld does not write %v: use turtle, ntriples, nquads, jsonld or jsonld-expanded", f)
	}
	return f, gz, nil
}

// NotALog returns an error when the input name (display in messages), whose
// first bytes are head, holds RDF rather than a JSON-RPC log, such as a
// graph jrpcld wrote given back to turtle: one line that points to
// "jrpcld json", instead of an error for each line of it. The rule is
// rpclog.GraphFormat's, which stats and jrpcld-beam follow too. It returns
// nil for anything else, which the log reader then reads.
func NotALog(name, display string, head []byte) error {
	f, ok := rpclog.GraphFormat(name, head)
	switch {
	case !ok:
		return nil
	case f == rdf.RDFXML:
		return fmt.Errorf("%s is XML (RDF/XML?), not a JSON-RPC log", display)
	}
	arg := name
	if name == "-" {
		arg = "--from " + f.String()
	}
	return fmt.Errorf("%s is RDF (%v), not a JSON-RPC log: to turn it back into messages, use \"jrpcld json %s\"", display, f, arg)
}

// ErrIsDir is the error for a folder given where a file is read.
func ErrIsDir(name string) error {
	return fmt.Errorf("%s is a folder, not a file: give the files in it (e.g. %s)", name, filepath.Join(name, "*.jsonl"))
}
