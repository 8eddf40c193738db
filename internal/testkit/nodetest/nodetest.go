// Package nodetest finds Node.js and the npm packages that tests compare
// jrpcld with (jsonld.js, ajv, Oxigraph): where .ci/run installs them, in
// the user's cache folder, unless NODE_PATH says otherwise. Without them a
// test is skipped, or fails when JRPCLD_SHARED is set, as in CI, where it
// must run.
package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Need returns the path of node and the environment to run it in, in
// which each of pkgs can be required. When node or a package is missing it
// skips t, or fails it when JRPCLD_SHARED is set; install says how to
// install the packages.
func Need(t testing.TB, install string, pkgs ...string) (bin string, env []string) {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		Require(t, "node is not installed: %v", err)
	}
	env = os.Environ()
	if os.Getenv("NODE_PATH") == "" {
		if cache, err := os.UserCacheDir(); err == nil {
			env = append(env, "NODE_PATH="+filepath.Join(cache, "jrpcld", "npm", "node_modules"))
		}
	}
	var js strings.Builder
	for _, p := range pkgs {
		js.WriteString("require(" + strconv.Quote(p) + ");")
	}
	check := exec.Command(bin, "-e", js.String())
	check.Env = env
	if out, err := check.CombinedOutput(); err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		Require(t, "the npm packages %s are not found (%v: %s); install them with: %s", strings.Join(pkgs, ", "), err, first, install)
	}
	return bin, env
}

// Require skips t with the message, or fails it when JRPCLD_SHARED is set
// (in CI, where the test must run).
func Require(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("JRPCLD_SHARED") != "" {
		t.Fatalf(format+" (JRPCLD_SHARED is set, so this test must run)", args...)
	}
	t.Skipf(format, args...)
}
