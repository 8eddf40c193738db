// Package virtuosotest runs OpenLink Virtuoso, the triple store Debian
// ships (package virtuoso-opensource), for tests: a server of its own on
// 127.0.0.1, with ports of its own and its database in a temporary folder,
// started with "virtuoso-t -f -c INI" and stopped when the test ends.
//
// The server speaks the SPARQL 1.1 Graph Store Protocol at
// /sparql-graph-crud-auth (Digest, user dba, password dba, the defaults of
// a new database) and, once Start has granted updates to the anonymous
// SPARQL user, at /sparql-graph-crud; it answers queries at /sparql and
// /sparql-auth. Without virtuoso-t and isql-vt a test is skipped with a
// message, or fails when JRPCLD_SHARED is set (as in CI, whose .ci/run
// installs the package).
package virtuosotest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/oxitest"
)

// The database administrator of a new Virtuoso database.
const (
	User     = "dba"
	Password = "dba"
)

// Install is the command that installs Virtuoso on Debian.
const Install = "apt-get install --no-install-recommends virtuoso-opensource"

// Server is a running Virtuoso.
type Server struct {
	URL     string // http://127.0.0.1:PORT
	SQLPort int    // the port of its SQL interface (isql-vt)
	Dir     string // its database folder
}

// GraphStoreURL is the Graph Store endpoint that asks for Digest
// credentials (User, Password).
func (s *Server) GraphStoreURL() string { return s.URL + "/sparql-graph-crud-auth" }

// AnonymousGraphStoreURL is the Graph Store endpoint without credentials:
// Start grants the anonymous SPARQL user the right to update.
func (s *Server) AnonymousGraphStoreURL() string { return s.URL + "/sparql-graph-crud" }

// QueryURL is the SPARQL query endpoint without credentials.
func (s *Server) QueryURL() string { return s.URL + "/sparql" }

// require skips t, or fails it when JRPCLD_SHARED is set.
func require(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("JRPCLD_SHARED") != "" {
		t.Fatalf(format+" (JRPCLD_SHARED is set, so this test must run)", args...)
	}
	t.Skipf(format, args...)
}

// freePorts returns n ports of 127.0.0.1 that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var ports []int
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// ini is the server's configuration: everything in dir, on loopback, small
// buffers, generous limits for the tests' queries.
const ini = `[Database]
DatabaseFile = %[1]s/virtuoso.db
ErrorLogFile = %[1]s/virtuoso.log
LockFile = %[1]s/virtuoso.lck
TransactionFile = %[1]s/virtuoso.trx
xa_persistent_file = %[1]s/virtuoso.pxa
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = %[1]s/virtuoso-temp.db
TransactionFile = %[1]s/virtuoso-temp.trx

[Parameters]
ServerPort = 127.0.0.1:%[2]d
DisableUnixSocket = 1
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
ThreadsPerQuery = 2
DirsAllowed = %[1]s
CheckpointInterval = 0

[HTTPServer]
ServerPort = 127.0.0.1:%[3]d
ServerRoot = %[1]s
ServerThreads = 4
MaxKeepAlives = 4

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime = 300
`

// Start starts a Virtuoso server for t, waits until it answers queries,
// grants updates to the anonymous SPARQL user, and stops it (and removes
// its database) when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("virtuoso-t")
	if err != nil {
		require(t, "virtuosotest: virtuoso-t is not installed (%v); install it with: %s", err, Install)
	}
	isql, err := exec.LookPath("isql-vt")
	if err != nil {
		require(t, "virtuosotest: isql-vt is not installed (%v); install it with: %s", err, Install)
	}
	var last error
	begin := time.Now()
	for try := 0; try < 3; try++ { // a port taken meanwhile: again, with others
		s, err := start(t, bin)
		if err == nil {
			if err := s.grantAnonymousUpdate(isql); err != nil {
				t.Fatalf("virtuosotest: %v", err)
			}
			t.Logf("virtuosotest: Virtuoso started at %s in %v", s.URL, time.Since(begin).Round(time.Millisecond))
			return s
		}
		last = err
	}
	t.Fatalf("virtuosotest: %v", last)
	return nil
}

// start makes one attempt at starting the server.
func start(t testing.TB, bin string) (*Server, error) {
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "virtuoso.ini")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(ini, dir, ports[0], ports[1])), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-f", "-c", cfg)
	cmd.Dir = dir
	out, err := os.Create(filepath.Join(dir, "server.out"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("starting %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); out.Close() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", ports[1]), SQLPort: ports[0], Dir: dir}
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err
			log, _ := os.ReadFile(filepath.Join(dir, "server.out"))
			return nil, fmt.Errorf("virtuoso-t ended (%v) before it answered:\n%s", err, tail(log))
		default:
		}
		if s.ready() {
			t.Cleanup(stop)
			return s, nil
		}
		if time.Now().After(deadline) {
			stop()
			log, _ := os.ReadFile(filepath.Join(dir, "server.out"))
			return nil, fmt.Errorf("virtuoso-t did not answer within 90 s:\n%s", tail(log))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// ready reports whether the server answers a query.
func (s *Server) ready() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := s.Query(ctx, "ASK { ?s ?p ?o }")
	return err == nil
}

// grantAnonymousUpdate lets the anonymous SPARQL user update graphs, as
// Virtuoso's documentation says for /sparql-graph-crud.
func (s *Server) grantAnonymousUpdate(isql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, isql, "127.0.0.1:"+strconv.Itoa(s.SQLPort), User, Password,
		`exec=GRANT SPARQL_UPDATE TO "SPARQL"; DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);`)
	out, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("*** Error")) {
		return fmt.Errorf("isql-vt: granting updates to the anonymous user: %v\n%s", err, out)
	}
	return nil
}

// tail returns the last lines of a log.
func tail(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// Query runs a SPARQL query at /sparql and returns its rows.
func (s *Server) Query(ctx context.Context, query string) ([]map[string]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.QueryURL(), strings.NewReader(url.Values{"query": {query}}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/sparql-results+json")
	return oxitest.Select(req)
}

// Counts returns the number of statements of each named graph of graphs.
func (s *Server) Counts(ctx context.Context, graphs []string) (map[string]int64, error) {
	var values strings.Builder
	for _, g := range graphs {
		values.WriteString("<" + g + "> ")
	}
	rows, err := s.Query(ctx, "SELECT ?g (COUNT(*) AS ?n) WHERE { VALUES ?g { "+values.String()+"} GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{}
	for _, r := range rows {
		n, err := strconv.ParseInt(r["n"], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("virtuoso: count %q of %s", r["n"], r["g"])
		}
		counts[r["g"]] = n
	}
	return counts, nil
}
