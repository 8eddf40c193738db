package bblock

import (
	"fmt"
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
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a folder: give a block folder or a register source tree", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
		reg, err := LoadRegisterDir(dir, opts)
		if err != nil {
			return nil, nil, err
		}
		b, err := pick(reg, id, dir)
		return b, reg, err
	}
	if _, err := os.Stat(filepath.Join(dir, "bblock.json")); err != nil {
		return nil, nil, fmt.Errorf("%s holds neither bblock.json nor %s", dir, ConfigFile)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	// A block inside a register tree: load the tree, so that the block gets
	// its register id and its references into other blocks resolve.
	for up := filepath.Dir(abs); up != filepath.Dir(up); up = filepath.Dir(up) {
		if _, err := os.Stat(filepath.Join(up, ConfigFile)); err != nil {
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
