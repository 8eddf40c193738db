//go:build unix

package regcache

import (
	"os"
	"syscall"
)

// lockDir takes hold of the folder dir for as long as the file it returns
// is open (or the process lives): abandoned then says false.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// abandoned reports whether no process holds the folder dir (lockDir).
func abandoned(dir string) bool {
	f, err := lockDir(dir)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
