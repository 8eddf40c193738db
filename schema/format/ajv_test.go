package format

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/jrpcld/jrpcld/internal/testkit/nodetest"
)

// ajvNode returns node and its environment with ajv and ajv-formats on
// NODE_PATH (as .ci/run installs them, in the user's cache folder); it
// skips t without them, or fails it when JRPCLD_SHARED is set (in CI).
func ajvNode(t *testing.T) (string, []string) {
	t.Helper()
	return nodetest.Need(t, ".ci/run installs them", "ajv", "ajv-formats")
}

// ajvVerdicts runs ajv with ajv-formats on each [format, value] (value as
// JSON text) and returns its verdicts: "true", "false", "invalid" or
// "throws" (see testdata/ajv-formats.js). With kind "pattern", a case is
// [pattern, string].
func ajvVerdicts(t *testing.T, kind string, cases [][2]string) []string {
	t.Helper()
	bin, env := ajvNode(t)
	var in bytes.Buffer
	for _, c := range cases {
		a, _ := json.Marshal(c[0])
		in.WriteString(`["` + kind + `",` + string(a) + "," + c[1] + "]\n")
	}
	cmd := exec.Command(bin, filepath.Join("testdata", "ajv-formats.js"))
	cmd.Env, cmd.Stdin = env, &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v: %s", err, stderr.String())
	}
	verdicts := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(verdicts) != len(cases) {
		t.Fatalf("%d verdicts for %d cases", len(verdicts), len(cases))
	}
	return verdicts
}

// seeds are values of each format, valid and not, to mutate; alphabets
// the characters mutations and random strings draw from.
var seeds = map[string][]string{
	"date": {"2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "2024-13-01", "2024-04-31", "2024-1-01", "0000-01-01"},
	"time": {"12:00:00Z", "12:00:00", "23:59:60Z", "23:59:60+00:00", "00:59:60+01:00", "22:59:60-01:00", "12:00:00.5+0130",
		"12:00:00+01", "24:00:00Z", "12:60:00Z", "12:00:60Z", "12:00:00+24:00", "12:00:00.Z", "12:00:00.123456789z",
		"12:00:59.99999999999999999Z", "23:59:60.5Z", "99:99:99Z"},
	"date-time": {"2024-01-01T12:00:00Z", "2024-01-01t12:00:00z", "2024-01-01 12:00:00Z", "2024-01-01\u00a012:00:00Z",
		"2024-01-01\u200012:00:00Z", "2024-01-01T12:00:00", "2024-01-01T12:00:00ZT", "2024-01-01TT12:00:00Z", "2024-02-30T00:00:00Z",
		"2016-12-31T23:59:60Z", "2016-12-31T23:59:60+01:00"},
	"iso-time":      {"12:00:00", "12:00:00Z", "12:00:00+0130", "12:00", "1:00:00"},
	"iso-date-time": {"2024-01-01T12:00:00", "2024-01-01 12:00:00+01:00", "2024-01-01"},
	"duration":      {"P1Y2M3DT4H5M6S", "PT1H", "P1W", "P1Y1W", "P", "PT", "P1DT", "PT1.5S", "P1M1Y", "PT1H1M1S", "P0D", "p1d", "P1D1D"},
	"uri": {"http://é.com", "http://example.com/a?b#c", "urn:isbn:0451450523", "mailto:a@b.c", "http:/a", "http:", "a:b",
		"http://[::1]:8080/", "http://[v1.x]/", "http://[1.2.3.4]/", "http://user:pw@host:99/p", "http://h/%7e", "http://h/%7", "foo://",
		"file:///a", "http://a b", "HTTP://A.B", "http://[::ffff:01.2.3.4]", "1http://x", "http://h?#", "x:/y?q=/?#f/?"},
	"uri-reference": {"", "#", "?q", "/a/b", "a/b", "//h", "http://é.com", "a:b", `http://h/"x"`, `"`, "#a#b", "%zz", "[::1]", "http://[::1]"},
	"uri-template":  {"12:00:00", "http://x/{a}", "{+path}/x", "{a,b:3,c*}", "{a:0}", "{a:10000}", "{}", "{a", "a}", "a b", "%2F", "%2", "é", "{%41}", "{a.b}"},
	"url": {"http://example.com", "https://foo.bar/baz?x#y", "ftp://x.yz:21/", "http://localhost", "http://10.1.2.3",
		"http://1.2.3.4", "http://172.16.0.1", "http://172.15.0.1", "http://192.168.1.1", "http://223.255.255.254", "http://224.0.0.1",
		"http://1.2.3.255", "http://a@b.com", "http://a:b@c.de/", "http://@b.com", "http://a b@c.de", "http://é.com", "http://ex-ample.com",
		"http://ex--ample.com", "http://-a.com", "http://a.c0m", "http://a.c", "http://a.com:1", "http://a.com:123456", "HTTPS://A.COM",
		"httpſ://a.com", "http://a.com/ x", "http://a@b@c.com", "http://a.com.", "http://01.2.3.4", "http://1.02.3.4", "http://1.2.3.04"},
	"email":    {"a@b.c", "a.b@c.d", "a..b@c.d", ".a@b.c", "a@b", "a@-b.c", "a@b-.c", "a@b--c.d", "a+b@c.d", "a@b.c.", "é@b.c", "a@b@c.d"},
	"hostname": {"a", "a.b", "a.b.", "-a", "a-", "a--b", "a..b", ".", "", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 126) + "a", strings.Repeat("a.", 127)},
	"ipv4":     {"1.2.3.4", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "0.0.0.0", "1.2.3.04"},
	"ipv6": {"::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "1::2:3:4:5:6:7", "1:2:3:4:5:6:1.2.3.4", "::1.2.3.4",
		"::ffff:1.2.3.4", "1:2:3:4:5::1.2.3.4", "1:2:3:4:5:6::1.2.3.4", "1::2::3", ":::", "1:2:3:4:5:6:7:8:9", "12345::", "::01.2.3.4", "fe80::1%eth0", "G::"},
	"regex":                     {"^(?!x)", `\Z`, `a\Z`, `\\Z`, "(", "[", "a{1,2}", "a{2,1}", `\p{L}`, `\u{10FFFF}`, "(?<n>a)\\k<n>", "(?<=a)b", `\1(a)`, "a**", `\-`, "{", "]", `\c`, `[\d-z]`},
	"uuid":                      {"123e4567-e89b-12d3-a456-426614174000", "URN:UUID:123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"},
	"json-pointer":              {"", "/", "/a~0b", "/a~2", "a", "/~", "//", "/é"},
	"json-pointer-uri-fragment": {"#", "#/a", "#/a%20b", "#/~0", "#/~2", "#a", "/a", "#/é", "#/a%2"},
	"relative-json-pointer":     {"0", "1/a", "0#", "01", "1#/", "#", "10/~1", "1a"},
	"byte":                      {"", "QQ==", "QUI=", "QUJD", "Q===", "QUJ", "QU JD", "-_==", "QUJDRA=="},
	"password":                  {"x"},
	"binary":                    {"x"},
}

var alphabets = map[string]string{
	"date": "0123456789-:TtZz+.x ", "time": "0123456789:Zz+-.x", "date-time": "0123456789-:TtZz+. \u00a0",
	"iso-time": "0123456789:Zz+-.", "iso-date-time": "0123456789-:TtZz+. ", "duration": "PYMWDTHS0123456789.",
	"uri": "abcvAZ09:/?#[]@!$&'()*+,;=-._~%{}<>\"\\^`| é", "uri-reference": "abcvAZ09:/?#[]@!$&'()*+,;=-._~%\" é",
	"uri-template": "abAZ09{}+#./;?&=,!@|:*%_\"'<> é\x7f", "url": "abcAZ09:/.@-_ é\u3000ſ?#%",
	"email": "abAZ09.-@_+!#é", "hostname": "abAZ09.-_", "ipv4": "0123456789.", "ipv6": "0123456789abcdefABCDEFg:.",
	"regex": "()[]{}?*+|\\^$.abZ-,:=!<>0123456789ukpdDsSwWbBc", "uuid": "0123456789abcdefABCDEF-urnid:",
	"json-pointer": "/~01a#%", "json-pointer-uri-fragment": "/~01a#%2F é", "relative-json-pointer": "0123/~#a",
	"byte": "ABCabc019+/=-_ ", "password": "ab", "binary": "ab",
}

// TestAgainstAjvFormats: on hand-written values of each format, thousands
// of their mutations and random strings, the formats say what ajv with
// ajv-formats says; where this package departs on purpose ("byte" across
// lines; numbers read exactly), ajv-formats is shown to say otherwise.
func TestAgainstAjvFormats(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	var cases [][2]string
	for _, name := range Names() {
		if name == "int32" || name == "int64" || name == "float" || name == "double" {
			continue
		}
		alpha := []rune(alphabets[name])
		seen := map[string]bool{}
		add := func(s string) {
			if name == "byte" && strings.ContainsAny(s, "\n\r\u2028\u2029") || seen[s] {
				return
			}
			seen[s] = true
			text, _ := json.Marshal(s)
			cases = append(cases, [2]string{name, string(text)})
		}
		for _, s := range seeds[name] {
			add(s)
			for i := 0; i < 100; i++ {
				add(mutate(rng, []rune(s), alpha))
			}
		}
		for i := 0; i < 1000; i++ {
			r := make([]rune, rng.Intn(16))
			for j := range r {
				r[j] = alpha[rng.Intn(len(alpha))]
			}
			add(string(r))
		}
	}
	numbers := []string{"0", "-0", "1", "1.0", "1.5", "1e2", "1E-2", "2147483647", "2147483648", "-2147483648", "-2147483649",
		"9007199254740993", "1e20", "-7.00", "0.1e1", `"5"`, "true", "null", "[1]"}
	for _, n := range numbers {
		for _, name := range []string{"int32", "int64", "float", "double"} {
			cases = append(cases, [2]string{name, n})
		}
	}
	verdicts := ajvVerdicts(t, "format", cases)
	mismatches := map[string]int{}
	for i, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c[1]), &v); err != nil {
			t.Fatal(err)
		}
		if _, isNum := v.(float64); isNum {
			v = json.Number(c[1])
		}
		check, _ := Lookup(c[0])
		got := check(v) == nil
		if want := verdicts[i] == "true"; got != want {
			if mismatches[c[0]]++; mismatches[c[0]] <= 10 {
				t.Errorf("%s %s: valid %v, ajv-formats %s", c[0], c[1], got, verdicts[i])
			}
		}
	}
	for name, n := range mismatches {
		t.Errorf("%s: %d mismatches", name, n)
	}
	t.Logf("%d values of %d formats", len(cases), len(Names()))

	// The departures.
	departures := []struct {
		format, value string
		ours          bool
	}{
		{"byte", `"!!!\nQUJD"`, false},
		{"byte", `"QUJD\n"`, false},
		{"int32", `2147483647.0000000001`, false},
		{"int64", `1E400`, true},
	}
	var dc [][2]string
	for _, d := range departures {
		dc = append(dc, [2]string{d.format, d.value})
	}
	for i, verdict := range ajvVerdicts(t, "format", dc) {
		d := departures[i]
		var v any
		json.Unmarshal([]byte(d.value), &v)
		if _, isNum := v.(float64); isNum || strings.Contains(d.value, "E400") {
			v = json.Number(d.value)
		}
		check, _ := Lookup(d.format)
		if got := check(v) == nil; got != d.ours || verdict == "true" == d.ours {
			t.Errorf("%s %s: valid %v (want %v), ajv-formats %s (want the other)", d.format, d.value, got, d.ours, verdict)
		}
	}
}

// mutate returns s with one to three random edits drawn from alpha.
func mutate(rng *rand.Rand, s, alpha []rune) string {
	for n := 1 + rng.Intn(3); n > 0; n-- {
		i := 0
		if len(s) > 0 {
			i = rng.Intn(len(s) + 1)
		}
		c := alpha[rng.Intn(len(alpha))]
		switch op := rng.Intn(4); {
		case op == 0 || len(s) == 0 || i == len(s):
			s = append(s[:i:i], append([]rune{c}, s[i:]...)...)
		case op == 1:
			s = append(s[:i:i], s[i+1:]...)
		case op == 2:
			s = append(append([]rune{}, s[:i]...), append([]rune{c}, s[i+1:]...)...)
		default:
			j := i + rng.Intn(len(s)-i)
			s = append(append([]rune{}, s[:j]...), append(append([]rune{}, s[i:j]...), s[j:]...)...)
		}
	}
	return string(s)
}

// TestPatternsAgainstAjv: patterns, the seeds of "regex" and thousands of
// their mutations: CompileRegexp (with the "u" flag) compiles every
// pattern ajv compiles, and it matches the same strings. It also compiles
// patterns ajv refuses with the "u" flag (identity escapes such as \# or
// \-, lone ] and braces, references to groups that are not there), as
// ECMA-262 reads them without it: schemas written for other engines
// (Python's re, in the OGC registers) hold such patterns.
func TestPatternsAgainstAjv(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	alpha := []rune(alphabets["regex"] + "sxé\u00a0")
	patterns := append([]string{`^\s$`, `^(?!x)`, `^\d+$`, `^\w+$`, `[^\s]+`, `^.$`, `^[\u{1F600}-\u{1F64F}]$`, `\bé`, `^\S$`, `(?i)a`, `[\w\-.]\#`},
		seeds["regex"]...)
	seen := map[string]bool{}
	var list []string
	for _, p := range patterns {
		for i := 0; i < 120; i++ {
			q := p
			if i > 0 {
				q = mutate(rng, []rune(p), alpha)
			}
			if !seen[q] {
				seen[q] = true
				list = append(list, q)
			}
		}
	}
	subjects := []string{"", "x", "y", "a", "aa", "é", "\u00a0", " ", "\n", "😀", "12", "٣", "ab", "ba", "Z", "abZ", "\\", "#", "-"}
	var cases [][2]string
	for _, p := range list {
		for _, s := range subjects {
			text, _ := json.Marshal(s)
			cases = append(cases, [2]string{p, string(text)})
		}
	}
	verdicts := ajvVerdicts(t, "pattern", cases)
	bad, lenient := 0, map[string]bool{}
	compiled := map[string]*regexp2.Regexp{}
	for i, c := range cases {
		var got string
		re, done := compiled[c[0]]
		if !done {
			re, _ = CompileRegexp(c[0], true, 1<<20)
			compiled[c[0]] = re
		}
		if re == nil {
			got = "invalid"
		} else {
			var s string
			json.Unmarshal([]byte(c[1]), &s)
			m, err := re.MatchString(s)
			if err != nil {
				t.Fatal(err)
			}
			got = strconv.FormatBool(m)
		}
		switch {
		case got == verdicts[i]:
		case verdicts[i] == "invalid":
			lenient[c[0]] = true
		default:
			if bad++; bad <= 20 {
				t.Errorf("pattern %q on %s: %s, ajv %s", c[0], c[1], got, verdicts[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(cases))
	}
	t.Logf("%d patterns (%d that ajv refuses), %d matches", len(list), len(lenient), len(cases))
}
