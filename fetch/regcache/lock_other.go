//go:build !unix

package regcache

import "os"

// lockDir cannot take hold of a folder here: no file locks.
func lockDir(dir string) (*os.File, error) { return nil, nil }

// abandoned cannot tell whether a process holds a folder here, and so
// says false: what a killed fetch left is kept, and never read.
func abandoned(dir string) bool { return false }
