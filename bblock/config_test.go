package bblock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestConfigErrors: a register folder whose bblocks-config.yaml is missing,
// a link that leads nowhere, a folder, or cannot be read, or a register
// folder that is none, is an error that names the full path, says what is
// wrong and what to do, whether the register is loaded (as build does) or
// opened as a command's --bblock; nothing falls back to "holds neither".
func TestConfigErrors(t *testing.T) {
	top := t.TempDir()
	meta := strings.Replace(goodMeta, "%s", "", 1)
	tree := func(name string) string {
		dir := filepath.Join(top, name)
		if err := os.MkdirAll(filepath.Join(dir, SourcesDir, "a"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, SourcesDir, "a", "bblock.json"), []byte(meta), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	none := tree("none")
	relative := tree("relative")
	if err := os.Symlink("missing.yaml", filepath.Join(relative, ConfigFile)); err != nil {
		t.Fatal(err)
	}
	absolute := tree("absolute")
	if err := os.Symlink(filepath.Join(top, "gone.yaml"), filepath.Join(absolute, ConfigFile)); err != nil {
		t.Fatal(err)
	}
	folder := tree("folder")
	if err := os.Mkdir(filepath.Join(folder, ConfigFile), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(top, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(top, "nope")

	tests := []struct {
		name, dir string
		want      []string // substrings of the error
	}{
		{"no configuration", none, []string{filepath.Join(none, ConfigFile) + " does not exist",
			"give the folder that holds " + ConfigFile + " and " + SourcesDir}},
		{"dangling relative link", relative, []string{filepath.Join(relative, ConfigFile) + " is a symbolic link to missing.yaml, which does not exist",
			"make the link lead to the register's configuration"}},
		{"dangling absolute link", absolute, []string{filepath.Join(absolute, ConfigFile) + ": a symbolic link leads outside the folder " + absolute + " (or is absolute): refused"}},
		{"a folder", folder, []string{filepath.Join(folder, ConfigFile) + " is a folder, not the YAML file", "put that file in its place"}},
		{"no such folder", missing, []string{missing + " is not a building-block source tree: there is no such folder"}},
		{"a file", file, []string{file + " is not a building-block source tree: it is a file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadRegisterDir(tt.dir, nil)
			check := func(how string, err error) {
				if err == nil {
					t.Fatalf("%s: no error", how)
				}
				for _, want := range tt.want {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%s: %q lacks %q", how, err, want)
					}
				}
				if strings.Contains(err.Error(), "statat") || strings.Contains(err.Error(), "holds neither") {
					t.Errorf("%s: %q", how, err)
				}
			}
			check("LoadRegisterDir", err)
			if tt.dir != none && tt.dir != missing && tt.dir != file {
				// Open finds a configuration entry, so it says what is
				// wrong with it; a folder without one is a block folder to
				// it ("holds neither" is right there).
				_, _, err := Open(tt.dir, "", nil)
				check("Open", err)
			}
		})
	}
}

// TestOpenNoTree: what Open says of a folder that is neither a block nor a
// register, and of one that does not exist.
func TestOpenNoTree(t *testing.T) {
	empty := t.TempDir()
	missing := filepath.Join(empty, "nope")
	tests := []struct{ dir, want string }{
		{empty, empty + " holds neither bblock.json nor " + ConfigFile + ": give a block folder or a register source tree"},
		{missing, missing + ": there is no such folder; give a block folder (with bblock.json) or a register source tree"},
	}
	for _, tt := range tests {
		if _, _, err := Open(tt.dir, "", nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%s): %v; want %q", tt.dir, err, tt.want)
		}
	}
}

// TestConfigReadErrors: the errors of reading the configuration that a
// test run as root cannot cause (permission denied), and others, say the
// full path, the cause and what to do.
func TestConfigReadErrors(t *testing.T) {
	file := filepath.Join("reg", ConfigFile)
	tests := []struct {
		name, link string
		err        error
		want       []string
	}{
		{"permission", "", &fs.PathError{Op: "open", Path: file, Err: syscall.EACCES},
			[]string{file + " cannot be read (permission denied)", "chmod a+r " + file}},
		{"permission through a link", "elsewhere.yaml", &fs.PathError{Op: "open", Path: file, Err: syscall.EACCES},
			[]string{file + " (a symbolic link to elsewhere.yaml) cannot be read (permission denied)"}},
		{"loop", "a", &fs.PathError{Op: "stat", Path: file, Err: syscall.ELOOP},
			[]string{file + " (a symbolic link to a) cannot be read (too many levels of symbolic links)", "put the file"}},
		{"missing", "", fmt.Errorf("wrapped: %w", &fs.PathError{Op: "lstat", Path: file, Err: syscall.ENOENT}),
			[]string{file + " does not exist"}},
	}
	for _, tt := range tests {
		err := configError("reg", tt.link, tt.err)
		if !errors.Is(err, ErrNoRegister) {
			t.Errorf("%s: %v does not wrap ErrNoRegister", tt.name, err)
		}
		for _, want := range tt.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", tt.name, err, want)
			}
		}
	}
}
