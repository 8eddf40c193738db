// Package shared locates the ../shared folder (reference data and corpus)
// for tests. A test that needs it calls Dir: the test is skipped with a clear
// message when the folder is absent, and fails instead when JRPCLD_SHARED is
// set, as it is in CI.
package shared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the absolute path of the shared folder joined with elem.
// It skips t when the folder is missing, or fails t when JRPCLD_SHARED is set.
func Dir(t testing.TB, elem ...string) string {
	t.Helper()
	root := os.Getenv("JRPCLD_SHARED")
	required := root != ""
	if root == "" {
		_, file, _, ok := runtime.Caller(0)
		if !ok {
			t.Skip("shared: cannot locate the module root; set JRPCLD_SHARED")
		}
		// file is <module>/internal/shared/shared.go; ../shared sits beside the module.
		root = filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		if _, err = os.Stat(filepath.Join(abs, "reference")); err == nil {
			return filepath.Join(append([]string{abs}, elem...)...)
		}
	}
	if required {
		t.Fatalf("shared: JRPCLD_SHARED=%q is set but %v", os.Getenv("JRPCLD_SHARED"), err)
	}
	t.Skipf("shared: ../shared not found beside the module (%v); skipping. Set JRPCLD_SHARED to its path to run this test.", err)
	return ""
}
