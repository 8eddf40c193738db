//go:build unix

package convert

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used: on
// a machine other work shares, CPU time per message moves much less than
// wall time does.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
