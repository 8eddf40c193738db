//go:build linux

package transform

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"syscall"
	"time"
)

// threadRoom is the address space boundMemory leaves beyond the limit for
// the threads the Go runtime may start: each takes an 8 MiB stack when
// jrpcld is linked with the C library.
const threadRoom = 32 << 20

// unlimited is RLIM_INFINITY, the value of a limit that is not set.
const unlimited = ^uint64(0)

// childEnv returns the environment of a sandbox's child: this process's,
// and glibc told to keep one malloc arena, so that a thread the Go runtime
// starts does not reserve 64 MiB of address space for its own.
func childEnv() []string { return append(os.Environ(), "MALLOC_ARENA_MAX=1") }

// boundMemory bounds the memory of this process, a sandbox's child, to
// what it has now and limit bytes more: its address space (RLIMIT_AS),
// which the kernel enforces whatever allocates it. Past it, the Go runtime
// fails "out of memory" and exits, which the sandbox reports. The Go
// runtime reserves much address space it does not use (about 1.5 GiB for
// jrpcld), so the bound is set on top of the present size, read from
// /proc, with threadRoom for the threads the runtime may start later; the
// process keeps two threads running Go, which keeps those few. The Go
// heap grows in arenas of 64 MiB, so what a job can use is within 64 MiB
// of the limit. The runtime's own memory limit is set to the bound, so
// that the collector works harder near it rather than garbage reaching it.
func boundMemory(limit int64) error {
	runtime.GOMAXPROCS(min(runtime.NumCPU(), 2))
	runtime.GC()
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return fmt.Errorf("reading its limit of address space: %w", err)
	}
	size, err := vmSize()
	if err != nil {
		return err
	}
	want := uint64(size) + uint64(limit) + threadRoom
	if rl.Max != unlimited && want > rl.Max {
		want = rl.Max
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: want, Max: rl.Max}); err != nil {
		return fmt.Errorf("setting its limit of address space: %w", err)
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(int64(s[0].Value.Uint64()) + limit)
	return nil
}

// vmSize returns the size of this process's address space, as
// /proc/self/status gives it.
func vmSize() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading its size: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, value, _ := bytes.Cut(sc.Bytes(), []byte(":"))
		if string(name) != "VmSize" {
			continue
		}
		f := bytes.Fields(value)
		if len(f) == 2 && string(f[1]) == "kB" {
			if kb, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
				return kb << 10, nil
			}
		}
		break
	}
	return 0, fmt.Errorf("reading its size: no VmSize in kB in /proc/self/status")
}

// cpuTime returns the processor time this process has taken.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
