package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestOutputThroughSymlink: -o and --html naming a symbolic link write the
// file the link leads to; the link stays a link, and no temporary file is
// left beside either.
func TestOutputThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "session.jsonl")
	write(t, log, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	tests := []struct {
		name string
		args func(out string) []string
		want string // in the file written
	}{
		{"turtle -o", func(out string) []string { return []string{"turtle", "-o", out, log} }, `jrpc:hasMethod "ping"`},
		{"gen -o", func(out string) []string { return []string{"gen", "-n", "3", "-o", out, log} }, `"method":"ping"`},
		{"stats --html", func(out string) []string { return []string{"stats", "--html", out, log} }, "<html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := t.TempDir()
			target := filepath.Join(sub, "data", "out")
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, target, "previous\n")
			link := filepath.Join(sub, "out")
			if err := os.Symlink(filepath.Join("data", "out"), link); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := jrpcld(t, "", tt.args(link)...)
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			st, err := os.Lstat(link)
			if err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a symbolic link", link)
			}
			if to, _ := os.Readlink(link); to != filepath.Join("data", "out") {
				t.Errorf("the link now leads to %q", to)
			}
			if got, _ := os.ReadFile(target); !strings.Contains(string(got), tt.want) {
				t.Errorf("the target holds %q, want it to contain %q", got, tt.want)
			}
			for _, d := range []string{sub, filepath.Dir(target)} {
				if tmps, _ := filepath.Glob(filepath.Join(d, ".*.tmp-*")); len(tmps) > 0 {
					t.Errorf("temporary files left: %v", tmps)
				}
			}
		})
	}
}
