// Package examples is "jrpcld examples": a block's JSON example snippets
// uplifted to RDF as the OGC tool chain does, printed or written into a folder.
package examples

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/internal/atomicfile"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/rdf"
)

// NewCmd returns the command "jrpcld examples".
func NewCmd() cli.Command {
	c := cli.Command{Name: "examples", Args: "[--bblock DIR [--id ID]] [-o DIR]",
		Summary: "uplift a block's example snippets to JSON-LD and Turtle"}
	c.Help = examplesHelp
	c.Setup = runExamples
	return c
}

const examplesHelp = `
Uplifts every JSON example snippet of a building block (the embedded JSON-RPC
2.0 block by default) as the building-block tool chain does: the snippet gets
"@context": [the example's prefixes, the block's built context, the snippet's
own context], is read with the snippet's base-uri (a @base in the context
wins), and becomes a graph. An empty graph is a failure.

With -o DIR, each snippet is written as DIR/example_I_J.jsonld and .ttl (I the
example, J the snippet, from 1); without it, the Turtle of each snippet is
printed after a comment naming it. Exit status 1 when a snippet fails.`

// examplesOptions are the flags of examples.
type examplesOptions struct {
	bf     *cli.BlockFlags
	outDir string
}

func runExamples(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &examplesOptions{}
	o.bf = cli.AddBlockFlags(fs)
	fs.StringVarP(&o.outDir, "output", "o", "", "write example_I_J.jsonld and .ttl files into `DIR`")
	return func(e *cli.Env, rest []string) error {
		if len(rest) > 0 {
			return cli.Failf("unexpected argument %q", rest[0])
		}
		b, _, ctx, err := o.bf.OpenContext(e, c.Name)
		if err == nil && b.Examples == nil {
			err = fmt.Errorf("block %s has no examples file", b.ID)
		}
		if err != nil {
			return cli.Fail(err)
		}
		if o.outDir != "" {
			if err := refuseBlockFiles(e, b, o.outDir); err != nil {
				return err
			}
			if err := os.MkdirAll(o.outDir, 0o755); err != nil {
				return cli.Fail(err)
			}
		}
		failed := 0
		for i, ex := range b.Examples.Examples {
			for j, sn := range ex.Snippets {
				if !sn.IsJSON() {
					continue
				}
				name := fmt.Sprintf("example_%d_%d", i+1, j+1)
				if err := upliftOne(e, b, ctx, ex, sn, name, o.outDir); err != nil {
					fmt.Fprintf(e.Stderr, "%s\n", cli.EscapeLines(fmt.Sprintf("%s: %s (%q): %v", b.ID, name, ex.Title, err)))
					failed++
				}
			}
		}
		if failed > 0 {
			return cli.ExitError(cli.ExitInvalid)
		}
		return nil
	}
}

// refuseBlockFiles returns a failure when a file examples would write into
// outDir is one of the files of block b it reads.
func refuseBlockFiles(e *cli.Env, b *bblock.Block, outDir string) error {
	if b.Dir == "" {
		return nil // the embedded block has no files on disk
	}
	names := []string{b.Files.Metadata, b.Files.Description, b.Files.Schema, b.Files.Context,
		b.Files.Examples, b.Files.Shapes, b.Files.TestsConfig}
	names = append(names, b.Files.Ontology...)
	names = append(names, b.Files.Tests...)
	for _, ex := range b.Examples.Examples {
		for _, sn := range ex.Snippets {
			if sn.Ref != "" && !strings.Contains(sn.Ref, "://") {
				names = append(names, path.Join(path.Dir(b.Files.Examples), sn.Ref))
			}
		}
	}
	var inputs []string
	for _, n := range names {
		if n != "" {
			inputs = append(inputs, filepath.Join(b.Dir, filepath.FromSlash(n)))
		}
	}
	for i, ex := range b.Examples.Examples {
		for j, sn := range ex.Snippets {
			if !sn.IsJSON() {
				continue
			}
			for _, ext := range []string{".jsonld", ".ttl"} {
				out := filepath.Join(outDir, fmt.Sprintf("example_%d_%d%s", i+1, j+1, ext))
				if err := cli.RefuseInput(e, "the output", out, inputs); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func upliftOne(e *cli.Env, b *bblock.Block, ctx *ldctx.Processed, ex bblock.Example, sn bblock.Snippet, name, outDir string) error {
	code, err := b.SnippetCode(sn)
	if err != nil {
		return err
	}
	up, err := convert.UpliftSnippet(code, ctx, b.Examples.Prefixes, ex, sn, "", name+"b")
	if err != nil {
		return err
	}
	for _, n := range up.Notices {
		line := fmt.Sprintf("%s: %s: %s", b.ID, name, n.Message)
		if n.Pointer != "" {
			line += " (at " + n.Pointer + ")"
		}
		fmt.Fprintf(e.Stderr, "%s\n", termsafe.Escape(line))
	}
	if len(up.Triples) == 0 {
		return fmt.Errorf("the uplift gives an empty graph: the context maps none of its members")
	}
	var ttl bytes.Buffer
	w := rdf.NewTurtleWriter(&ttl, up.Prefixes)
	if up.Relative {
		w.SetRelative(convert.PlaceholderBase)
	}
	w.KeepUsed(up.Triples) // the prefixes the graph takes, as build writes it
	if err := w.WriteGroup(up.Triples); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if outDir == "" {
		// The comment is one line: a line break in the title would end it.
		fmt.Fprintf(e.Stdout, "# %s %s: %s\n%s\n", termsafe.Escape(b.ID), name, termsafe.Escape(ex.Title), ttl.String())
		return nil
	}
	var js bytes.Buffer
	if err := ldctx.WriteJSON(&js, up.JSONLD); err != nil {
		return err
	}
	for ext, data := range map[string][]byte{".jsonld": js.Bytes(), ".ttl": ttl.Bytes()} {
		f, err := atomicfile.Create(filepath.Join(outDir, name+ext))
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Abort()
			return err
		}
		if err := f.Commit(); err != nil {
			return err
		}
	}
	return nil
}
