package cli

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// FlagChoices returns the values flag takes in command cmd, which shell
// completion proposes; nil when the flag takes a name or a number.
func FlagChoices(cmd, flag string) []string {
	switch flag {
	case "engine":
		return []string{"compiled", "json-gold"}
	case "push-method":
		return []string{"put", "post"}
	case "quiet":
		return []string{"true", "false", "all"}
	case "from":
		if cmd == "json" {
			return []string{"turtle", "ntriples", "nquads", "jsonld"}
		}
	case "format":
		switch cmd {
		case "rdf":
			return []string{"turtle", "ntriples", "nquads", "jsonld", "jsonld-expanded"}
		case "query":
			return []string{"json", "xml", "csv", "tsv", "turtle", "ntriples", "nquads"}
		case "validate", "stats":
			return []string{"text", "json"}
		case "annotate":
			return []string{"yaml", "json"}
		}
	}
	return nil
}

// AddCompletions makes shell completion propose the values of cmd's flags
// that take one of a few (FlagChoices), and for --id the blocks of the
// --bblock given before it.
func AddCompletions(cmd *cobra.Command, name string) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		choices := FlagChoices(name, f.Name)
		if choices == nil {
			return
		}
		cmd.RegisterFlagCompletionFunc(f.Name, func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return withPrefix(choices, toComplete), cobra.ShellCompDirectiveNoFileComp
		})
	})
	if cmd.Flags().Lookup("id") != nil && cmd.Flags().Lookup("bblock") != nil {
		cmd.RegisterFlagCompletionFunc("id", func(c *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return withPrefix(blockIDs(c.Flags().Lookup("bblock").Value.String()), toComplete), cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// withPrefix returns the values that start with prefix.
func withPrefix(values []string, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

// blockIDs returns the ids of the blocks --bblock dir offers: the embedded
// block's without one; none when dir cannot be read or is the URL of a
// cached register.
func blockIDs(dir string) []string {
	if dir == "" {
		return []string{bblock.DefaultID}
	}
	if regcache.IsURL(dir) {
		return nil // a cached register: its block ids are not listed
	}
	if _, err := os.Stat(filepath.Join(dir, bblock.ConfigFile)); err == nil {
		reg, err := bblock.LoadRegisterDir(dir, nil)
		if err != nil {
			return nil
		}
		return sorted(reg.IDs())
	}
	b, _, err := bblock.Open(dir, "", nil)
	if err != nil {
		return nil
	}
	return []string{b.ID}
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}
