package bblock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/jrpcld/jrpcld/internal/suggest"
)

// Open finds the block a user names on the command line. With dir empty it
// returns the embedded default block. dir may be a register source tree
// (with bblocks-config.yaml), where id picks the block (it may be left out
// when the tree has one block); or a block folder, in which case the
// register above it, if any, is loaded too so that its bblocks://
// references resolve. The register is nil when there is none.
func Open(dir, id string, opts *Options) (*Block, *Register, error) {
	if dir == "" {
		if id != "" && id != DefaultID {
			return nil, nil, fmt.Errorf("block %q: give the folder of its register with --bblock (without --bblock the only block is the embedded %s)", id, DefaultID)
		}
		return Default(), nil, nil
	}
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: there is no such folder; give a block folder (with bblock.json) or a register source tree (with %s)", dir, ConfigFile)
	}
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a folder: give a block folder or a register source tree", dir)
	}
	// A configuration that cannot be read (a link that leads nowhere, say)
	// is said, rather than looked past for a bblock.json.
	if _, err := os.Lstat(filepath.Join(dir, ConfigFile)); err == nil {
		reg, err := LoadRegisterDir(dir, opts)
		if err != nil {
			return nil, nil, err
		}
		b, err := pick(reg, id, dir)
		return b, reg, err
	}
	if _, err := os.Stat(filepath.Join(dir, "bblock.json")); err != nil {
		return nil, nil, fmt.Errorf("%s holds neither bblock.json nor %s: give a block folder or a register source tree", dir, ConfigFile)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	// A block inside a register tree: load the tree, so that the block gets
	// its register id and its references into other blocks resolve.
	for up := filepath.Dir(abs); up != filepath.Dir(up); up = filepath.Dir(up) {
		if _, err := os.Lstat(filepath.Join(up, ConfigFile)); err != nil {
			continue
		}
		rel, err := filepath.Rel(filepath.Join(up, SourcesDir), abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			break
		}
		reg, err := LoadRegisterDir(up, opts)
		if err != nil {
			return nil, nil, err
		}
		if rel == "." {
			rel = "" // the block at the root of _sources
		}
		for _, b := range reg.Blocks {
			if b.Path == filepath.ToSlash(rel) {
				if id != "" && id != b.ID {
					return nil, nil, fmt.Errorf("%s is block %s, not %s", dir, b.ID, id)
				}
				return b, reg, nil
			}
		}
		break
	}
	b, err := LoadDir(dir)
	return b, nil, err
}

func pick(reg *Register, id, dir string) (*Block, error) {
	if id == "" {
		if len(reg.Blocks) == 1 {
			return reg.Blocks[0], nil
		}
		return nil, fmt.Errorf("%s holds %d blocks (%s): choose one with --id", dir, len(reg.Blocks), strings.Join(reg.IDs(), ", "))
	}
	if b := reg.Block(id); b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("%w %q in %s%s", ErrUnknownBlock, id, dir, suggest.Have(id, reg.IDs(), 50))
}

// giveTree is what to do when a folder is not a register source tree.
const giveTree = "give the folder that holds " + ConfigFile + " and " + SourcesDir + "/ (a register's source tree)"

// checkConfig returns nil when dir is a folder whose ConfigFile can be
// opened, and otherwise an error wrapping ErrNoRegister that names the full
// path, what is wrong, and what to do. The file is reached through an
// os.Root, as LoadRegister reads it: a link out of dir, and a configuration
// that is neither a file nor a folder (a named pipe would wait), are not
// opened here but refused by LoadRegister, which names them.
func checkConfig(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %w: there is no such folder; %s", dir, ErrNoRegister, giveTree)
	case err != nil:
		return fmt.Errorf("%s %w: the folder cannot be read (%v); %s", dir, ErrNoRegister, cause(err), giveTree)
	case !st.IsDir():
		return fmt.Errorf("%s %w: it is a file, not a folder; %s", dir, ErrNoRegister, giveTree)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("%s %w: the folder cannot be read (%v); %s", dir, ErrNoRegister, cause(err), giveTree)
	}
	defer root.Close()
	lst, err := root.Lstat(ConfigFile)
	if err != nil {
		return configError(dir, "", err)
	}
	link := ""
	if lst.Mode()&fs.ModeSymlink != 0 {
		link, _ = root.Readlink(ConfigFile)
	}
	if st, err = root.Stat(ConfigFile); err != nil {
		if escapes(err) {
			return nil
		}
		return configError(dir, link, err)
	}
	file := filepath.Join(dir, ConfigFile)
	if st.IsDir() {
		return fmt.Errorf("%s %w: %s is a folder, not the YAML file of the register's configuration: put that file in its place, beside %s/", dir, ErrNoRegister, file, SourcesDir)
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	f, err := root.Open(ConfigFile)
	if err != nil {
		return configError(dir, link, err)
	}
	return f.Close()
}

// escapes reports whether err is os.Root's refusal of a path that leads out
// of it.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// configError explains err, met when reading the ConfigFile of the
// register folder dir, which is a symbolic link to link when link is set.
func configError(dir, link string, err error) error {
	file := filepath.Join(dir, ConfigFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && link != "":
		return fmt.Errorf("%s %w: %s is a symbolic link to %s, which does not exist: make the link lead to the register's configuration, or put the file in its place", dir, ErrNoRegister, file, link)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %w: %s does not exist; %s, or write %s there", dir, ErrNoRegister, file, giveTree, ConfigFile)
	}
	shown := file
	if link != "" {
		shown += " (a symbolic link to " + link + ")"
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%s %w: %s cannot be read (%v): let the user who runs jrpcld read it (chmod a+r %s) and enter its folder (chmod a+x %s)", dir, ErrNoRegister, shown, cause(err), file, dir)
	}
	return fmt.Errorf("%s %w: %s cannot be read (%v): put the file %s there, readable", dir, ErrNoRegister, shown, cause(err), ConfigFile)
}

// cause is the error below err's path, when err is an *fs.PathError.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil {
		return pe.Err
	}
	return err
}
