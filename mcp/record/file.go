package record

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// File is the file a log is written to, left as it was until the first
// line is written to it: an earlier log is replaced only once a message
// has passed. A file it created is removed if nothing was written.
type File struct {
	mu      sync.Mutex
	f       *os.File
	name    string
	created bool
	written bool
}

// OpenFile opens the file name for a log, without changing it: an
// existing file is emptied at the first Write. It follows a symbolic link,
// and creates the file a dangling one leads to.
func OpenFile(name string) (*File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err == nil {
		return &File{f: f, name: name, created: true}, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	// There already, or a link to where nothing is yet.
	if f, err = os.OpenFile(name, os.O_WRONLY, 0); errors.Is(err, fs.ErrNotExist) {
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o666)
	}
	if err != nil {
		return nil, err
	}
	return &File{f: f, name: name}, nil
}

// Write writes b, emptying the file first if it is the first write.
func (l *File) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.written {
		l.written = true
		// A device or a pipe (-o /dev/stderr) is written as it is.
		if fi, err := l.f.Stat(); err == nil && fi.Mode().IsRegular() {
			if err := l.f.Truncate(0); err != nil {
				return 0, err
			}
		}
	}
	return l.f.Write(b)
}

// Close closes the file, and removes it if it created it and nothing was
// written.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.f.Close()
	if l.created && !l.written {
		os.Remove(l.name)
	}
	return err
}
