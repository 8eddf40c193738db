package cli

import (
	"os"
	"runtime/debug"
)

// TuneGC sets the garbage collector for streaming a log: decoded messages
// are short-lived, so collecting when the heap has tripled (at the latest
// when it reaches 40 MiB) rather than whenever it doubles costs less CPU,
// and memory stays flat. GOGC or GOMEMLIMIT in the environment win. It
// returns the function that restores the previous settings.
func TuneGC() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(200)
	limit := debug.SetMemoryLimit(40 << 20)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
