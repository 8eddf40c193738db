package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"go.yaml.in/yaml/v3"
)

// actionFile is what the tests read of action.yml.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name  string            `yaml:"name"`
			Shell string            `yaml:"shell"`
			Env   map[string]string `yaml:"env"`
			Run   string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// actionRunner runs the steps of the repository's action.yml as a GitHub
// runner runs a composite action's: each step's run script in bash with its
// env, the ${{ }} expressions replaced, and the folders a step appends to
// $GITHUB_PATH put on the PATH of the steps after it. Nothing is fetched:
// curl is a stand-in that serves a release from a local folder, made by the
// release's own packaging script from a jrpcld that runs this test binary.
type actionRunner struct {
	root    string // the repository, where action.yml is
	action  actionFile
	bin     string // curl's stand-in
	release string // the release v9.9.9 as published
	curlLog string // the URLs curl was asked for, one a line
	jrpcld  string // the jrpcld the release holds
}

const (
	testRepo    = "owner/fixture"
	testRelease = "v9.9.9"
)

func newActionRunner(t *testing.T) *actionRunner {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the action's scripts are run here with bash, tar and sha256sum or shasum")
	}
	for _, tool := range []string{"bash", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s to run the action's steps with", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	r := &actionRunner{root: root, bin: t.TempDir(), release: t.TempDir()}
	r.curlLog = filepath.Join(r.bin, "curl.log")
	if err := yaml.Unmarshal(readFileT(t, filepath.Join(root, "action.yml")), &r.action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if r.action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", r.action.Runs.Using)
	}
	// The jrpcld of the release: this test binary, run as jrpcld.
	r.jrpcld = filepath.Join(t.TempDir(), "jrpcld")
	writeExec(t, r.jrpcld, fmt.Sprintf("#!/bin/sh\nJRPCLD_TEST_MAIN=1 exec %q \"$@\"\n", os.Args[0]))
	osName, arch := runtime.GOOS, runtime.GOARCH
	if out, err := exec.Command("bash", filepath.Join(root, ".github", "release", "package.sh"), osName, arch, r.release, r.jrpcld).CombinedOutput(); err != nil {
		t.Fatalf("package.sh: %v\n%s", err, out)
	}
	// checksums.txt as sha256sum writes it, computed here.
	var sums bytes.Buffer
	entries, err := os.ReadDir(r.release)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		sum := sha256.Sum256(readFileT(t, filepath.Join(r.release, e.Name())))
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), e.Name())
	}
	if err := os.WriteFile(filepath.Join(r.release, "checksums.txt"), sums.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// curl -fsSL --retry 3 -o FILE URL, served from the release for the
	// URLs of release v9.9.9 and of the latest release.
	writeExec(t, filepath.Join(r.bin, "curl"), fmt.Sprintf(`#!/bin/sh
out= url=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift ;;
    --retry) shift ;;
    -*) ;;
    *) url=$1 ;;
  esac
  shift
done
echo "$url" >> %[1]q
case "$url" in
  https://github.com/jrpcld/jrpcld/releases/download/%[2]s/*|https://github.com/jrpcld/jrpcld/releases/latest/download/*) ;;
  *) echo "curl: (22) The requested URL returned error: 404" >&2; exit 22 ;;
esac
file=%[3]q/${url##*/}
[ -f "$file" ] || { echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; }
cp "$file" "$out"
`, r.curlLog, testRelease, r.release))
	return r
}

var expression = regexp.MustCompile(`\$\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}`)

// run runs the action's steps in the folder work with the inputs given
// (the others at their defaults) and the action used at ref. It returns
// the status of the first step that failed (0 when none did) and what the
// steps wrote.
func (r *actionRunner) run(t *testing.T, work, ref string, inputs map[string]string) (int, string) {
	t.Helper()
	for name := range inputs {
		if _, ok := r.action.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
	}
	expand := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string {
			name := expression.FindStringSubmatch(m)[1]
			if in, ok := strings.CutPrefix(name, "inputs."); ok {
				if v, ok := inputs[in]; ok {
					return v
				}
				def, ok := r.action.Inputs[in]
				if !ok {
					t.Fatalf("action.yml uses the undeclared input %q", in)
				}
				return def.Default
			}
			if name == "github.action_path" {
				return r.root
			}
			t.Fatalf("action.yml uses %s, which this test does not know", m)
			return ""
		})
	}
	runnerTemp, ghPath := t.TempDir(), filepath.Join(t.TempDir(), "github_path")
	if err := os.WriteFile(ghPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, step := range r.action.Runs.Steps {
		if step.Shell != "bash" {
			t.Fatalf("step %q runs in %q; the action runs on every system in bash", step.Name, step.Shell)
		}
		path := r.bin + string(os.PathListSeparator) + os.Getenv("PATH")
		added := strings.Fields(string(readFileT(t, ghPath)))
		slices.Reverse(added)
		for _, p := range added {
			path = p + string(os.PathListSeparator) + path
		}
		env := []string{"PATH=" + path, "HOME=" + os.Getenv("HOME"), "TMPDIR=" + runnerTemp,
			"RUNNER_OS=" + map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS],
			"RUNNER_ARCH=" + map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH],
			"RUNNER_TEMP=" + runnerTemp, "GITHUB_PATH=" + ghPath, "GITHUB_WORKSPACE=" + work,
			"GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=" + testRepo, "GITHUB_REPOSITORY_OWNER=owner",
			"GITHUB_REF_NAME=main", "GITHUB_ACTION_REPOSITORY=jrpcld/jrpcld", "GITHUB_ACTION_REF=" + ref,
			"GITHUB_ACTION_PATH=" + r.root}
		for k, v := range step.Env {
			env = append(env, k+"="+expand(v))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", expand(step.Run))
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = work, env, &out, &out
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				fmt.Fprintf(&out, "[step %q exited %d]\n", step.Name, ee.ExitCode())
				return ee.ExitCode(), out.String()
			}
			t.Fatalf("step %q: %v", step.Name, err)
		}
	}
	return 0, out.String()
}

// TestAction runs action.yml's steps on the fixture register, as a
// register's workflow runs them, and compares the tree they leave with the
// one "jrpcld build" writes with the flags docs/publish.md gives.
func TestAction(t *testing.T) {
	r := newActionRunner(t)
	fixture := filepath.Join("..", "..", "register", "testdata", "fixture")
	tests := []struct {
		name    string
		ref     string // the ref the action is used at
		inputs  map[string]string
		tamper  bool // the release's archive differs from its checksum
		status  int
		want    []string // in the steps' output
		url     string   // the URL the archive is downloaded from
		compare bool     // compare the tree with jrpcld build's
	}{
		{name: "defaults, used at a release tag", ref: testRelease, status: 0, compare: true,
			want: []string{"some building blocks failed validation; the register is built (fail_on_error is false)"},
			url:  "https://github.com/jrpcld/jrpcld/releases/download/v9.9.9/jrpcld_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"},
		{name: "used at a branch: the latest release", ref: "main", inputs: map[string]string{"fail_on_error": "true"}, status: 1,
			want: []string{"some building blocks failed validation (fail_on_error is true)"},
			url:  "https://github.com/jrpcld/jrpcld/releases/latest/download/jrpcld_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"},
		{name: "a release that does not exist", ref: "main", inputs: map[string]string{"version": "v0.0.1"}, status: 1,
			want: []string{"could not download https://github.com/jrpcld/jrpcld/releases/download/v0.0.1/jrpcld_"}},
		{name: "an archive that is not the release's", ref: testRelease, tamper: true, status: 1,
			want: []string{"but checksums.txt of release v9.9.9 says", "not installed"}},
		{name: "annotated schemas elsewhere", ref: testRelease, inputs: map[string]string{"annotated_path": "out/annotated"}, status: 2,
			want: []string{"annotated_path out/annotated: jrpcld uses build/annotated (with register_file build/register.json); leave annotated_path at its default"}},
		{name: "another output folder", ref: testRelease, inputs: map[string]string{"register_file": "./site/register.json", "annotated_path": "site/annotated/",
			"args": "--date\n2026-01-02"}, status: 0, want: []string{"jrpcld build . -o . --build-path site", "--date 2026-01-02"}},
		{name: "a register to fetch that is no URL", ref: testRelease, inputs: map[string]string{"fetch": "  ftp://example.org/register.json \n"}, status: 2,
			want: []string{"jrpcld fetch ftp://example.org/register.json\n"}},
		{name: "another items folder", ref: testRelease, inputs: map[string]string{"items_dir": "blocks"}, status: 2,
			want: []string{"items_dir blocks: jrpcld uses _sources"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			archive := filepath.Join(r.release, "jrpcld_"+runtime.GOOS+"_"+runtime.GOARCH+".tar.gz")
			if tc.tamper {
				orig := readFileT(t, archive)
				if err := os.WriteFile(archive, append(slices.Clone(orig), 0), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.WriteFile(archive, orig, 0o644) })
			}
			_ = os.Remove(r.curlLog)
			work := copyTree(t, fixture)
			status, out := r.run(t, work, tc.ref, tc.inputs)
			if status != tc.status {
				t.Fatalf("the steps ended with status %d, want %d:\n%s", status, tc.status, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the steps' output lacks %q:\n%s", w, out)
				}
			}
			if tc.url != "" {
				if log, _ := os.ReadFile(r.curlLog); !strings.Contains(string(log), tc.url+"\n") {
					t.Errorf("curl was asked for\n%s, want %s", log, tc.url)
				}
			}
			if !tc.compare {
				return
			}
			// The same register built by jrpcld itself, as docs/publish.md
			// says the action builds it.
			direct := copyTree(t, fixture)
			cmd := exec.Command(r.jrpcld, "build", ".", "-o", ".", "--build-path", "build",
				"--base-url", "https://raw.githubusercontent.com/"+testRepo+"/main/", "--git-repository", "https://github.com/"+testRepo,
				"--github-base-url", "https://github.com/"+testRepo+"/blob/main/")
			cmd.Dir = direct
			if b, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != cli.ExitInvalid {
				t.Fatalf("jrpcld build: %v\n%s", err, b)
			}
			got, want := treeFiles(t, work), treeFiles(t, direct)
			for _, f := range []string{"build/register.json", "build/tests/report.html", "index.html", "_sources/point/bblock.json"} {
				if want[f] == nil {
					t.Fatalf("jrpcld build left no %s (%d files)", f, len(want))
				}
			}
			for name, data := range want {
				if g, ok := got[name]; !ok {
					t.Errorf("the action's tree lacks %s", name)
				} else if !bytes.Equal(g, data) {
					t.Errorf("%s differs from jrpcld build's", name)
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok {
					t.Errorf("the action's tree has %s, which jrpcld build does not write", name)
				}
			}
		})
	}
}

// TestActionScripts checks that every script of the action and the release
// parses, and that the release workflow packages every system the install
// step knows with the release's own script.
func TestActionScripts(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root := filepath.Join("..", "..")
	scripts, _ := filepath.Glob(filepath.Join(root, ".github", "*", "*.sh"))
	if len(scripts) < 3 {
		t.Fatalf("found %d scripts below .github, want install.sh, build.sh and package.sh", len(scripts))
	}
	for _, s := range scripts {
		if out, err := exec.Command("bash", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", s, err, out)
		}
		if fi, err := os.Stat(s); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", s)
		}
	}
	release := string(readFileT(t, filepath.Join(root, ".github", "workflows", "release.yml")))
	for _, target := range []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"} {
		if !strings.Contains(release, target) {
			t.Errorf("release.yml does not build %s", target)
		}
	}
	for _, s := range []string{".github/release/package.sh", "sha256sum jrpcld_*.tar.gz > checksums.txt", "gh release create"} {
		if !strings.Contains(release, s) {
			t.Errorf("release.yml lacks %q", s)
		}
	}
}

func readFileT(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeExec(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the folder src into a new temporary folder.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// treeFiles returns every file below dir by its slash-separated path.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
