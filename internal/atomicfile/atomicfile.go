// Package atomicfile writes a file so that readers only ever see its old
// content or its complete new content: data goes to a temporary file in the
// same folder, which replaces the target only on Commit.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is a file being written. Call Commit when the content is complete,
// or Abort to drop it; after either, further calls do nothing.
type File struct {
	*os.File
	target string
	done   bool
}

// Create starts writing the file at path. When path names a symbolic link,
// the file is written through it: the link stays a link, and the file it
// leads to (after every link on the way, even one that does not exist yet)
// gets the new content. The temporary file lives beside that file, so that
// the final rename stays on one file system.
func Create(path string) (*File, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	return &File{File: f, target: target}, nil
}

// maxLinks is how many symbolic links resolve follows before it gives up,
// as Linux does (MAXSYMLINKS).
const maxLinks = 40

// resolve returns the file that path leads to when path is a symbolic link
// (following each link in turn, relative links from the link's folder),
// and path itself otherwise. The last file need not exist.
func resolve(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil // not there yet, or not a link
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// Commit makes the written content the file's content. A new file gets mode
// 0644; a replaced one keeps its mode.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	mode := os.FileMode(0o644)
	if st, err := os.Stat(f.target); err == nil {
		mode = st.Mode().Perm()
	}
	if err := f.File.Chmod(mode); err != nil {
		f.File.Close()
		os.Remove(f.File.Name())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	if err := f.File.Sync(); err != nil {
		f.File.Close()
		os.Remove(f.File.Name())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	if err := f.File.Close(); err != nil {
		os.Remove(f.File.Name())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	if err := os.Rename(f.File.Name(), f.target); err != nil {
		os.Remove(f.File.Name())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	return nil
}

// Abort drops what was written; the file at the path keeps its old content
// (or stays absent).
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// Temp returns the name of the temporary file (for tests and messages).
func (f *File) Temp() string { return f.File.Name() }
