package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.ttl")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}

	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half")
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("while writing, the file holds %q", got)
	}
	f.Abort()
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("after Abort, the file holds %q", got)
	}
	if _, err := os.Stat(f.Temp()); !os.IsNotExist(err) {
		t.Errorf("temporary file left behind: %v", err)
	}

	f, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // no effect after Commit
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("after Commit, the file holds %q", got)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want the old file's 0644", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want 1", len(entries))
	}
}

func TestCreateInMissingFolder(t *testing.T) {
	if _, err := Create(filepath.Join(t.TempDir(), "no", "such", "x")); err == nil {
		t.Error("Create in a missing folder succeeded")
	}
}
