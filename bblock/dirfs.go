package bblock

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// rootFS is the file system of the folder sub of dir (sub "" for dir
// itself) in which nothing outside that folder can be reached: each file is
// opened through an os.Root, which refuses ".." and symbolic links that
// lead out of it (and absolute links). Links that stay inside are followed.
type rootFS struct {
	dir, sub string
	// shown is how errors name the folder, e.g. "_sources".
	shown string
}

// DirFS returns the file system of the folder dir that reads nothing
// outside dir: a symbolic link that leads out of it (or is absolute) is
// refused with an error wrapping ErrLeavesTree.
func DirFS(dir string) fs.FS { return rootFS{dir: dir, shown: dir} }

func (r rootFS) open() (*os.Root, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil || r.sub == "" {
		return root, err
	}
	defer root.Close()
	return root.OpenRoot(r.sub)
}

// Open implements fs.FS.
func (r rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := r.open()
	if err != nil {
		return nil, r.explain(".", err)
	}
	defer root.Close()
	st, err := root.Stat(name)
	if err != nil {
		return nil, r.explain(name, err)
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		shown := path.Join(filepath.ToSlash(r.shown), name)
		return nil, &fs.PathError{Op: "open", Path: shown,
			Err: fmt.Errorf("%w (%s): refused, jrpcld reads only files and folders", ErrNotRegular, st.Mode().Type())}
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, r.explain(name, err)
	}
	return f, nil
}

// explain turns os.Root's refusal of a path that leaves it into an error
// that says what happened and what jrpcld promises.
func (r rootFS) explain(name string, err error) error {
	if !escapes(err) {
		return err
	}
	shown := path.Join(filepath.ToSlash(r.shown), name)
	return &fs.PathError{Op: "open", Path: shown,
		Err: fmt.Errorf("%w %s (or is absolute): refused, jrpcld reads nothing outside it", ErrLeavesTree, r.shown)}
}

// treeFS is the file system of a register source tree on disk: its
// configuration file from the folder dir, and everything below _sources from
// the _sources folder, each confined as rootFS confines it, so that no file of
// the sources leads outside _sources.
type treeFS struct{ top, sources rootFS }

func newTreeFS(dir string) treeFS {
	return treeFS{top: rootFS{dir: dir, shown: dir},
		sources: rootFS{dir: dir, sub: SourcesDir, shown: SourcesDir}}
}

// Open implements fs.FS.
func (t treeFS) Open(name string) (fs.File, error) {
	if name == SourcesDir {
		return t.sources.Open(".")
	}
	if rest, ok := strings.CutPrefix(name, SourcesDir+"/"); ok {
		return t.sources.Open(rest)
	}
	return t.top.Open(name)
}
