//go:build unix

package bblock

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeRefused proves that a named pipe where a block's file is
// expected is refused with an error naming it, instead of a read that waits
// for a writer for ever (issue 37, item 9): a register's sources come from
// whoever wrote them.
func TestNamedPipeRefused(t *testing.T) {
	tests := []struct{ name, pipe string }{
		{"schema", "schema.yaml"},
		{"metadata", "bblock.json"},
		{"examples", "examples.yaml"},
		{"context", "context.jsonld"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"bblock.json":    `{"name": "P", "status": "experimental", "dateTimeAddition": "2024-01-01T00:00:00Z", "itemClass": "schema", "version": "1.0"}`,
				"schema.yaml":    "type: object\n",
				"examples.yaml":  "- title: one\n  snippets:\n    - language: json\n      code: '{}'\n",
				"context.jsonld": `{"@context": {}}`,
			}
			for name, data := range files {
				if name == tc.pipe {
					continue
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := syscall.Mkfifo(filepath.Join(dir, tc.pipe), 0o644); err != nil {
				t.Skipf("cannot make a named pipe here: %v", err)
			}
			type result struct {
				b   *Block
				err error
			}
			done := make(chan result, 1)
			go func() {
				b, _, err := Open(dir, "", nil)
				if err == nil && b != nil {
					err = b.Err()
					if err == nil {
						_, err = b.ReadFile(tc.pipe)
					}
				}
				done <- result{b, err}
			}()
			select {
			case r := <-done:
				// A block's problems reach the caller as text, joined; a
				// file read straight is the wrapped error.
				if r.err == nil || !errors.Is(r.err, ErrNotRegular) && !strings.Contains(r.err.Error(), ErrNotRegular.Error()) {
					t.Fatalf("Open of a block whose %s is a named pipe: %v; want ErrNotRegular", tc.pipe, r.err)
				}
				if !strings.Contains(r.err.Error(), tc.pipe) {
					t.Errorf("error %q does not name %s", r.err, tc.pipe)
				}
			case <-time.After(10 * time.Second):
				// Unblock the reader so the test ends.
				if f, err := os.OpenFile(filepath.Join(dir, tc.pipe), os.O_WRONLY, 0); err == nil {
					f.Close()
				}
				t.Fatalf("Open of a block whose %s is a named pipe still waits after 10 s", tc.pipe)
			}
		})
	}
}
