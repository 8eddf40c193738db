package jlog

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/rdf"
)

// dateTimeRE is the lexical form of xsd:dateTime, with the parts whose
// values validDateTime checks captured.
var dateTimeRE = regexp.MustCompile(`^-?([1-9][0-9]{4,}|[0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-]([0-9]{2}):([0-9]{2}))?$`)

// validDateTime is the independent reading IsDateTime is held to: the
// lexical form of dateTimeRE, then the values, the day checked against the
// calendar of package time (the Gregorian calendar repeats every 400
// years, so any year is brought into time's range first).
func validDateTime(s string) bool {
	m := dateTimeRE.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	year, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return false // years beyond int64 are not read as dates
	}
	if s[0] == '-' {
		year = -year
	}
	atoi := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	month, day, hour, minute, second := atoi(2), atoi(3), atoi(4), atoi(5), atoi(6)
	if month < 1 || month > 12 || day < 1 || minute > 59 || second > 59 {
		return false
	}
	t := time.Date(int(2000+(year%400+400)%400), time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day {
		return false
	}
	if hour > 24 || hour == 24 && (minute != 0 || second != 0 || strings.Trim(m[7], ".0") != "") {
		return false
	}
	if m[9] != "" {
		hh, mm := atoi(9), atoi(10)
		return mm <= 59 && (hh < 14 || hh == 14 && mm == 0)
	}
	return true
}

// TestIsDateTime checks IsDateTime on cases written by hand, and that
// validDateTime, the fuzz target's oracle, reads them the same way.
func TestIsDateTime(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"", false},
		{"2026-11-21T23:20:01.905Z", true},
		{"2026-11-21T23:20:01Z", true},
		{"2026-11-21T23:20:01", true},
		{"-12026-11-21T23:20:01+01:00", true},
		{"2026-11-21T23:20:01.Z", false},
		{"2026-11-21T23:20:01.905", true},
		{"2026-11-21 23:20:01Z", false},
		{"226-11-21T23:20:01Z", false},
		{"02026-11-21T23:20:01Z", false},
		{"2026-1-21T23:20:01Z", false},
		{"2026-11-21T23:20:01+0100", false},
		{"2026-11-21T23:20:01+01:00x", false},
		{"2026-11-21T23:20:01Zx", false},
		{"2026-11-21T23:2:01Z", false},
		{"x2026-11-21T23:20:01Z", false},
		{"2026-11-21T23:20:01-01:0", false},
		{"2026-11-21T23:20:01.123456789-12:59", true},
		{"20261-11-21T23:20:01Z", true},
		{"2026-11-21T", false},
		{"2026-11-21T23:20:0１Z", false},
		{"0000-00-00T00:00:00", false},
		{"0000-02-29T00:00:00", true},
		{"1900-02-29T00:00:00", false},
		{"2000-02-29T00:00:00", true},
		{"2026-04-31T00:00:00", false},
		{"2026-13-01T00:00:00", false},
		{"2026-11-21T24:00:00", true},
		{"2026-11-21T24:00:00.000", true},
		{"2026-11-21T24:00:01", false},
		{"2026-11-21T23:60:00", false},
		{"2026-11-21T23:59:60", false},
		{"2026-11-21T23:20:01+14:00", true},
		{"2026-11-21T23:20:01+14:01", false},
		{"2026-11-21T23:20:01-13:60", false},
		{"99999999999999999999-01-01T00:00:00", false},
	} {
		if got := IsDateTime(c.s); got != c.want {
			t.Errorf("IsDateTime(%q) = %v, want %v", c.s, got, c.want)
		}
		if got := validDateTime(c.s); got != c.want {
			t.Errorf("validDateTime(%q) = %v, want %v", c.s, got, c.want)
		}
		want := rdf.XSDString
		if c.want {
			want = rdf.XSDDateTime
		}
		if got := Timestamp(c.s); got != rdf.NewLiteral(c.s, want) {
			t.Errorf("Timestamp(%q) = %v", c.s, got)
		}
	}
}

// TestIDs: every kind of id comes back from its literal as it was, and
// numbers are typed by the regular expressions of their spelling.
func TestIDs(t *testing.T) {
	integer := regexp.MustCompile(`^-?[0-9]+$`)
	decimal := regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)
	for _, id := range []any{"", "a b", "1", nil, json.Number("0"), json.Number("-7"), json.Number("12345678901234567890123"),
		json.Number("1.5"), json.Number("-0.25"), json.Number("1e3"), json.Number("1.5E-7"), json.Number("-0")} {
		lit := IDLiteral(id)
		if n, ok := id.(json.Number); ok {
			want := rdf.XSDDouble
			switch {
			case integer.MatchString(string(n)):
				want = rdf.XSDInteger
			case decimal.MatchString(string(n)):
				want = rdf.XSDDecimal
			}
			if lit.Datatype != want || lit.Value != string(n) {
				t.Errorf("IDLiteral(%v) = %v, want datatype %s", id, lit, want)
			}
		}
		back, ok := ID(lit)
		if !ok || back != id {
			t.Errorf("ID(IDLiteral(%#v)) = %#v, %v", id, back, ok)
		}
	}
	for _, bad := range []rdf.Term{rdf.NewIRI("http://e/1"), rdf.NewLiteral("x", rdf.XSDInteger), rdf.NewLiteral("[]", rdf.RDFJSON), rdf.NewLiteral("1", rdf.XSDBoolean)} {
		if v, ok := ID(bad); ok {
			t.Errorf("ID(%v) = %#v, want no id", bad, v)
		}
	}
}

func TestMessageIRIs(t *testing.T) {
	const log = "http://example.com/logs/a"
	for _, dir := range []jsonrpc.Direction{jsonrpc.NoDirection, jsonrpc.ClientToServer, jsonrpc.ServerToClient} {
		for _, pos := range []int{1, 42, 1 << 40} {
			iri := MessageIRI(log, dir, pos)
			for _, x := range []string{iri, MemberIRI(iri, 0), MemberIRI(iri, 17)} {
				l, p, ok := ParseMessageIRI(x)
				if !ok || l != log || p != int64(pos) {
					t.Errorf("ParseMessageIRI(%q) = %q, %d, %v", x, l, p, ok)
				}
			}
		}
	}
	for _, x := range []string{log, log + "#x1", log + "#m", log + "#c2s-", log + "#m1.", log + "#m1.x", log + "#s2c-1a", "urn:x"} {
		if _, _, ok := ParseMessageIRI(x); ok {
			t.Errorf("ParseMessageIRI(%q) succeeded", x)
		}
	}
	if got := MessageIRI(log, jsonrpc.ClientToServer, 5); got != log+"#c2s-5" {
		t.Errorf("MessageIRI = %q", got)
	}
}

func TestBlankLabels(t *testing.T) {
	a, b := BlankPrefix("http://example.com/a"), BlankPrefix("http://example.com/b")
	if a == b || !strings.HasPrefix(a, "l") || !strings.HasSuffix(a, "m") {
		t.Fatalf("prefixes %q and %q", a, b)
	}
	known := func(p string) bool { return p == a }
	for _, c := range []struct {
		label string
		pos   int64
		ok    bool
	}{
		{MessageBlanks(a, 7) + "0", 7, true},
		{MemberBlanks(a, 12, 3) + "1", 12, true},
		{MessageBlanks(b, 7) + "0", 0, false},
		{a + "7", 0, false},
		{"x" + a[1:] + "7b0", 0, false},
	} {
		prefix, pos, ok := ParseBlankLabel(c.label, known)
		if ok != c.ok || ok && (prefix != a || pos != c.pos) {
			t.Errorf("ParseBlankLabel(%q) = %q, %d, %v", c.label, prefix, pos, ok)
		}
		if ok && !OwnsBlank(c.label, a, c.pos) || OwnsBlank(c.label, a, c.pos+1) {
			t.Errorf("OwnsBlank(%q)", c.label)
		}
	}
}

// FuzzIsDateTime checks IsDateTime against validDateTime on any text.
func FuzzIsDateTime(f *testing.F) {
	for _, s := range []string{"2026-11-21T23:20:01.905Z", "-12026-11-21T23:20:01+01:00", "2026-11-21T23:20:01-01:0", "0000-00-00T00:00:00", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if IsDateTime(s) != validDateTime(s) {
			t.Errorf("IsDateTime(%q) disagrees with validDateTime", s)
		}
	})
}

// TestNamesAllocateOnce checks that the names made for every message cost
// one allocation each, and that they are what concatenation gives.
func TestNamesAllocateOnce(t *testing.T) {
	log := "file:///var/log/session.jsonl"
	for _, c := range []struct {
		got  func() string
		want string
	}{
		{func() string { return MessageIRI(log, jsonrpc.NoDirection, 12345) }, log + "#m12345"},
		{func() string { return MessageIRI(log, jsonrpc.ClientToServer, 7) }, log + "#c2s-7"},
		{func() string { return MessageIRI(log, jsonrpc.ServerToClient, -3) }, log + "#s2c--3"},
		{func() string { return MessageBlanks("labcm", 987654321) }, "labcm987654321b"},
	} {
		if got := c.got(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
		if n := testing.AllocsPerRun(100, func() { _ = c.got() }); n != 1 {
			t.Errorf("%q: %v allocations, want 1", c.want, n)
		}
	}
}

// TestMessageNames checks that MessageNames gives what MessageIRI and
// MessageBlanks give, in one allocation.
func TestMessageNames(t *testing.T) {
	log, prefix := "file:///var/log/session.jsonl", BlankPrefix("file:///var/log/session.jsonl")
	dirs := []jsonrpc.Direction{jsonrpc.NoDirection, jsonrpc.ClientToServer, jsonrpc.ServerToClient, jsonrpc.Direction(9)}
	for _, dir := range dirs {
		for _, pos := range []int{0, 1, 9, 10, 99, 100, 12345, 1 << 40, -3} {
			iri, blanks := MessageNames(log, prefix, dir, pos)
			if want := MessageIRI(log, dir, pos); iri != want {
				t.Errorf("dir %v pos %d: IRI %q, want %q", dir, pos, iri, want)
			}
			if want := MessageBlanks(prefix, pos); blanks != want {
				t.Errorf("dir %v pos %d: blanks %q, want %q", dir, pos, blanks, want)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = MessageNames(log, prefix, jsonrpc.ClientToServer, 123456) }); n != 1 {
		t.Errorf("MessageNames: %v allocations, want 1", n)
	}
}

// TestNumericDatatype: the sixteen numeric datatypes of XSD 1.1 Part 2
// (the primitive decimal, float and double and the integers derived from
// decimal) and nothing else, not even a look-alike.
func TestNumericDatatype(t *testing.T) {
	const xsd = "http://www.w3.org/2001/XMLSchema#"
	for _, local := range []string{"decimal", "float", "double", "integer", "nonPositiveInteger",
		"negativeInteger", "long", "int", "short", "byte", "nonNegativeInteger", "unsignedLong",
		"unsignedInt", "unsignedShort", "unsignedByte", "positiveInteger"} {
		if !NumericDatatype(xsd + local) {
			t.Errorf("xsd:%s is not numeric", local)
		}
	}
	for _, dt := range []string{xsd + "string", xsd + "boolean", xsd + "dateTime", xsd + "Integer",
		xsd + "integer ", xsd, "integer", "http://example.org/integer",
		"http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON", ""} {
		if NumericDatatype(dt) {
			t.Errorf("%q is numeric", dt)
		}
	}
}
