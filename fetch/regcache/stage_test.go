package regcache

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestStageCommit: a staged copy is not read until Commit, which makes it
// the register's copy and removes the earlier one; Abort removes a copy.
func TestStageCommit(t *testing.T) {
	const u = "https://h.test/r/register.json"
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, _ := Root()
	put := func(content string) *Staging {
		t.Helper()
		s, err := Stage(u)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Dir, "register.json"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return s
	}
	read := func() string {
		t.Helper()
		dir, err := Dir(u)
		if err != nil {
			return err.Error()
		}
		data, _ := os.ReadFile(filepath.Join(dir, "register.json"))
		return string(data)
	}
	first := put("one")
	if got := read(); !strings.Contains(got, "not in the cache") {
		t.Errorf("a staged copy is read: %q", got)
	}
	if _, err := first.Commit(u); err != nil {
		t.Fatal(err)
	}
	second := put("two")
	if got := read(); got != "one" {
		t.Errorf("read %q while the next copy is staged, want the first", got)
	}
	second.Abort()
	if got := read(); got != "one" {
		t.Errorf("read %q after Abort, want the first", got)
	}
	third := put("three")
	link, err := third.Commit(u)
	if err != nil || link != filepath.Join(root, Key(u)) {
		t.Fatalf("Commit: %q, %v", link, err)
	}
	if got := read(); got != "three" {
		t.Errorf("read %q, want the third", got)
	}
	if names := entries(t, root); strings.Join(names, " ") != filepath.Base(third.Dir)+" "+Key(u) {
		t.Errorf("the cache holds %q: want the link and the third copy", names)
	}
	if mark, _ := os.ReadFile(filepath.Join(third.Dir, CompleteMark)); string(mark) != u+"\n" {
		t.Errorf("mark %q", mark)
	}
}

// TestCommitReplacesOldLayout: a copy an older jrpcld installed in place
// (a folder, not a link, which Dir does not read) is replaced.
func TestCommitReplacesOldLayout(t *testing.T) {
	const u = "https://h.test/r/register.json"
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, _ := Root()
	old := filepath.Join(root, Key(u))
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "register.json"), []byte("old"), 0o644)
	s, err := Stage(u)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.Dir, "register.json"), []byte("new"), 0o644)
	if _, err := s.Commit(u); err != nil {
		t.Fatal(err)
	}
	dir, err := Dir(u)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "register.json")); string(data) != "new" {
		t.Errorf("read %q", data)
	}
}

// TestRemoveStale: what fetches that were killed left (a copy no link
// leads to, an older jrpcld's temporary folder, once a minute old; a link
// never put in place) is removed; the register's copy, the folder of a
// fetch under way and a folder just made are kept.
func TestRemoveStale(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no file locks here: nothing is removed")
	}
	const u = "https://h.test/r/register.json"
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, _ := Root()
	current, err := Stage(u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := current.Commit(u); err != nil {
		t.Fatal(err)
	}
	running, err := Stage(u) // held by this process
	if err != nil {
		t.Fatal(err)
	}
	defer running.Abort()
	killed, err := Stage(u)
	if err != nil {
		t.Fatal(err)
	}
	killed.unlock() // as the end of its process does
	young, _ := os.MkdirTemp(root, "."+Key(u)+"-")
	older := filepath.Join(root, "."+Key(u)+".tmp-123")
	os.MkdirAll(filepath.Join(older, "build"), 0o755)
	link := filepath.Join(root, ".x-1.link")
	os.Symlink(filepath.Base(current.Dir), link)
	long := time.Now().Add(-2 * time.Minute)
	for _, p := range []string{current.Dir, running.Dir, killed.Dir, older} {
		os.Chtimes(p, long, long)
	}
	RemoveStale(root)
	want := []string{filepath.Base(current.Dir), filepath.Base(running.Dir), filepath.Base(young), Key(u)}
	sort.Strings(want)
	if got := entries(t, root); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("left %q, want %q", got, want)
	}
	if _, err := Dir(u); err != nil {
		t.Error(err)
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
