package regcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The cache holds, in Root, for each register:
//
//	KEY        a symbolic link to the register's current copy
//	.KEY-N/    a copy: complete once it holds CompleteMark, written last
//
// A fetch writes a new copy in a folder of its own (Stage), marks it
// complete and replaces the link in one rename (Commit): whenever a reader
// resolves KEY, and whenever the fetch is stopped, even killed, KEY leads
// to a complete copy, the earlier one or the new. The folder of a fetch
// that was killed is never read, and a later fetch removes it (RemoveStale).

// CompleteMark is the file a complete copy holds, written last: the URL of
// its register.json.
const CompleteMark = ".jrpcld-complete"

// staleAfter is how long a folder of the cache that no link leads to, and
// that no fetch holds, is left before a fetch removes it: long enough for a
// fetch that has just made its folder to take hold of it.
const staleAfter = time.Minute

// Staging is a copy of a register being written into the cache. Readers
// do not see it until Commit; Abort removes it.
type Staging struct {
	// Dir is the folder the register's files go in, as the register lays
	// them out.
	Dir  string
	root string
	key  string
	lock *os.File // held until Commit or Abort
}

// Stage begins a new copy of the register at u in the cache, first
// removing what fetches that were killed left there (RemoveStale).
func Stage(u string) (*Staging, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("cache of registers: %w", err)
	}
	RemoveStale(root)
	key := Key(u)
	dir, err := os.MkdirTemp(root, "."+key+"-")
	if err != nil {
		return nil, fmt.Errorf("cache of registers: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("cache of registers: %w", err)
	}
	return &Staging{Dir: dir, root: root, key: key, lock: lock}, nil
}

// Commit marks the copy complete (CompleteMark, holding u) and makes it the
// register's copy in one rename; the earlier copy is removed. It returns
// the path readers know the copy by (Root/KEY, a symbolic link).
func (s *Staging) Commit(u string) (string, error) {
	if err := writeMark(filepath.Join(s.Dir, CompleteMark), u); err != nil {
		return "", fmt.Errorf("cache of registers: %w", err)
	}
	link := filepath.Join(s.root, s.key)
	next := s.Dir + ".link"
	if err := os.Symlink(filepath.Base(s.Dir), next); err != nil {
		return "", fmt.Errorf("cache of registers: %w", err)
	}
	old, _ := os.Readlink(link)
	if fi, err := os.Lstat(link); err == nil && fi.IsDir() {
		// A copy an older jrpcld installed in place, which Dir does not
		// read: a link cannot replace a folder.
		if err := os.RemoveAll(link); err != nil {
			os.Remove(next)
			return "", fmt.Errorf("cache of registers: %w", err)
		}
	}
	if err := os.Rename(next, link); err != nil {
		os.Remove(next)
		return "", fmt.Errorf("cache of registers: %w", err)
	}
	s.unlock()
	if old != "" && filepath.Base(old) == old && strings.HasPrefix(old, "."+s.key+"-") {
		os.RemoveAll(filepath.Join(s.root, old))
	}
	return link, nil
}

// Abort removes the copy.
func (s *Staging) Abort() {
	s.unlock()
	os.RemoveAll(s.Dir)
}

func (s *Staging) unlock() {
	if s.lock != nil {
		s.lock.Close() // which releases the lock
		s.lock = nil
	}
}

// writeMark writes the mark of a complete copy, synced to disk (as the
// files it marks are, by the fetch that wrote them).
func writeMark(path, u string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(u + "\n")
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// RemoveStale removes from root, the folder of the cache, what fetches
// that were killed left: folders whose name begins with a dot, that no
// register's link leads to, that no fetch holds and that have not changed
// for a minute; links whose name begins with a dot (made to be put in
// place) that lead to no folder a fetch holds. Where a fetch cannot hold
// its folder (no file locks), no folder is removed: such folders are never
// read, only kept.
func RemoveStale(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	current := map[string]bool{}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 && !strings.HasPrefix(e.Name(), ".") {
			if target, err := os.Readlink(filepath.Join(root, e.Name())); err == nil {
				current[target] = true
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, ".") || current[name] {
			continue
		}
		p := filepath.Join(root, name)
		if e.Type()&os.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if _, serr := os.Stat(filepath.Join(root, target)); err != nil || serr != nil || abandoned(filepath.Join(root, target)) {
				os.Remove(p)
			}
			continue
		}
		info, err := e.Info()
		if err == nil && info.IsDir() && time.Since(info.ModTime()) >= staleAfter && abandoned(p) {
			os.RemoveAll(p)
		}
	}
}
