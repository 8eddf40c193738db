//go:build !linux

package transform

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// childEnv returns the environment of a sandbox's child: nil, this
// process's.
func childEnv() []string { return nil }

// boundMemory bounds the memory of this process, a sandbox's child, to
// what it has now and limit bytes more, where its address space cannot be
// limited (the kernel enforces no RLIMIT_AS): the Go runtime's memory
// limit makes the collector work harder near the bound, and a watchdog
// ends the process as out of memory once the memory the runtime has
// mapped grows past it. Unlike the limit of address space on Linux, one
// large allocation may pass the bound before the watchdog sees it.
func boundMemory(limit int64) error {
	base := mapped()
	debug.SetMemoryLimit(base + limit)
	go func() {
		for range time.Tick(5 * time.Millisecond) {
			if mapped()-base > limit {
				fmt.Fprintln(os.Stderr, "fatal error: out of memory: past the limit of the transform sandbox")
				os.Exit(2)
			}
		}
	}()
	return nil
}

// mapped returns the memory the Go runtime has mapped and not released.
func mapped() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// cpuTime returns the time since the process started: where the processor
// time of a process is not read, a step is bounded in wall-clock time.
func cpuTime() time.Duration { return time.Since(started) }

var started = time.Now()
