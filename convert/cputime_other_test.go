//go:build !unix

package convert

import "time"

// cpuTime is not measured here.
func cpuTime() (time.Duration, bool) { return 0, false }
