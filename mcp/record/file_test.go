package record

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFile: a log's file is left as it was until the first write, which
// empties it; a file OpenFile created and nothing was written to is gone
// after Close.
func TestFile(t *testing.T) {
	tests := []struct {
		name     string
		before   *string // the file's content before, nil when absent
		dangling bool    // the path is a symbolic link to where nothing is
		write    string  // written after opening, "" for nothing
		want     *string // the file's content after Close, nil when absent
	}{
		{name: "new, nothing written", want: nil},
		{name: "new, written", write: "line\n", want: ptr("line\n")},
		{name: "existing, nothing written", before: ptr("an earlier log\n"), want: ptr("an earlier log\n")},
		{name: "existing, written", before: ptr("an earlier, longer log\n"), write: "new\n", want: ptr("new\n")},
		{name: "dangling link, written", dangling: true, write: "line\n", want: ptr("line\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "log.jsonl")
			target := path
			if tt.dangling {
				target = filepath.Join(dir, "target.jsonl")
				if err := os.Symlink(target, path); err != nil {
					t.Skipf("no symbolic links here: %v", err)
				}
			}
			if tt.before != nil {
				if err := os.WriteFile(path, []byte(*tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if tt.before != nil {
				if got, _ := os.ReadFile(path); string(got) != *tt.before {
					t.Errorf("after OpenFile: %q, want it unchanged", got)
				}
			}
			if tt.write != "" {
				if _, err := f.Write([]byte(tt.write)); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(target)
			switch {
			case tt.want == nil && !os.IsNotExist(err):
				t.Errorf("the file is there (%q, %v), want it removed", got, err)
			case tt.want != nil && err != nil:
				t.Errorf("reading the log: %v", err)
			case tt.want != nil && string(got) != *tt.want:
				t.Errorf("the log holds %q, want %q", got, *tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }
