package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/jrpcld/jrpcld/fetch"
	"github.com/jrpcld/jrpcld/internal/suggest"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/mcpschema"
	"github.com/jrpcld/jrpcld/regcache"
	"github.com/spf13/pflag"
)

func fetchCommand() command {
	c := command{name: "fetch", args: "mcp-schemas | URL...",
		summary: "download the MCP schemas or published registers into the cache (the only command that uses the network)"}
	c.help = fetchHelp
	c.setup = runFetch
	return c
}

const fetchHelp = `
The only jrpcld command that uses the network. It downloads into the user's
cache (jrpcld/ under the folder os.UserCacheDir gives: $XDG_CACHE_HOME or
~/.cache on Linux) what the other commands then read offline.

"jrpcld fetch mcp-schemas" downloads the schema.json of each released MCP
version from the specification's repository at a pinned commit, checks each
against the sha256 jrpcld pins (of the schema's content: its RFC 8785
canonical form, so white space and the order of members do not count), and
only when all are right writes them as downloaded, each
atomically, to jrpcld/mcp-schema/VERSION/schema.json; "validate --mcp" and
"stats --mcp" read them from there.

"jrpcld fetch URL" downloads a published building-block register: its
register.json and, for each block, what a register that imports it reads:
the annotated schemas, the context, the ontology, and the files of the
register these name. It follows no URL outside that register. The copy
replaces the register's in the cache only once complete. Then --bblock URL
--id ID uses a block of it, and --import URL (without =DIR) maps an import
of bblocks-config.yaml to it.

With JRPCLD_FETCH_MIRROR=BASE, https://HOST/PATH is downloaded from
BASE/HOST/PATH instead (a local mirror; the cache keeps the original URLs).
Exit status: 0, 1 when a file was refused or could not be downloaded (the
cache keeps what it had), 2 on a usage error (an argument that is neither
mcp-schemas nor an http:// or https:// URL: nothing is fetched).`

func runFetch(c *command, fs *pflag.FlagSet) func(e *env, args []string) int {
	quiet := fs.BoolP("quiet", "q", false, "say nothing of each file fetched")
	return func(e *env, args []string) int {
		if len(args) == 0 {
			errorf(e, c.name, "give mcp-schemas or the URL of a register.json")
			return exitUsage
		}
		for _, a := range args {
			if a != "mcp-schemas" && !regcache.IsURL(regcache.Normalize(a)) {
				hint := "give mcp-schemas or the URL of a register.json"
				if suggest.Closest(a, []string{"mcp-schemas"}) != "" {
					hint = "did you mean mcp-schemas?"
				}
				errorf(e, c.name, "%q is not an http:// or https:// URL: %s", a, hint)
				return exitUsage
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		f := &fetch.Fetcher{Mirror: os.Getenv(fetch.MirrorEnv)}
		if !*quiet {
			f.Progress = func(u string, n int) { errorf(e, c.name, "%s (%d bytes)", u, n) }
		}
		code := exitOK
		for _, a := range args {
			if a == "mcp-schemas" {
				dir, err := mcpschema.CacheDir()
				if err != nil {
					errorf(e, c.name, "%v", err)
					return exitUsage
				}
				vs, err := f.MCPSchemas(ctx, dir)
				if err != nil {
					errorf(e, c.name, "%v", err)
					code = exitInvalid
					continue
				}
				fmt.Fprintf(e.stdout, "MCP schemas %v (commit %s, sha256 checked) in %s\n", vs, mcpschema.Commit, termsafe.Escape(dir))
				continue
			}
			res, err := f.Register(ctx, a)
			if err != nil {
				errorf(e, c.name, "%v", err)
				code = exitInvalid
				continue
			}
			for _, w := range res.Warnings {
				errorf(e, c.name, "warning: %s", w)
			}
			fmt.Fprintf(e.stdout, "register %s: %d blocks, %d files in %s\n", termsafe.Escape(res.URL), res.Blocks, len(res.Files), termsafe.Escape(res.Dir))
		}
		return code
	}
}
