package pipeline

import (
	"context"
	"fmt"
	"os"
	pathpkg "path"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// readInput adds to s the transforms that read every file the glob matches,
// whole and with its bytes as they are: rpclog recognises gzip by its
// content, within its own limits.
func readInput(s beam.Scope, glob string) beam.PCollection {
	files := fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow())
	return fileio.ReadMatches(s, files, fileio.ReadUncompressed(), fileio.ReadDirectorySkip())
}

// checkInputOutput returns an error when the glob of --input matches no
// file or when --output is one of the files it matches.
func checkInputOutput(glob, output string) error {
	names, err := matchInput(glob)
	if err != nil {
		return err
	}
	return refuseOutputInput(output, names)
}

// matchInput returns the files the glob of --input matches, when the
// pipeline is made: a glob that matches none is one clear error here,
// rather than a failure of the running pipeline.
func matchInput(glob string) ([]string, error) {
	ctx := context.Background()
	fsys, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("--input %s: %w", glob, err)
	}
	defer fsys.Close()
	names, err := fsys.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("--input %s: %w", glob, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--input %s matches no file", glob)
	}
	return names, nil
}

// refuseOutputInput returns an error when the file output names is one of
// the inputs: writing it would replace a log being read, as jrpcld's -o
// refuses to. A local path is compared as the file it leads to (any
// spelling, a link); any other, as written.
func refuseOutputInput(output string, inputs []string) error {
	local := !strings.Contains(output, "://")
	ost, oerr := os.Stat(output)
	for _, in := range inputs {
		same := pathpkg.Clean(in) == pathpkg.Clean(output)
		if local && oerr == nil && !strings.Contains(in, "://") {
			if ist, err := os.Stat(in); err == nil {
				same = os.SameFile(ost, ist)
			}
		}
		if same {
			return fmt.Errorf("--output %s is also an input (%s): refusing to replace it (write elsewhere)", output, in)
		}
	}
	return nil
}

// distinctBaseNames returns an error when two inputs have the same name,
// which --base turns into one log IRI (rpclog.IRI): their statements would
// make one log, as jrpcld rdf refuses too.
func distinctBaseNames(base string, inputs []string) error {
	if a, b, _, ok := rpclog.SharedIRI(base, inputs); ok {
		return fmt.Errorf("--base %s gives %s and %s the same IRI, which would merge two logs into one: run them one at a time, each with its own --base", base, a, b)
	}
	return nil
}
