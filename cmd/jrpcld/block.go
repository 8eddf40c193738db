package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/jrpcld/jrpcld/register/toolchain"

	"github.com/spf13/pflag"
)

// contextMap is the repeatable --context-map URL=FILE flag: the only way a
// context that names another context by URL or path gets it.
type contextMap map[string]string

func (m contextMap) String() string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

// Type names the value in help and completion.
func (m contextMap) Type() string { return "URL=FILE" }

func (m contextMap) Set(s string) error {
	url, file, ok := strings.Cut(s, "=")
	if !ok || url == "" || file == "" {
		return fmt.Errorf("want URL=FILE, got %q", s)
	}
	if st, err := os.Stat(file); err != nil {
		return err
	} else if st.IsDir() {
		return fmt.Errorf("%s is a folder: give the context's file", file)
	}
	m[url] = file
	return nil
}

// options returns the mapping as context options, or nil when empty.
func (m contextMap) options() *ldctx.Options {
	if len(m) == 0 {
		return nil
	}
	return &ldctx.Options{Files: m}
}

// importMaps is the repeatable --import URL=DIR flag: a local copy of a
// register that bblocks-config.yaml imports.
type importMaps []bblock.ImportMap

func (m *importMaps) String() string {
	var parts []string
	for _, im := range *m {
		parts = append(parts, im.URL+"="+im.Dir)
	}
	return strings.Join(parts, ",")
}

// Type names the value in help and completion.
func (m *importMaps) Type() string { return "URL=DIR" }

func (m *importMaps) Set(s string) error {
	if !strings.Contains(s, "=") {
		// A register "jrpcld fetch URL" cached.
		dir, err := regcache.Dir(s)
		if err != nil {
			return err
		}
		*m = append(*m, bblock.ImportMap{URL: s, Dir: dir})
		return nil
	}
	im, err := bblock.ParseImportMap(s)
	if err != nil {
		return err
	}
	if err := regcache.CheckCopy(im.Dir); err != nil {
		return err
	}
	*m = append(*m, im)
	return nil
}

// options returns the register load options the maps give.
func (m importMaps) options() (*bblock.Options, error) {
	if len(m) == 0 {
		return nil, nil
	}
	im, err := bblock.LoadImports(m)
	if err != nil {
		return nil, err
	}
	return &bblock.Options{Imports: im}, nil
}

const importUsage = "map an import of bblocks-config.yaml (its URL, or \"default\") to a local copy of that built register: `URL=DIR`, or to the copy \"jrpcld fetch URL\" cached: URL (repeatable)"

// blockFlags are the flags that choose a building block.
type blockFlags struct {
	dir, id string
	ctxMap  contextMap
	imports importMaps
}

func addBlockFlags(fs *pflag.FlagSet) *blockFlags {
	b := &blockFlags{ctxMap: contextMap{}}
	fs.StringVar(&b.dir, "bblock", "", "building block `DIR`, a register source tree, or the URL of a register \"jrpcld fetch\" cached (with --id); default: the embedded JSON-RPC 2.0 block")
	fs.StringVar(&b.id, "id", "", "the block's `ID` within the register given by --bblock")
	fs.Var(b.ctxMap, "context-map", "map a context the block's context names to a local file: `URL=FILE` (repeatable)")
	fs.Var(&b.imports, "import", importUsage)
	return b
}

// open loads the chosen block and prints its problems as warnings.
func (b *blockFlags) open(e *env, cmd string) (*bblock.Block, *bblock.Register, error) {
	opts, err := b.imports.options()
	if err != nil {
		return nil, nil, err
	}
	var blk *bblock.Block
	var reg *bblock.Register
	if regcache.IsURL(b.dir) {
		blk, reg, err = regcache.Open(b.dir, b.id)
	} else {
		blk, reg, err = bblock.Open(b.dir, b.id, opts)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, p := range blk.Problems {
		errorf(e, cmd, "%s: %v", blk.ID, p)
	}
	return blk, reg, nil
}

// openContext loads the chosen block and the JSON-LD context its messages
// are mapped with (see toolchain.ForBlock), printing warnings.
func (b *blockFlags) openContext(e *env, cmd string) (*bblock.Block, *bblock.Register, *ldctx.Processed, error) {
	blk, reg, err := b.open(e, cmd)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, warns, err := toolchain.ForBlock(blk, reg, b.ctxMap.options())
	warn(e, cmd, warns)
	if err != nil {
		return nil, nil, nil, err
	}
	return blk, reg, ctx, nil
}

// warn prints context warnings.
func warn(e *env, cmd string, warns []ldctx.Warning) {
	for _, w := range warns {
		errorf(e, cmd, "%s", w)
	}
}
