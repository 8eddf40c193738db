package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestWriteThroughSymlink: Create on a symbolic link writes the file the
// link leads to, atomically and keeping its mode, and leaves the link a
// link with the same destination; relative links, chains of links and a
// link to a file that does not exist yet all work, and no temporary file
// is left in either folder.
func TestWriteThroughSymlink(t *testing.T) {
	tests := []struct {
		name string
		// links maps a link's name (in the folder "links") to its
		// destination; the file written through is "links/out".
		links  map[string]string
		target string // the file that must get the content, below the root
		old    bool   // the target exists before, with mode 0600
	}{
		{"absolute", map[string]string{"out": "ROOT/data/real.ttl"}, "data/real.ttl", true},
		{"relative", map[string]string{"out": "../data/real.ttl"}, "data/real.ttl", true},
		{"chain", map[string]string{"out": "mid", "mid": "../data/real.ttl"}, "data/real.ttl", true},
		{"dangling", map[string]string{"out": "../data/new.ttl"}, "data/new.ttl", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, d := range []string{"links", "data"} {
				if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			target := filepath.Join(root, tt.target)
			if tt.old {
				if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for name, to := range tt.links {
				to = strings.Replace(to, "ROOT", root, 1)
				if err := os.Symlink(to, filepath.Join(root, "links", name)); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(root, "links", "out")
			before, _ := os.Readlink(link)

			f, err := Create(link)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Dir(f.Temp()) != filepath.Dir(target) {
				t.Errorf("temporary file %s is not beside %s", f.Temp(), target)
			}
			f.WriteString("new")
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}

			st, err := os.Lstat(link)
			if err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a symbolic link: %v, %v", link, st.Mode(), err)
			}
			if after, _ := os.Readlink(link); after != before {
				t.Errorf("the link leads to %q, was %q", after, before)
			}
			if got, _ := os.ReadFile(target); string(got) != "new" {
				t.Errorf("the target holds %q, want \"new\"", got)
			}
			wantMode := os.FileMode(0o644)
			if tt.old {
				wantMode = 0o600
			}
			if st, _ := os.Stat(target); st.Mode().Perm() != wantMode {
				t.Errorf("target mode %v, want %v", st.Mode().Perm(), wantMode)
			}
			for _, d := range []string{"links", "data"} {
				tmps, _ := filepath.Glob(filepath.Join(root, d, ".*.tmp-*"))
				if len(tmps) > 0 {
					t.Errorf("temporary files left: %v", tmps)
				}
			}
		})
	}
}

// TestSymlinkLoop: a loop of symbolic links is an error, not a hang.
func TestSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if _, err := Create(a); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("Create on a loop: %v", err)
	}
}

// TestCreateIn: a file created in a root is written whole on Commit,
// replaces a symbolic link rather than writing through it, and no name or
// link leads outside the root.
func TestCreateIn(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "root")
	outside := filepath.Join(top, "outside")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()

	f, err := CreateIn(root, "a/b/c.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if _, err := os.Stat(filepath.Join(dir, "a", "b", "c.txt")); !os.IsNotExist(err) {
		t.Errorf("the file exists before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a", "b", "c.txt")); string(got) != "new" {
		t.Errorf("after Commit the file holds %q", got)
	}

	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	f, err = CreateIn(root, "link.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("replaced")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep" {
		t.Errorf("written through the link: %s holds %q", outside, got)
	}
	if st, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("link.txt is not a file now: %v %v", st, err)
	}

	if err := os.Symlink(top, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../x", "/x", "up/x", "."} {
		if f, err := CreateIn(root, name); err == nil {
			f.Abort()
			t.Errorf("CreateIn(%q) succeeded", name)
		}
	}
	if entries, _ := os.ReadDir(top); len(entries) != 2 {
		t.Errorf("%s holds %d entries, want 2", top, len(entries))
	}
	f, err = CreateIn(root, "gone.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if _, err := os.Stat(filepath.Join(dir, f.Temp())); !os.IsNotExist(err) {
		t.Errorf("Abort left %s: %v", f.Temp(), err)
	}
}

// TestCreateNotRegular: a named pipe, reached by its name or through a
// symbolic link (as /dev/stdout leads to /proc/self/fd/1), is written
// straight and stays a pipe, where a rename would have put a regular file
// in its place (as it did to /dev/null); a folder is refused.
func TestCreateNotRegular(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("pipe", link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{pipe, link} {
		got := make(chan string, 1)
		go func() {
			b, _ := os.ReadFile(pipe) // opens once Create opens the other end
			got <- string(b)
		}()
		f, err := Create(name)
		if err != nil {
			t.Fatalf("Create(%s): %v", name, err)
		}
		if !f.InPlace() || f.Temp() != "" {
			t.Errorf("%s: InPlace %v, Temp %q; want true, \"\"", name, f.InPlace(), f.Temp())
		}
		f.WriteString("through")
		if err := f.Commit(); err != nil {
			t.Errorf("Commit(%s): %v", name, err)
		}
		select {
		case s := <-got:
			if s != "through" {
				t.Errorf("%s: the reader got %q, want \"through\"", name, s)
			}
		case <-time.After(10 * time.Second):
			// Create did not open the pipe: let the reader go.
			if w, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Errorf("%s: the reader got nothing", name)
		}
		if st, err := os.Lstat(pipe); err != nil || st.Mode().Type() != os.ModeNamedPipe {
			t.Fatalf("after writing %s, %s is not a named pipe: %v", name, pipe, describe(st, err))
		}
		if st, err := os.Lstat(link); err != nil || st.Mode().Type() != os.ModeSymlink {
			t.Fatalf("after writing %s, %s is not a link: %v", name, link, describe(st, err))
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("folder holds %d entries, want the pipe and the link", len(entries))
	}
	if _, err := Create(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("Create of a folder: %v, want \"is a folder\"", err)
	}
}

// describe returns the mode of st, or err.
func describe(st os.FileInfo, err error) any {
	if err != nil {
		return err
	}
	return st.Mode()
}
