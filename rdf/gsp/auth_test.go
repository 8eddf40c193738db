package gsp

import (
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
)

// TestDigestVectors: the Digest answers of the examples of RFC 7616
// (section 3.9.1, MD5 and SHA-256) and RFC 2617 (section 3.5), computed
// with the examples' client nonce and nonce count.
func TestDigestVectors(t *testing.T) {
	rfc7616 := `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=%s, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`
	cases := []struct {
		name, header, user, password, uri, cnonce, response string
	}{
		{"RFC 7616 MD5", fmt.Sprintf(rfc7616, "MD5"), "Mufasa", "Circle of Life", "/dir/index.html",
			"f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", "8ca523f5e9506fed4657c9700eebdbec"},
		{"RFC 7616 SHA-256", fmt.Sprintf(rfc7616, "SHA-256"), "Mufasa", "Circle of Life", "/dir/index.html",
			"f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"},
		{"RFC 2617", `Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"`,
			"Mufasa", "Circle Of Life", "/dir/index.html", "0a4f113b", "6629fae49393a05397450978507c4ef1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch, _ := pickChallenge([]string{c.header})
			if ch == nil {
				t.Fatalf("no challenge read from %s", c.header)
			}
			got := digestFields(t, ch.digest(http.MethodGet, c.uri, c.user, c.password, c.cnonce, 1))
			want := map[string]string{"username": c.user, "realm": ch.params["realm"], "uri": c.uri, "nonce": ch.params["nonce"],
				"nc": "00000001", "cnonce": c.cnonce, "qop": "auth", "response": c.response, "opaque": ch.params["opaque"], "algorithm": got["algorithm"]}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
		})
	}
}

// digestFields reads the parameters of a Digest Authorization field.
func digestFields(t *testing.T, authz string) map[string]string {
	t.Helper()
	chs := parseChallenges(authz)
	if len(chs) != 1 || chs[0].scheme != "digest" {
		t.Fatalf("not one Digest field: %s", authz)
	}
	return chs[0].params
}

// TestParseChallenges: WWW-Authenticate values with several challenges,
// quoted strings with escapes and commas, and token68 credentials.
func TestParseChallenges(t *testing.T) {
	cases := []struct {
		value string
		want  []string // scheme and sorted parameters of each challenge
	}{
		{`Basic realm="a, b"`, []string{`basic realm=a, b`}},
		{`Digest realm="SPARQL", domain="/sparql-graph-crud-auth", nonce="fe33", opaque="5ebe", stale="false", qop="auth", algorithm="MD5"`,
			[]string{`digest algorithm=MD5 domain=/sparql-graph-crud-auth nonce=fe33 opaque=5ebe qop=auth realm=SPARQL stale=false`}},
		{`Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple"`,
			[]string{`newauth realm=apps title=Login to "apps" type=1`, `basic realm=simple`}},
		{`Bearer abc==, Basic realm="x"`, []string{`bearer`, `basic realm=x`}},
		{`Negotiate`, []string{`negotiate`}},
		{`Basic realm="unterminated`, []string{`basic`}},
	}
	for _, c := range cases {
		var got []string
		for _, ch := range parseChallenges(c.value) {
			s := ch.scheme
			keys := make([]string, 0, len(ch.params))
			for k := range ch.params {
				keys = append(keys, k)
			}
			sortStrings(keys)
			for _, k := range keys {
				s += " " + k + "=" + ch.params[k]
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.value, got, c.want)
		}
	}
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// TestPickChallenge: Digest with SHA-256 beats Digest with MD5, which
// beats Basic; what cannot be answered (auth-int only, an unknown
// algorithm, Bearer) is not picked.
func TestPickChallenge(t *testing.T) {
	cases := []struct {
		values []string
		want   string // scheme and algorithm, "" for none
	}{
		{[]string{`Basic realm="r"`, `Digest realm="r", nonce="n", qop="auth"`}, "digest MD5"},
		{[]string{`Digest realm="r", nonce="n", algorithm=MD5, Digest realm="r", nonce="n", algorithm=SHA-256`}, "digest SHA-256"},
		{[]string{`Digest realm="r", nonce="n", qop="auth-int", Basic realm="r"`}, "basic "},
		{[]string{`Digest realm="r", nonce="n", algorithm=SHA-512-256`}, ""},
		{[]string{`Bearer realm="r"`}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		ch, _ := pickChallenge(c.values)
		got := ""
		if ch != nil {
			got = ch.scheme + " " + ch.params["algorithm"]
			if ch.scheme == "digest" && ch.params["algorithm"] == "" {
				got += "MD5"
			}
		}
		if got != c.want {
			t.Errorf("%q: picked %q, want %q", c.values, got, c.want)
		}
	}
}

// digestServer is a stand-in store that asks for Digest (MD5, qop auth)
// and checks the answers with its own computation of RFC 7616's formula;
// after staleAfter good answers with one nonce it asks again with
// stale=true.
type digestServer struct {
	user, password string
	staleAfter     int

	mu        sync.Mutex
	nonce     int
	used      int
	requests  []string // "401", "stale", "ok", "bad"
	lastNC    string
	lastAuthz string
}

func (d *digestServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	nonce := fmt.Sprintf("nonce-%d", d.nonce)
	challenge := func(stale bool) {
		d.nonce++
		d.used = 0
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="test", nonce="nonce-%d", opaque="op", qop="auth", algorithm="MD5", stale="%v"`, d.nonce, stale))
		w.WriteHeader(http.StatusUnauthorized)
	}
	authz := r.Header.Get("Authorization")
	d.lastAuthz = authz
	if authz == "" {
		d.requests = append(d.requests, "401")
		challenge(false)
		return
	}
	chs := parseChallenges(authz)
	if len(chs) != 1 || chs[0].scheme != "digest" {
		d.requests = append(d.requests, "bad")
		challenge(false)
		return
	}
	p := chs[0].params
	h := func(s string) string { x := md5.Sum([]byte(s)); return hex.EncodeToString(x[:]) }
	want := h(h(d.user+":test:"+d.password) + ":" + p["nonce"] + ":" + p["nc"] + ":" + p["cnonce"] + ":auth:" + h(r.Method+":"+r.URL.RequestURI()))
	switch {
	case p["response"] != want || p["username"] != d.user || p["uri"] != r.URL.RequestURI() || p["opaque"] != "op":
		d.requests = append(d.requests, "bad")
		challenge(false)
	case p["nonce"] != nonce || d.staleAfter > 0 && d.used >= d.staleAfter:
		d.requests = append(d.requests, "stale")
		challenge(true)
	default:
		d.used++
		d.lastNC = p["nc"]
		d.requests = append(d.requests, "ok")
		w.WriteHeader(http.StatusCreated)
	}
}

func (d *digestServer) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.requests...)
}

// TestDigest: the client answers a Digest challenge, then sends its
// answers without being asked (the nonce count going up), answers a stale
// nonce again, and reports wrong credentials as the 401 with what the
// server asks for, without the password.
func TestDigest(t *testing.T) {
	d := &digestServer{user: "dba", password: "pa\"ss", staleAfter: 2}
	srv := httptest.NewServer(d)
	defer srv.Close()
	cl := fast()
	cl.User, cl.Password = "dba", "pa\"ss"
	for i := 0; i < 3; i++ {
		if _, err := cl.Put(context.Background(), srv.URL+"/store", "http://example.com/g", rdf.NTriples, writeText(triples, nil)); err != nil {
			t.Fatalf("upload %d: %v", i+1, err)
		}
	}
	if n, err := cl.Count(context.Background(), srv.URL+"/sparql", "http://example.com/g"); err == nil || n != 0 {
		// The stand-in answers 201 to a good query: not SPARQL results.
		t.Errorf("Count: %d, %v", n, err)
	}
	want := []string{"401", "ok", "ok", "stale", "ok", "ok"}
	if got := d.seen(); !reflect.DeepEqual(got, want) {
		t.Errorf("the server saw %v, want %v (the last one the count)", got, want)
	}

	// Credentials in the URL.
	d2 := &digestServer{user: "u", password: "p"}
	srv2 := httptest.NewServer(d2)
	defer srv2.Close()
	if _, err := fast().Put(context.Background(), strings.Replace(srv2.URL, "http://", "http://u:p@", 1), "", rdf.NTriples, writeText(triples, nil)); err != nil {
		t.Fatal(err)
	}

	// Wrong password: one answer to the challenge, then the 401.
	d3 := &digestServer{user: "dba", password: "right"}
	srv3 := httptest.NewServer(d3)
	defer srv3.Close()
	bad := fast()
	bad.User, bad.Password = "dba", "wrong-pw"
	_, err := bad.Put(context.Background(), srv3.URL, "", rdf.NTriples, writeText(triples, nil))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 401 || se.Challenge != `Digest realm="test"` || strings.Contains(err.Error(), "wrong-pw") {
		t.Errorf("error %v, want the 401 naming the challenge", err)
	}
	if got := d3.seen(); !reflect.DeepEqual(got, []string{"401", "bad"}) {
		t.Errorf("the server saw %v", got)
	}

	// No credentials: the 401 says what is asked.
	_, err = fast().Put(context.Background(), srv3.URL, "", rdf.NTriples, writeText(triples, nil))
	if !errors.As(err, &se) || se.StatusCode != 401 || !strings.Contains(err.Error(), `the server asks for Digest realm="test"`) {
		t.Errorf("error %v, want the 401 naming the challenge", err)
	}
}

// TestBasic: a Basic challenge is answered with the user and password,
// and later requests to the origin carry them unasked; nothing is sent
// before the server asks.
func TestBasic(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		a := r.Header.Get("Authorization")
		auths = append(auths, a)
		if a != "Basic "+base64.StdEncoding.EncodeToString([]byte("alice:open sesame")) {
			w.Header().Set("WWW-Authenticate", `Basic realm="store"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	cl := fast()
	cl.User, cl.Password = "alice", "open sesame"
	for i := 0; i < 2; i++ {
		if _, err := cl.Put(context.Background(), srv.URL, "", rdf.NTriples, writeText(triples, nil)); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auths) != 3 || auths[0] != "" || auths[1] == "" || auths[2] != auths[1] {
		t.Errorf("Authorization fields sent: %q; want none, then the answer twice", auths)
	}
}

// TestCredentialsConflict: a user in the URL and in the client is an
// error that names neither password.
func TestCredentialsConflict(t *testing.T) {
	cl := &Client{User: "a", Password: "pw-one"}
	_, err := cl.Put(context.Background(), "http://b:pw-two@127.0.0.1:1/store", "", rdf.NTriples, writeText(triples, nil))
	if err == nil || !strings.Contains(err.Error(), "give one") || strings.Contains(err.Error(), "pw-") {
		t.Errorf("error %v", err)
	}
}
