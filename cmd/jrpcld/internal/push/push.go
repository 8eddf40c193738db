// Package push is --push of "jrpcld rdf" and "jrpcld build": the flags of an
// upload to a SPARQL 1.1 Graph Store, credentials asked for only when the
// store asks, and the uploads of logs and ontologies through rdf/gsp.
package push

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/gsp"
	"github.com/jrpcld/jrpcld/register"
	"github.com/spf13/pflag"
)

// PasswordEnv is the environment variable that holds the password of
// --push-user (or of the user named in the --push URL).
const PasswordEnv = "JRPCLD_PUSH_PASSWORD"

const Usage = "upload each log's graph to the SPARQL 1.1 Graph Store endpoint `URL`, as the named graph of the log's IRI, instead of writing it"

const Help = `
Uploads (--push URL) go to a SPARQL 1.1 Graph Store endpoint, such as
Virtuoso's /sparql-graph-crud-auth, Oxigraph's /store or Fuseki's /DATASET/data.
--push-method put (the default) replaces each graph: pushing the same input
again leaves the store as it was; post adds to it. An upload counts as done
only when the store answers 200, 201 or 204 to it: a redirect to another host
is an error, and nothing is sent there.

Credentials are given to the store only when it asks for them (Basic, or
Digest when it offers that), and only to the host of the --push URL: the user
information of the URL (http://user:password@host/...), or --push-user with the
password from --push-password-file or the environment variable
JRPCLD_PUSH_PASSWORD, or else the entry for the host in ~/.netrc (or $NETRC).
No password is ever printed.

With --verify (on by default), each upload is checked by counting the
statements of its graph through the store's SPARQL endpoint: --push-query URL,
or the one beside a known Graph Store endpoint (Virtuoso's /sparql, Oxigraph's
/query, Fuseki's /DATASET/sparql); without one, the run says it cannot verify.
A store that holds fewer statements than were sent is an error.

A graph not stored (or not verified) ends the run with one line that names it
and the store's answer, and exit status 2; the graphs pushed before it are
listed on standard output and stay in the store. What a store quotes back of
the request in its answer is printed with the credentials hidden.`

// Flags are the flags of an upload to a Graph Store (rdf and build).
type Flags struct {
	url, user, passwordFile, method, query string
	timeout, connectTimeout                time.Duration
	verify                                 bool
}

// AddFlags adds the flags of an upload to fs; usage is that of --push.
func AddFlags(fs *pflag.FlagSet, usage string) *Flags {
	p := &Flags{}
	fs.StringVar(&p.url, "push", "", usage)
	fs.StringVar(&p.method, "push-method", "put", "with --push, `put` replaces each graph (pushing again changes nothing) or post adds to it")
	fs.StringVar(&p.user, "push-user", "", "with --push, the user `NAME` to give the store when it asks (Basic or Digest); the password comes from --push-password-file or "+PasswordEnv)
	fs.StringVar(&p.passwordFile, "push-password-file", "", "read the password of --push-user from the first line of `FILE`")
	fs.DurationVar(&p.timeout, "push-timeout", gsp.DefaultTimeout, "with --push, give up on a request the store has not answered within `DURATION` (such as 30s or 10m): leave it the time to load the largest graph")
	fs.DurationVar(&p.connectTimeout, "push-connect-timeout", gsp.DefaultConnectTimeout, "with --push, give up on a connection to the store not made within `DURATION` (retried)")
	fs.BoolVar(&p.verify, "verify", true, "with --push, count each graph's statements through the store's SPARQL endpoint after the upload, and fail unless it holds what was sent (--verify=false: do not)")
	fs.StringVar(&p.query, "push-query", "", "with --push, the store's SPARQL query endpoint `URL`, for --verify (default: the one beside a known Graph Store endpoint)")
	return p
}

// Pusher uploads graphs as the flags say, to store.
type Pusher struct {
	e     *cli.Env
	cmd   string
	store *gsp.Store
	// note says, before the first upload, why none is verified.
	note string
}

// Pusher checks the flags and returns the pusher they make, or nil and
// an error for the user when they are not right.
func (p *Flags) Pusher(e *cli.Env, cmd string, fs *pflag.FlagSet) (*Pusher, error) {
	if p.url == "" {
		for _, name := range []string{"push-method", "push-user", "push-password-file", "push-timeout", "push-connect-timeout", "verify", "push-query"} {
			if fs.Changed(name) {
				return nil, fmt.Errorf("--%s goes with --push", name)
			}
		}
		return nil, nil
	}
	u, err := parseStoreURL("--push", p.url)
	if err != nil {
		return nil, err
	}
	if p.method != "put" && p.method != "post" {
		return nil, fmt.Errorf("--push-method must be put or post, not %q", p.method)
	}
	if p.timeout <= 0 || p.connectTimeout <= 0 {
		return nil, errors.New("--push-timeout and --push-connect-timeout must be positive")
	}
	user, password, err := p.credentials(u)
	if err != nil {
		return nil, err
	}
	st := &gsp.Store{Endpoint: p.url, Post: p.method == "post"}
	st.Client = &gsp.Client{Timeout: p.timeout, ConnectTimeout: p.connectTimeout}
	if u.User != nil {
		// The client reads a user and password in the URL itself; a user
		// without one gets the password given apart.
		if _, has := u.User.Password(); has {
			user = u.User.Username()
			password, _ = u.User.Password()
		} else {
			st.Endpoint = withoutUser(u)
			st.Client.User, st.Client.Password = user, password
		}
	} else {
		st.Client.User, st.Client.Password = user, password
	}
	ps := &Pusher{e: e, cmd: cmd, store: st}
	if !p.verify {
		return ps, nil
	}
	st.Query = p.query
	if st.Query == "" {
		st.Query, st.Guessed = gsp.QueryBeside(u), true
		if st.Query == "" {
			ps.note = fmt.Sprintf("note: the uploads are not verified: no SPARQL query endpoint is known for %s; give it with --push-query URL (or --verify=false)", gsp.Redact(p.url))
			return ps, nil
		}
	}
	q, err := parseStoreURL("--push-query", st.Query)
	if err != nil {
		return nil, err
	}
	// The query endpoint gets the store's credentials only on the store's
	// host; on another, those of its own URL or of ~/.netrc.
	st.Queries = &gsp.Client{Timeout: p.timeout, ConnectTimeout: p.connectTimeout}
	st.Queries.User, st.Queries.Password = gsp.QueryLogin(q, u, user, password)
	return ps, nil
}

// parseStoreURL reads the URL of flag, without ever quoting it whole (it
// may hold a password).
func parseStoreURL(flag, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%s %s: not an http or https URL", flag, gsp.Redact(raw))
	}
	return u, nil
}

// credentials returns the user and password to give the store at u
// besides those u holds: --push-user with its password, or the user of u
// with the password given apart, or the entry of ~/.netrc for u's host.
func (p *Flags) credentials(u *url.URL) (user, password string, err error) {
	urlUser, urlPassword := u.User != nil, false
	if urlUser {
		_, urlPassword = u.User.Password()
	}
	switch {
	case p.user != "" && urlUser:
		return "", "", errors.New("--push-user and a user in the --push URL: give one")
	case p.passwordFile != "" && p.user == "" && (!urlUser || urlPassword):
		return "", "", errors.New("--push-password-file goes with --push-user (or a user without a password in the --push URL)")
	case p.user != "":
		password, err = p.password()
		return p.user, password, err
	case urlUser && !urlPassword:
		password, err = p.password()
		return u.User.Username(), password, err
	case urlUser:
		return "", "", nil
	}
	if l, ok := gsp.NetrcLogin(u.Hostname()); ok {
		return l.User, l.Password, nil
	}
	return "", "", nil
}

// password reads the password from --push-password-file or the
// environment.
func (p *Flags) password() (string, error) {
	if p.passwordFile != "" {
		f, err := os.Open(p.passwordFile)
		if err != nil {
			return "", fmt.Errorf("--push-password-file: %w", err)
		}
		defer f.Close()
		line, err := bufio.NewReader(io.LimitReader(f, 64<<10)).ReadString('\n')
		if err != nil && err != io.EOF {
			return "", fmt.Errorf("--push-password-file: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return "", fmt.Errorf("--push-password-file %s: the first line is empty", p.passwordFile)
		}
		return line, nil
	}
	if pw, ok := os.LookupEnv(PasswordEnv); ok {
		return pw, nil
	}
	return "", fmt.Errorf("the user for --push needs a password: give --push-password-file FILE, or set %s", PasswordEnv)
}

// withoutUser returns u without its user information.
func withoutUser(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// put uploads one graph and checks it. what names the graph's source in
// messages. It returns the line to print, or an error saying the graph
// was not stored (or not wholly).
func (ps *Pusher) put(what, graph string, format rdf.Format, write func(io.Writer) error) (string, error) {
	if ps.note != "" {
		cli.Errorf(ps.e, ps.cmd, "%s", ps.note)
		ps.note = ""
	}
	st, err := ps.store.Upload(context.Background(), graph, format, write)
	var ns *gsp.NotStoredError
	var nv *gsp.NotVerifiedError
	switch {
	case errors.As(err, &ns):
		return "", fmt.Errorf("%s: graph <%s> not stored: %v", what, graph, explain(ns.Err))
	case errors.As(err, &nv):
		return "", fmt.Errorf("%s: graph <%s> not verified: %v", what, graph, explain(nv.Err))
	case err != nil:
		return "", fmt.Errorf("%s: %w", what, err)
	}
	line := fmt.Sprintf("%s: pushed as <%s> (graph replaced): %d statements", what, graph, st.Statements)
	if ps.store.Post {
		line = fmt.Sprintf("%s: pushed into <%s> (added to the graph): %d statements", what, graph, st.Statements)
	}
	switch {
	case st.Unverified != nil:
		cli.Errorf(ps.e, ps.cmd, "warning: %s: graph <%s> not verified: the SPARQL endpoint beside the store: %v; give it with --push-query URL (or --verify=false)", what, graph, explain(st.Unverified))
		return line + ", not verified", nil
	case !st.Verified:
		return line + ", not verified", nil
	case ps.store.Post:
		return line + fmt.Sprintf(", verified (the graph holds %d)", st.Held), nil
	}
	return line + ", verified", nil
}

// explain adds to an upload's error the flag that changes it.
func explain(err error) string {
	var te *gsp.TimeoutError
	var se *gsp.StatusError
	switch {
	case errors.As(err, &te) && te.Connect:
		return err.Error() + " (--push-connect-timeout)"
	case errors.As(err, &te):
		return err.Error() + " (--push-timeout)"
	case errors.As(err, &se) && se.StatusCode == 401:
		return err.Error() + " (credentials: --push-user with --push-password-file or " + PasswordEnv + ", user:password@ in the URL, or ~/.netrc)"
	case errors.As(err, &se) && se.StatusCode == 403:
		// Virtuoso's /sparql-graph-crud, whose anonymous user may not
		// update unless granted.
		return err.Error() + " (the store does not let this user change graphs: push as one who may, such as Virtuoso's /sparql-graph-crud-auth with --push-user)"
	}
	return err.Error()
}

// Logs converts each file and uploads its graph, as N-Triples, to the
// Graph Store endpoint as the named graph of the log's IRI. newConverter
// gives a converter that reports its problems.
func Logs(ps *Pusher, base string, files []string, opts rpclog.ReaderOptions, newConverter func(quiet bool) *convert.Converter) error {
	e := ps.e
	for _, name := range files {
		if name == "-" && base == "" {
			return cli.Failf("--push names each graph after its log, and standard input has no name: give the graph's IRI with --base")
		}
	}
	for _, name := range files {
		iri := rpclog.IRI(base, name, len(files))
		write := func(w io.Writer) error {
			in, display, _, err := cli.OpenInput(e, name)
			if err != nil {
				return err
			}
			if c, ok := in.(io.Closer); ok && name != "-" {
				defer c.Close()
			}
			br := bufio.NewReaderSize(in, 64<<10)
			head, _ := br.Peek(512)
			if err := cli.NotALog(name, display, head); err != nil {
				return err
			}
			r, err := rpclog.NewReader(br, display, opts)
			if err != nil {
				return err
			}
			return newConverter(false).Convert(w, rdf.NTriples, []convert.Log{{Reader: r, File: display, IRI: iri}})
		}
		line, err := ps.put(termsafe.Escape(name), iri, rdf.NTriples, write)
		if err != nil {
			return cli.Fail(err)
		}
		fmt.Fprintln(e.Stdout, line)
	}
	return nil
}

// OntologyGraph is the named graph the OGC tool chain uploads a block's
// ontology to.
func OntologyGraph(id string) string { return "urn:ogc:bblocks/" + id + "/ontology" }

// Ontologies uploads the ontology.ttl of each built block to the Graph
// Store endpoint, as the OGC tool chain does when bblocks-config.yaml sets
// sparql.push: one named graph per block, urn:ogc:bblocks/ID/ontology,
// replaced (or added to, with --push-method post). Each is sent as
// N-Triples, so that the statements sent can be counted. The tool chain
// first adds the entailments of SKOS profiles it fetches; jrpcld uploads
// the ontology as written, offline.
func Ontologies(ps *Pusher, out string, res *register.Result) error {
	e := ps.e
	cli.Errorf(e, "build", "warning: --push uploads the ontologies as written, without the entailments of the SKOS profiles the OGC tool chain fetches and adds first (docs/ogc.md)")
	pushed := 0
	for _, b := range res.Blocks {
		if b.Ontology == "" {
			continue
		}
		file := filepath.Join(out, filepath.FromSlash(b.Ontology))
		data, err := os.ReadFile(file)
		if err != nil {
			return cli.Failf("--push: %v", err)
		}
		triples, err := DistinctTriples(data)
		if err != nil {
			return cli.Failf("--push: %s: %v", file, err)
		}
		write := func(w io.Writer) error {
			nt := rdf.NewNTriplesWriter(w)
			if err := nt.WriteGroup(triples); err != nil {
				return err
			}
			return nt.Flush()
		}
		line, err := ps.put(termsafe.Escape(b.ID), OntologyGraph(b.ID), rdf.NTriples, write)
		if err != nil {
			return cli.Fail(err)
		}
		fmt.Fprintln(e.Stdout, line)
		pushed++
	}
	fmt.Fprintf(e.Stdout, "%d ontology graph%s pushed to %s\n", pushed, cli.Plural(pushed), gsp.Redact(ps.store.Endpoint))
	return nil
}

// DistinctTriples reads a Turtle ontology into its distinct triples, its
// blank nodes labelled b0, b1, ... (the parser's labels for [] and () are
// not labels N-Triples can write).
func DistinctTriples(data []byte) ([]rdf.Triple, error) {
	quads, _, err := rdf.Parse(data, rdf.Turtle, "")
	if err != nil {
		return nil, err
	}
	labels := map[string]string{}
	relabel := func(t rdf.Term) rdf.Term {
		if t.Kind != rdf.Blank {
			return t
		}
		l, ok := labels[t.Value]
		if !ok {
			l = fmt.Sprintf("b%d", len(labels))
			labels[t.Value] = l
		}
		return rdf.NewBlank(l)
	}
	seen := make(map[rdf.Triple]bool, len(quads))
	var triples []rdf.Triple
	for _, q := range quads {
		t := rdf.T(relabel(q.S), q.P, relabel(q.O))
		if !seen[t] {
			seen[t] = true
			triples = append(triples, t)
		}
	}
	return triples, nil
}
