package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/fixture"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/fetch"
	"github.com/jrpcld/jrpcld/fetch/regcache"
)

// hostileURL is the register the hostile sites below serve.
const hostileURL = "https://reg.test/r/register.json"

// hostileSite serves, as a mirror, a register of blocks blocks below
// https://reg.test/r/, each with a schema.json of schemaBytes bytes (made
// as it is sent) referring to a shared file; hook, when set, may answer a
// request itself. It points jrpcld fetch at itself and the user's cache at
// a temporary folder, and returns the environment a child process needs.
type hostileSite struct {
	blocks, schemaBytes int
	mu                  sync.Mutex
	hook                func(w http.ResponseWriter, r *http.Request, name string) bool
	served              int64
}

func (s *hostileSite) start(t *testing.T) []string {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	cache, home := t.TempDir(), t.TempDir()
	t.Setenv(fetch.MirrorEnv, srv.URL)
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", home)
	return append(os.Environ(), "JRPCLD_TEST_MAIN=1")
}

func (s *hostileSite) setHook(h func(w http.ResponseWriter, r *http.Request, name string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = h
}

func (s *hostileSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, _ := strings.CutPrefix(r.URL.Path, "/reg.test/r/")
	s.mu.Lock()
	hook := s.hook
	s.mu.Unlock()
	if hook != nil && hook(w, r, name) {
		return
	}
	var n int
	switch {
	case name == "register.json":
		var b strings.Builder
		b.WriteString(`{"baseURL":"https://reg.test/r/","bblocks":[`)
		for i := range s.blocks {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"itemIdentifier":"t.b%d","schema":{"application/json":"https://reg.test/r/b%d/schema.json"}}`, i, i)
		}
		b.WriteString("]}")
		w.Write([]byte(b.String()))
	case name == "common.json":
		w.Write([]byte(`{"type":"string"}`))
	case sscan(name, "b%d/schema.json", &n) && n < s.blocks:
		s.writeSchema(w)
	default:
		http.NotFound(w, r)
	}
}

// sscan reports whether s reads as format.
func sscan(s, format string, args ...any) bool {
	_, err := fmt.Sscanf(s, format, args...)
	return err == nil
}

// writeSchema writes a JSON schema of s.schemaBytes bytes or so: an object
// with as many properties as that takes, one of them a $ref.
func (s *hostileSite) writeSchema(w http.ResponseWriter) {
	var buf bytes.Buffer
	buf.WriteString(`{"type":"object","properties":{"ref":{"$ref":"../common.json"}`)
	written := 0
	for i := 0; written < s.schemaBytes; i++ {
		fmt.Fprintf(&buf, `,"p%d":{"type":"string","description":"%s"}`, i, strings.Repeat("x", 200))
		if buf.Len() > 32<<10 {
			written += buf.Len()
			w.Write(buf.Bytes())
			buf.Reset()
		}
	}
	buf.WriteString("}}")
	w.Write(buf.Bytes())
	s.mu.Lock()
	s.served += int64(written + buf.Len())
	s.mu.Unlock()
}

// cacheSnapshot returns every file below the user's cache.
func cacheSnapshot(t *testing.T) map[string]string {
	return fixture.Tree(t, os.Getenv("XDG_CACHE_HOME"))
}

// TestFetchSignal: INT, TERM or HUP while jrpcld fetch is downloading (a real
// process, stopped while it waits for a file) installs nothing: the
// earlier copy of the register is still the cache's, no temporary folder
// is left, and the process says so in one line and exits with 128 plus
// the signal's number.
func TestFetchSignal(t *testing.T) {
	for _, c := range stopSignals {
		t.Run(c.name, func(t *testing.T) {
			if signal.Ignored(c.sig) {
				t.Skipf("%s is ignored in this process, and so in the command it starts: nothing to test", c.name)
			}
			s := &hostileSite{blocks: 3, schemaBytes: 1000}
			env := s.start(t)
			if code, out, errOut := jrpcld(t, "", "fetch", "-q", hostileURL); code != cli.ExitOK {
				t.Fatalf("first fetch: exit %d\n%s%s", code, out, errOut)
			}
			before := cacheSnapshot(t)
			waiting := make(chan struct{})
			var once sync.Once
			s.setHook(func(w http.ResponseWriter, r *http.Request, name string) bool {
				if name != "b2/schema.json" {
					return false
				}
				once.Do(func() { close(waiting) })
				<-r.Context().Done() // until the client goes
				return true
			})
			cmd := exec.Command(os.Args[0], "fetch", "-q", hostileURL)
			cmd.Env = env
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-waiting:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				t.Fatalf("the fetch did not reach b2/schema.json: %s", stderr.String())
			}
			cmd.Process.Signal(c.sig)
			stopped := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
			err := cmd.Wait()
			if !stopped.Stop() {
				t.Fatalf("the command did not stop within a minute of %s", c.name)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.code {
				t.Errorf("exit: %v; want status %d", err, c.code)
			}
			want := "jrpcld fetch: stopped by " + c.name + "; the cache is unchanged\n"
			if stderr.String() != want {
				t.Errorf("stderr:\n%q\nwant:\n%q", stderr.String(), want)
			}
			if after := cacheSnapshot(t); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the cache changed:\n%q\nwas\n%q", after, before)
			}
		})
	}
}

// TestFetchFailures: a file that cannot be downloaded, a server that does
// not answer within --timeout, and each limit passed make jrpcld fetch
// exit 1 with an error naming the URL (and the flag that raises the
// limit), and leave the cache as it was.
func TestFetchFailures(t *testing.T) {
	hang := func(file string) func(w http.ResponseWriter, r *http.Request, name string) bool {
		return func(w http.ResponseWriter, r *http.Request, name string) bool {
			if name != file {
				return false
			}
			<-r.Context().Done()
			return true
		}
	}
	for _, c := range []struct {
		name  string
		flags []string
		hook  func(w http.ResponseWriter, r *http.Request, name string) bool
		want  string
	}{
		{"404", nil, func(w http.ResponseWriter, r *http.Request, name string) bool {
			if name == "common.json" {
				http.NotFound(w, r)
				return true
			}
			return false
		}, "https://reg.test/r/common.json: 404 Not Found"},
		{"timeout", []string{"--timeout", "300ms"}, hang("b1/schema.json"), "https://reg.test/r/b1/schema.json: not downloaded within 300ms (raise the limit with --timeout)"},
		{"files", []string{"--max-files", "3"}, nil, "(raise the limit with --max-files)"},
		{"bytes", []string{"--max-bytes", "5000"}, nil, "(raise the limit with --max-bytes)"},
		{"depth", []string{"--max-ref-depth", "1"}, nil, "https://reg.test/r/common.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &hostileSite{blocks: 3, schemaBytes: 2000}
			s.start(t)
			if code, out, errOut := jrpcld(t, "", "fetch", "-q", hostileURL); code != cli.ExitOK {
				t.Fatalf("first fetch: exit %d\n%s%s", code, out, errOut)
			}
			before := cacheSnapshot(t)
			s.setHook(c.hook)
			code, out, errOut := jrpcld(t, "", append(append([]string{"fetch", "-q"}, c.flags...), hostileURL)...)
			if code != cli.ExitInvalid || out != "" || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "the cache is unchanged") {
				t.Errorf("exit %d\n%s%s\nwant exit 1 and an error with %q", code, out, errOut, c.want)
			}
			if after := cacheSnapshot(t); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the cache changed:\n%q\nwas\n%q", after, before)
			}
		})
	}
}

// maxRSS returns the peak resident memory of a process that ended, in
// bytes (Linux reports kilobytes).
func maxRSS(t *testing.T, ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no resource usage of a child process here")
	}
	return ru.Maxrss << 10
}

// TestFetchMemoryBounded: the memory jrpcld fetch takes does not grow with
// the register (a real process, whose peak resident memory the kernel
// reports): 8 schemas of 2 MiB take hardly more than one of 1 kB, as files
// go to disk as they arrive, and are read for their references as a
// stream. A fetch that held them would take 16 MiB more, and decoding
// them more again.
func TestFetchMemoryBounded(t *testing.T) {
	peak := func(blocks, schemaBytes int) int64 {
		s := &hostileSite{blocks: blocks, schemaBytes: schemaBytes}
		env := s.start(t)
		cmd := exec.Command(os.Args[0], "fetch", "-q", hostileURL)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if s.served < int64(blocks*schemaBytes) {
			t.Fatalf("served %d bytes only", s.served)
		}
		return maxRSS(t, cmd.ProcessState)
	}
	small, big := peak(1, 1000), peak(8, 2<<20)
	t.Logf("peak resident memory: %.1f MiB for a register of 1 kB, %.1f MiB for one of 16 MiB", float64(small)/(1<<20), float64(big)/(1<<20))
	if big-small > 8<<20 {
		t.Errorf("16 MiB more of files take %.1f MiB more of memory, more than 8 MiB", float64(big-small)/(1<<20))
	}
}

// TestIncompleteCopyNotRead: a copy of a register in the cache that no
// fetch marked complete (here one an older jrpcld installed in place,
// which may be partial) is read neither by --bblock URL, nor by --import
// URL, nor by --import URL=DIR naming its folder: each says to fetch it
// again.
func TestIncompleteCopyNotRead(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	root, err := regcache.Root()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, regcache.Key(hostileURL))
	os.MkdirAll(filepath.Join(dir, "b0"), 0o755)
	os.WriteFile(filepath.Join(dir, "register.json"), []byte(`{"bblocks":[{"itemIdentifier":"t.b0","name":"b0","schema":{"application/json":"https://reg.test/r/b0/schema.json"}}]}`), 0o644)
	for _, args := range [][]string{
		{"context", "--bblock", hostileURL, "--id", "t.b0"},
		{"context", "--import", hostileURL},
		{"context", "--import", hostileURL + "=" + dir},
		{"context", "--import", hostileURL + "=" + filepath.Join(dir, "b0", "..")},
	} {
		code, out, errOut := jrpcld(t, "", args...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "not complete") || !strings.Contains(errOut, "fetch") {
			t.Errorf("%q: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}
