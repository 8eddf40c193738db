// Package blockdoc is "jrpcld context", "jrpcld annotate" and "jrpcld
// ontology": the documents the OGC tool chain derives from one building
// block (its JSON-LD context, its annotated schema, its ontology), printed
// or checked through register/toolchain and ontology.
package blockdoc

import (
	"bufio"
	"fmt"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/spf13/pflag"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/ontology"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// NewContextCmd returns the command "jrpcld context".
func NewContextCmd() cli.Command {
	c := cli.Command{Name: "context", Args: "[--bblock DIR [--id ID]] [--context-map REF=FILE] [--import URL=DIR]",
		Summary: "print the JSON-LD context built from a block's annotated schema"}
	c.Help = contextHelp
	c.Setup = runContext
	return c
}

// NewAnnotateCmd returns the command "jrpcld annotate".
func NewAnnotateCmd() cli.Command {
	c := cli.Command{Name: "annotate", Args: "[--bblock DIR [--id ID]] [--format yaml|json] [--context-map REF=FILE] [--import URL=DIR]",
		Summary: "print a block's schema annotated from its JSON-LD context"}
	c.Help = annotateHelp
	c.Setup = runAnnotate
	return c
}

// NewOntologyCmd returns the command "jrpcld ontology".
func NewOntologyCmd() cli.Command {
	c := cli.Command{Name: "ontology", Args: "[--bblock DIR [--id ID]] [--check] [--context-map URL=FILE]",
		Summary: "list a block's ontology, or check its context's IRIs against it"}
	c.Help = ontologyHelp
	c.Setup = runOntology
	return c
}

const contextHelp = `
Builds the JSON-LD context of a building block as the OGC tool chain does:
the block's schema is annotated from the block's own context (its
context.jsonld; the contexts of the blocks it depends on play no part), and
the context is built back from the annotated schema and from the annotated
schemas of the blocks it refers to, so a block without a context of its own
may get terms that way. This is the context jrpcld uses to turn messages into
RDF. The output is JSON, members in the tool chain's order; where jrpcld
departs from the tool chain to keep a term's meaning, a warning says so
(docs/ogc.md). A block whose context comes out empty is an error (the tool
chain writes no file for it).`

const annotateHelp = `
Annotates a building block's schema from its own JSON-LD context, as the OGC
tool chain does: each property reachable from the root that the context has
a term for gets x-jsonld-id, x-jsonld-type, ...; the terms nothing uses go to
x-jsonld-extra-terms (or x-jsonld-prefixes) at the root, with x-jsonld-base
and x-jsonld-vocab. References to other documents are written as the tool
chain publishes them, below the register's root: /build/annotated/PATH/
schema.yaml for another block's annotated schema, /_sources/... for another
file of the sources tree, or an imported block's URL. Output in YAML
(default) or JSON.`

const ontologyHelp = `
Lists the classes, properties (with domains and ranges) and individuals of a
building block's ontology, merged with those of the blocks it depends on.
With --check, prints instead every IRI the block's context can produce that
the ontology does not declare, one per line, and exits 1 when there is any.`

// noArgs is the failure of an unexpected positional argument, or nil.
func noArgs(rest []string) error {
	if len(rest) > 0 {
		return cli.Failf("unexpected argument %q", rest[0])
	}
	return nil
}

func runContext(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	bf := cli.AddBlockFlags(fs)
	return func(e *cli.Env, rest []string) error {
		if err := noArgs(rest); err != nil {
			return err
		}
		b, reg, err := bf.Open(e, c.Name)
		var doc *toolchain.Document
		if err == nil {
			var warns []ldctx.Warning
			doc, warns, err = toolchain.Build(b, reg, bf.CtxMap.Options())
			cli.Warn(e, c.Name, warns)
			if err == nil && doc == nil {
				err = fmt.Errorf("block %s: the context built from its annotated schema is empty (the OGC tool chain writes no context.jsonld for it)", b.ID)
			}
		}
		if err != nil {
			return cli.Fail(err)
		}
		return writeDoc(e, doc, "json")
	}
}

// annotateOptions are the flags of annotate.
type annotateOptions struct {
	format string
}

func runAnnotate(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	bf := cli.AddBlockFlags(fs)
	o := &annotateOptions{}
	fs.StringVarP(&o.format, "format", "f", "yaml", "output `format`: yaml or json")
	return func(e *cli.Env, rest []string) error {
		if err := noArgs(rest); err != nil {
			return err
		}
		if o.format != "yaml" && o.format != "json" {
			return cli.Failf("--format must be yaml or json, not %q", o.format)
		}
		b, reg, err := bf.Open(e, c.Name)
		var doc *toolchain.Document
		if err == nil {
			var warns []ldctx.Warning
			doc, warns, err = toolchain.Annotate(b, reg, bf.CtxMap.Options())
			cli.Warn(e, c.Name, warns)
		}
		if err != nil {
			return cli.Fail(err)
		}
		return writeDoc(e, doc, o.format)
	}
}

// writeDoc writes doc on standard output in format, yaml or json.
func writeDoc(e *cli.Env, doc *toolchain.Document, format string) error {
	w := bufio.NewWriter(e.Stdout)
	var err error
	if format == "yaml" {
		err = doc.WriteYAML(w)
	} else {
		err = doc.WriteJSON(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return cli.Fail(err)
	}
	return nil
}

// ontologyOptions are the flags of ontology.
type ontologyOptions struct {
	check bool
}

func runOntology(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	bf := cli.AddBlockFlags(fs)
	opts := &ontologyOptions{}
	fs.BoolVar(&opts.check, "check", false, "print the context's IRIs the ontology does not declare")
	return func(e *cli.Env, rest []string) error {
		if err := noArgs(rest); err != nil {
			return err
		}
		b, reg, err := bf.Open(e, c.Name)
		if err != nil {
			return cli.Fail(err)
		}
		if opts.check {
			undeclared, ok, err := ontology.CheckBlock(b, reg, toolchain.For(b, reg, bf.CtxMap.Options()).Terms)
			if err != nil {
				return cli.Fail(err)
			}
			if !ok {
				return cli.Failf("block %s has no context or no ontology to check", b.ID)
			}
			for _, iri := range undeclared {
				fmt.Fprintln(e.Stdout, termsafe.Escape(iri))
			}
			if len(undeclared) > 0 {
				return &cli.Failure{Code: cli.ExitInvalid, Msg: fmt.Sprintf("%d IRIs of %s's context are not declared by its ontology", len(undeclared), b.ID)}
			}
			return nil
		}
		o, err := ontology.LoadBlock(b, reg)
		if err == nil && o == nil {
			err = fmt.Errorf("block %s has no ontology", b.ID)
		}
		if err != nil {
			return cli.Fail(err)
		}
		w := bufio.NewWriter(e.Stdout)
		if err := o.WriteSummary(w); err != nil {
			return cli.Fail(err)
		}
		w.Flush()
		return nil
	}
}

// ReportOntology prints, as warnings, the IRIs of block b's context that its
// ontology does not declare.
func ReportOntology(e *cli.Env, cmd string, b *bblock.Block, reg *bblock.Register, opts *ldctx.Options) {
	undeclared, ok, err := ontology.CheckBlock(b, reg, toolchain.For(b, reg, opts).Terms)
	if err != nil {
		cli.Errorf(e, cmd, "warning: %s: ontology check: %v", b.ID, err)
		return
	}
	if !ok {
		return
	}
	for _, iri := range undeclared {
		cli.Errorf(e, cmd, "warning: %s: the context produces %s, which the ontology does not declare", b.ID, iri)
	}
}
