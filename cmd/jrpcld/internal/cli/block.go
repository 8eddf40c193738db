package cli

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

// ContextMap is the repeatable --context-map URL=FILE flag: the only way a
// context that names another context by URL or path gets it.
type ContextMap map[string]string

func (m ContextMap) String() string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

// Type names the value in help and completion.
func (m ContextMap) Type() string { return "URL=FILE" }

func (m ContextMap) Set(s string) error {
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

// Options returns the mapping as context options, or nil when empty.
func (m ContextMap) Options() *ldctx.Options {
	if len(m) == 0 {
		return nil
	}
	return &ldctx.Options{Files: m}
}

// ImportMaps is the repeatable --import URL=DIR flag: a local copy of a
// register that bblocks-config.yaml imports.
type ImportMaps []bblock.ImportMap

func (m *ImportMaps) String() string {
	var parts []string
	for _, im := range *m {
		parts = append(parts, im.URL+"="+im.Dir)
	}
	return strings.Join(parts, ",")
}

// Type names the value in help and completion.
func (m *ImportMaps) Type() string { return "URL=DIR" }

func (m *ImportMaps) Set(s string) error {
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

// Options returns the register load options the maps give.
func (m ImportMaps) Options() (*bblock.Options, error) {
	if len(m) == 0 {
		return nil, nil
	}
	im, err := bblock.LoadImports(m)
	if err != nil {
		return nil, err
	}
	return &bblock.Options{Imports: im}, nil
}

// ImportUsage is the usage of --import, for build too.
const ImportUsage = "map an import of bblocks-config.yaml (its URL, or \"default\") to a local copy of that built register: `URL=DIR`, or to the copy \"jrpcld fetch URL\" cached: URL (repeatable)"

// BlockFlags are the flags that choose a building block.
type BlockFlags struct {
	Dir, ID string     // --bblock, --id
	CtxMap  ContextMap // --context-map
	Imports ImportMaps // --import
}

func AddBlockFlags(fs *pflag.FlagSet) *BlockFlags {
	b := &BlockFlags{CtxMap: ContextMap{}}
	fs.StringVar(&b.Dir, "bblock", "", "building block `DIR`, a register source tree, or the URL of a register \"jrpcld fetch\" cached (with --id); default: the embedded JSON-RPC 2.0 block")
	fs.StringVar(&b.ID, "id", "", "the block's `ID` within the register given by --bblock")
	fs.Var(b.CtxMap, "context-map", "map a context the block's context names to a local file: `URL=FILE` (repeatable)")
	fs.Var(&b.Imports, "import", ImportUsage)
	return b
}

// Open loads the chosen block and prints its problems as warnings.
func (b *BlockFlags) Open(e *Env, cmd string) (*bblock.Block, *bblock.Register, error) {
	opts, err := b.Imports.Options()
	if err != nil {
		return nil, nil, err
	}
	var blk *bblock.Block
	var reg *bblock.Register
	if regcache.IsURL(b.Dir) {
		blk, reg, err = regcache.Open(b.Dir, b.ID)
	} else {
		blk, reg, err = bblock.Open(b.Dir, b.ID, opts)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, p := range blk.Problems {
		Errorf(e, cmd, "%s: %v", blk.ID, p)
	}
	return blk, reg, nil
}

// OpenContext loads the chosen block and the JSON-LD context its messages
// are mapped with (see toolchain.ForBlock), printing warnings.
func (b *BlockFlags) OpenContext(e *Env, cmd string) (*bblock.Block, *bblock.Register, *ldctx.Processed, error) {
	blk, reg, err := b.Open(e, cmd)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, warns, err := toolchain.ForBlock(blk, reg, b.CtxMap.Options())
	Warn(e, cmd, warns)
	if err != nil {
		return nil, nil, nil, err
	}
	return blk, reg, ctx, nil
}

// Warn prints context warnings.
func Warn(e *Env, cmd string, warns []ldctx.Warning) {
	for _, w := range warns {
		Errorf(e, cmd, "%s", w)
	}
}
