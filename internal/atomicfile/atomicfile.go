// Package atomicfile writes a file so that readers only ever see its old
// content or its complete new content: data goes to a temporary file in the
// same folder, which replaces the target only on Commit. A device, named
// pipe or socket (/dev/null, /dev/stdout) cannot be replaced that way and
// is written straight instead.
package atomicfile

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// File is a file being written. Call Commit when the content is complete,
// or Abort to drop it; after either, further calls do nothing.
type File struct {
	*os.File
	target string
	done   bool

	// root, when not nil, is the folder the file was created in by
	// CreateIn: target and temp are names inside it.
	root *os.Root
	temp string

	// inPlace: File is the target itself, opened for writing, not a
	// temporary file (Create of a device, named pipe or socket).
	inPlace bool
}

// Create starts writing the file at path. When path names a symbolic link,
// the file is written through it: the link stays a link, and the file it
// leads to (after every link on the way, even one that does not exist yet)
// gets the new content. The temporary file lives beside that file, so that
// the final rename stays on one file system.
//
// A path that leads to a device, a named pipe or a socket is opened and
// written straight, with nothing to commit or drop: renaming a file over
// /dev/null would replace the device with a regular file. A folder is
// refused.
func Create(path string) (*File, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, fmt.Errorf("creating %s: is a folder", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("creating %s: %w", path, err)
		}
		return &File{File: f, target: path, inPlace: true}, nil
	}
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

// CreateIn starts writing the file name (slash-separated, relative) inside
// root, creating the folders on its way. Every name is opened through root,
// so that neither ".." nor a symbolic link can lead outside it; unlike
// Create, a name that is a symbolic link is replaced by the file, not
// written through.
func CreateIn(root *os.Root, name string) (*File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, fmt.Errorf("creating %s: not a file name inside %s", name, root.Name())
	}
	dir, base := path.Split(name)
	if dir != "" {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s in %s: %w", name, root.Name(), err)
		}
	}
	for range 10 {
		temp := dir + "." + base + ".tmp-" + rand.Text()[:12]
		f, err := root.OpenFile(temp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("creating %s in %s: %w", name, root.Name(), err)
		}
		return &File{File: f, target: name, root: root, temp: temp}, nil
	}
	return nil, fmt.Errorf("creating %s in %s: no free temporary name", name, root.Name())
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
// 0644; a replaced one keeps its mode. A file written in place is closed.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if f.inPlace {
		if err := f.File.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", f.target, err)
		}
		return nil
	}
	mode := os.FileMode(0o644)
	stat, rename, remove := os.Stat, os.Rename, os.Remove
	if f.root != nil {
		stat, rename, remove = f.root.Stat, f.root.Rename, f.root.Remove
	}
	if st, err := stat(f.target); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
	}
	if err := f.File.Chmod(mode); err != nil {
		f.File.Close()
		remove(f.Temp())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	if err := f.File.Sync(); err != nil {
		f.File.Close()
		remove(f.Temp())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	if err := f.File.Close(); err != nil {
		remove(f.Temp())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	if err := rename(f.Temp(), f.target); err != nil {
		remove(f.Temp())
		return fmt.Errorf("writing %s: %w", f.target, err)
	}
	return nil
}

// Abort drops what was written; the file at the path keeps its old content
// (or stays absent). A file written in place is only closed: what was
// written to it has gone.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	if f.inPlace {
		return
	}
	if f.root != nil {
		f.root.Remove(f.temp)
		return
	}
	os.Remove(f.File.Name())
}

// Temp returns the name of the temporary file (for tests and messages):
// inside the root for a file of CreateIn, and "" for a file written in
// place, which has none.
func (f *File) Temp() string {
	if f.inPlace {
		return ""
	}
	if f.root != nil {
		return f.temp
	}
	return f.File.Name()
}

// InPlace reports whether the file is written straight to its path (a
// device, named pipe or socket) rather than replaced on Commit.
func (f *File) InPlace() bool { return f.inPlace }
