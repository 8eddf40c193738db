package gsp

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// challenge is one authentication challenge of a WWW-Authenticate field
// (RFC 7235), as the package answers it: Basic (RFC 7617) or Digest (RFC
// 7616).
type challenge struct {
	scheme string            // "basic" or "digest", lower case
	params map[string]string // its parameters, names in lower case
	stale  bool              // Digest: the nonce expired, the credentials did not fail
	nc     uint32            // Digest: requests made with this nonce
}

// digestAlgorithms are the Digest algorithms the package answers, the
// strongest first.
var digestAlgorithms = []string{"SHA-256-sess", "SHA-256", "MD5-sess", "MD5"}

// pickChallenge returns the strongest challenge among the values of
// WWW-Authenticate fields that the package can answer (Digest with
// SHA-256, then with MD5, then Basic), or nil; and the challenges offered,
// for a message (scheme and realm, made safe to print).
func pickChallenge(values []string) (*challenge, string) {
	var all []*challenge
	for _, v := range values {
		all = append(all, parseChallenges(v)...)
	}
	var offered []string
	for _, ch := range all {
		s := ch.scheme
		if s == "digest" || s == "basic" {
			s = strings.ToUpper(s[:1]) + s[1:]
		}
		if realm, ok := ch.params["realm"]; ok {
			s += fmt.Sprintf(" realm=%q", realm)
		}
		offered = append(offered, termsafe.Escape(s))
	}
	rank := func(ch *challenge) int {
		switch ch.scheme {
		case "basic":
			return 1
		case "digest":
			if ch.params["nonce"] == "" || !qopAuth(ch.params["qop"]) {
				return 0
			}
			alg := ch.params["algorithm"]
			if alg == "" {
				alg = "MD5"
			}
			for i, a := range digestAlgorithms {
				if strings.EqualFold(alg, a) {
					return 2 + len(digestAlgorithms) - i
				}
			}
		}
		return 0
	}
	var best *challenge
	for _, ch := range all {
		if r := rank(ch); r > 0 && (best == nil || r > rank(best)) {
			best = ch
		}
	}
	if best != nil {
		best.stale = strings.EqualFold(best.params["stale"], "true")
	}
	return best, strings.Join(offered, ", ")
}

// qopAuth reports whether a Digest challenge's qop parameter allows qop
// "auth", or names none (RFC 2069's Digest).
func qopAuth(qop string) bool {
	if qop == "" {
		return true
	}
	for _, q := range strings.Split(qop, ",") {
		if strings.EqualFold(strings.TrimSpace(q), "auth") {
			return true
		}
	}
	return false
}

// parseChallenges reads the challenges of one WWW-Authenticate value:
// `scheme param=value, param="quoted", scheme2 ...`. A token68 (as in
// `Bearer abc==`) is skipped; so is what does not parse.
func parseChallenges(v string) []*challenge {
	var out []*challenge
	var cur *challenge
	s := v
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return out
		}
		tok := token(s)
		if tok == "" {
			return out // not a token: stop rather than guess
		}
		rest := strings.TrimLeft(s[len(tok):], " \t")
		if strings.HasPrefix(rest, "=") && cur != nil && !strings.HasPrefix(rest, "==") {
			// A parameter of the current challenge.
			rest = strings.TrimLeft(rest[1:], " \t")
			var val string
			if strings.HasPrefix(rest, `"`) {
				var ok bool
				val, rest, ok = quoted(rest)
				if !ok {
					return out
				}
			} else {
				val = token(rest)
				rest = rest[len(val):]
			}
			cur.params[strings.ToLower(tok)] = val
			s = rest
			continue
		}
		// A new challenge: its scheme, then maybe a token68 to skip.
		cur = &challenge{scheme: strings.ToLower(tok), params: map[string]string{}}
		out = append(out, cur)
		s = rest
		if t := token68(s); t != "" {
			after := strings.TrimLeft(s[len(t):], " \t")
			if after == "" || after[0] == ',' {
				s = after
			}
		}
	}
}

// token returns the RFC 7230 token at the start of s.
func token(s string) string {
	i := 0
	for i < len(s) && (s[i] > ' ' && s[i] < 0x7f && !strings.ContainsRune(`"(),/:;<=>?@[\]{}`, rune(s[i]))) {
		i++
	}
	return s[:i]
}

// token68 returns the token68 at the start of s, with its trailing '='.
func token68(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9' || strings.IndexByte("-._~+/", s[i]) >= 0) {
		i++
	}
	if i == 0 {
		return ""
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return s[:i]
}

// quoted reads the quoted string at the start of s (which starts with
// '"'): its value, unescaped, and what follows.
func quoted(s string) (string, string, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", false
}

// authorization returns the Authorization field that answers the
// challenge for a request with method to uri (its path and query). Each
// Digest answer counts one more use of the nonce. The caller holds the
// client's lock.
func (ch *challenge) authorization(method, uri, user, password string) string {
	if ch.scheme == "basic" {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	}
	ch.nc++
	var b [16]byte
	rand.Read(b[:])
	return ch.digest(method, uri, user, password, hex.EncodeToString(b[:]), ch.nc)
}

// digest computes a Digest Authorization field (RFC 7616, section 3.4)
// with client nonce cnonce and nonce count nc.
func (ch *challenge) digest(method, uri, user, password, cnonce string, nc uint32) string {
	p := ch.params
	alg := p["algorithm"]
	if alg == "" {
		alg = "MD5"
	}
	var h func() hash.Hash = md5.New
	if strings.HasPrefix(strings.ToUpper(alg), "SHA-256") {
		h = sha256.New
	}
	sum := func(parts ...string) string {
		x := h()
		x.Write([]byte(strings.Join(parts, ":")))
		return hex.EncodeToString(x.Sum(nil))
	}
	realm, nonce := p["realm"], p["nonce"]
	ha1 := sum(user, realm, password)
	if strings.HasSuffix(strings.ToLower(alg), "-sess") {
		ha1 = sum(ha1, nonce, cnonce)
	}
	ha2 := sum(method, uri)
	qop := ""
	if p["qop"] != "" {
		qop = "auth"
	}
	var response string
	ncs := fmt.Sprintf("%08x", nc)
	if qop == "" {
		response = sum(ha1, nonce, ha2)
	} else {
		response = sum(ha1, nonce, ncs, cnonce, qop, ha2)
	}
	var f []string
	switch {
	case strings.EqualFold(p["userhash"], "true"):
		f = append(f, "username="+quote(sum(user, realm)), "userhash=true")
	case isToken(user):
		f = append(f, "username="+quote(user))
	default:
		// RFC 7616 section 3.4.4: a name a quoted string cannot carry.
		f = append(f, "username*=UTF-8''"+strings.ReplaceAll(url.PathEscape(user), "'", "%27"))
	}
	f = append(f, "realm="+quote(realm), "uri="+quote(uri), "algorithm="+alg, "nonce="+quote(nonce))
	if qop != "" {
		f = append(f, "nc="+ncs, "cnonce="+quote(cnonce), "qop="+qop)
	}
	f = append(f, "response="+quote(response))
	if o, ok := p["opaque"]; ok {
		f = append(f, "opaque="+quote(o))
	}
	return "Digest " + strings.Join(f, ", ")
}

// isToken reports whether a user name can go in a quoted string as it is:
// printable ASCII.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return utf8.ValidString(s)
}

// quote writes s as a quoted string.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
