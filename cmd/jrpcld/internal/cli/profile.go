package cli

import (
	"errors"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/pflag"
)

// ProfileHelp is the paragraph the help of a command that takes the
// profile flags ends with.
const ProfileHelp = `--cpuprofile FILE writes a CPU profile of the run, --memprofile FILE a memory
profile (what was allocated during the run, and what was in use at its end,
after a garbage collection), both complete when the command ends, whatever
its exit status (not when a signal stops it); read them with "go tool pprof
FILE".`

// Profiler holds the profile flags of one command: --cpuprofile and
// --memprofile. Both files are complete when the command returns, on its
// error paths too; a file that cannot be created is a usage error.
type Profiler struct {
	cpuPath, memPath string
	cmd              string
	e                *Env
	cpu, mem         *os.File
}

// AddProfileFlags registers --cpuprofile and --memprofile on fs.
func AddProfileFlags(fs *pflag.FlagSet) *Profiler {
	p := &Profiler{}
	fs.StringVar(&p.cpuPath, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof FILE)")
	fs.StringVar(&p.memPath, "memprofile", "", "write a memory profile of the run to `FILE` (go tool pprof FILE)")
	return p
}

// Start creates the files the flags name and starts the CPU profile, and
// has stop run when the command has ended (see env.AtEnd), on its error
// paths too. A file that cannot be created is a failure with exit status
// 2, and nothing is started.
func (p *Profiler) Start(e *Env, cmd string) error {
	p.e, p.cmd = e, cmd
	var err error
	if p.memPath != "" {
		// Created now, so that a bad path fails before any work is done.
		if p.mem, err = os.Create(p.memPath); err != nil {
			return Failf("--memprofile: %v", err)
		}
	}
	if p.cpuPath != "" {
		if p.cpu, err = os.Create(p.cpuPath); err == nil {
			if err = pprof.StartCPUProfile(p.cpu); err != nil {
				p.cpu.Close()
				p.cpu = nil
			}
		}
		if err != nil {
			p.closeMem()
			return Failf("--cpuprofile: %v", err)
		}
	}
	e.AtEnd(p.stop)
	return nil
}

// closeMem removes the memory profile's file when the command does not
// run: no empty profile is left behind.
func (p *Profiler) closeMem() {
	if p.mem != nil {
		p.mem.Close()
		os.Remove(p.mem.Name())
		p.mem = nil
	}
}

// stop ends the CPU profile and writes the memory profile, after a garbage
// collection so that it shows what is still in use. Errors writing them are
// printed; the command's exit status is already decided.
func (p *Profiler) stop() {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			Errorf(p.e, p.cmd, "--cpuprofile: %v", err)
		}
		p.cpu = nil
	}
	if p.mem != nil {
		runtime.GC()
		// "allocs" as go test -memprofile writes it: allocations since
		// the start (alloc_space, the default view) and in use (inuse_space).
		err := pprof.Lookup("allocs").WriteTo(p.mem, 0)
		if err = errors.Join(err, p.mem.Close()); err != nil {
			Errorf(p.e, p.cmd, "--memprofile %s: %v", p.memPath, err)
		}
		p.mem = nil
	}
}
