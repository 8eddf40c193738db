package format

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
)

// TestIssueCases (issue 23, item 15): the cases the issue names, and the
// differences from jsonschema's own formats that they stand for.
func TestIssueCases(t *testing.T) {
	tests := []struct {
		format, value string
		valid         bool
	}{
		{"uri", "http://é.com", false}, // ASCII only
		{"uri", "http://example.com/é", false},
		{"uri", "http://example.com/%C3%A9", true},
		{"uri-template", "12:00:00", true},
		{"uri-template", "http://x/{id}", true},
		{"date-time", "2024-01-01T12:00:00Z", true},
		{"date-time", "2024-01-01 12:00:00Z", true},    // any one white space character, or T, or t
		{"date-time", "2024-01-01T12:00:00", false},    // a time zone is required
		{"date-time", "2016-12-31T23:59:60Z", true},    // a leap second, at 23:59 UTC
		{"date-time", "2016-12-31T12:59:60Z", false},   // not at 23:59 UTC
		{"date-time", "2024-02-30T00:00:00Z", false},   // no such day
		{"iso-date-time", "2024-01-01T12:00:00", true}, // the time zone is optional
	}
	for _, tt := range tests {
		check, ok := Lookup(tt.format)
		if !ok {
			t.Fatalf("no format %s", tt.format)
		}
		if err := check(tt.value); (err == nil) != tt.valid {
			t.Errorf("%s %q: %v, want valid %v", tt.format, tt.value, err, tt.valid)
		}
	}
	for _, name := range []string{"iri", "period", "semver", "idn-email"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("%s: ajv-formats does not define it", name)
		}
	}
}

// TestBase64 holds "byte" to the expression ajv-formats 3.0.1 checks each
// line with, /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
// applied to the whole string; not a string is no concern of it.
func TestBase64(t *testing.T) {
	re := regexp.MustCompile(`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)
	check, _ := Lookup("byte")
	for _, s := range []string{"", "QQ==", "QUI=", "QUJD", "QUJDRA==", "Q===", "=", "====", "QQ=A", "Q", "QUJ", "QU JD",
		"QUJD\n", "!!!\nQUJD", "-_==", "QUJDé===", "QUJDRA=="[:7], "qujd"} {
		if got, want := check(s) == nil, re.MatchString(s); got != want {
			t.Errorf("%q: valid %v, want %v", s, got, want)
		}
	}
	if check(5) != nil {
		t.Error("a number is not a string: no verdict")
	}
}

// TestNumbers: int32 and int64 read numbers exactly, whatever their
// length; strings are no concern of theirs.
func TestNumbers(t *testing.T) {
	tests := []struct {
		value        string
		int32, int64 bool
	}{
		{"0", true, true}, {"-0", true, true}, {"1.0", true, true}, {"1.5", false, false}, {"1e2", true, true},
		{"1E-2", false, false}, {"2147483647", true, true}, {"2147483648", false, true}, {"-2147483648", true, true},
		{"-2147483649", false, true}, {"2147483647.0000000001", false, false}, {"1E400", false, true},
		{"1E-400", false, false}, {"123456789012345678901234567890", false, true}, {"0.000e99999999999", true, true},
		{"21474836.47e2", true, true}, {"214748364.8e1", false, true},
	}
	i32, _ := Lookup("int32")
	i64, _ := Lookup("int64")
	for _, tt := range tests {
		n := json.Number(tt.value)
		if got := i32(n) == nil; got != tt.int32 {
			t.Errorf("int32 %s: %v", tt.value, got)
		}
		if got := i64(n) == nil; got != tt.int64 {
			t.Errorf("int64 %s: %v", tt.value, got)
		}
	}
	if i32("x") != nil || i64(1.5) == nil || i32(7) != nil {
		t.Error("strings are not checked; other number types are")
	}
}

// TestCompileRegexp: .NET's groups, which regexp2 reads in its ECMAScript
// mode, are refused as ECMA-262 refuses them; ECMA-262's groups compile.
func TestCompileRegexp(t *testing.T) {
	for _, p := range []string{`(?>a)`, `(?i)a`, `(?i:a)`, `(?#c)`, `(?'n'a)`, `(?<a-b>x)`, `(?(a)b|c)`, `(?<1a>x)`, `(?`} {
		if _, err := CompileRegexp(p, true, 1000); err == nil {
			t.Errorf("%s compiles", p)
		}
	}
	for _, p := range []string{`(?:a)`, `(?=a)`, `(?!a)`, `(?<=a)`, `(?<!a)`, `(?<name>a)\k<name>`, `[(?>]`, `\(?>a\)`, `(?<$é_1>a)`} {
		if _, err := CompileRegexp(p, true, 1000); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func ExampleLookup() {
	check, _ := Lookup("uri")
	fmt.Println(check("http://example.com/a?b#c") == nil, check("http://é.com") == nil, check(42) == nil)
	// Output: true false true
}

// FuzzFormats: no value makes a check panic, and the formats keep
// ajv-formats' inclusions: a uri is a uri-reference, a date-time an
// iso-date-time, a time an iso-time, an IPv4 address a host name.
func FuzzFormats(f *testing.F) {
	for _, list := range seeds {
		for _, s := range list {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := map[string]bool{}
		for _, name := range Names() {
			check, _ := Lookup(name)
			valid[name] = check(s) == nil
			check(json.Number(s))
		}
		for _, in := range [][2]string{{"uri", "uri-reference"}, {"date-time", "iso-date-time"}, {"time", "iso-time"}, {"ipv4", "hostname"}} {
			if valid[in[0]] && !valid[in[1]] {
				t.Errorf("%q: a valid %s, not a valid %s", s, in[0], in[1])
			}
		}
	})
}
