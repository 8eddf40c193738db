// Package xsd is what SHACL needs of XML Schema's datatypes: whether a
// literal's lexical form is in its datatype's lexical space (sh:datatype's
// ill-formed literals), the order SPARQL's operators give literals (the
// value range and property pair components) and XPath's regular
// expressions (sh:pattern), translated to Go's.
package xsd

import (
	"encoding/base64"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

const xsdNS = rdf.XSDNS

// intRanges are the bounds of the XML Schema types derived from
// xsd:integer; an empty bound is none.
var intRanges = map[string][2]string{
	xsdNS + "integer":            {"", ""},
	xsdNS + "long":               {"-9223372036854775808", "9223372036854775807"},
	xsdNS + "int":                {"-2147483648", "2147483647"},
	xsdNS + "short":              {"-32768", "32767"},
	xsdNS + "byte":               {"-128", "127"},
	xsdNS + "nonNegativeInteger": {"0", ""},
	xsdNS + "positiveInteger":    {"1", ""},
	xsdNS + "nonPositiveInteger": {"", "0"},
	xsdNS + "negativeInteger":    {"", "-1"},
	xsdNS + "unsignedLong":       {"0", "18446744073709551615"},
	xsdNS + "unsignedInt":        {"0", "4294967295"},
	xsdNS + "unsignedShort":      {"0", "65535"},
	xsdNS + "unsignedByte":       {"0", "255"},
}

// WellFormed reports whether the literal l is in the lexical space of its
// datatype. Datatypes the package does not know (those outside XML Schema
// and rdf:langString) take any lexical form.
func WellFormed(l rdf.Term) bool {
	dt := l.Datatype
	if dt == rdf.RDFLangString {
		return l.Lang != ""
	}
	if !strings.HasPrefix(dt, xsdNS) {
		return true
	}
	s := l.Value
	if r, ok := intRanges[dt]; ok {
		if _, ok, small := smallInteger(s, dt); small {
			return ok
		}
		n, ok := parseInteger(s)
		if !ok {
			return false
		}
		if r[0] != "" {
			lo, _ := new(big.Int).SetString(r[0], 10)
			if n.Cmp(lo) < 0 {
				return false
			}
		}
		if r[1] != "" {
			hi, _ := new(big.Int).SetString(r[1], 10)
			if n.Cmp(hi) > 0 {
				return false
			}
		}
		return true
	}
	switch strings.TrimPrefix(dt, xsdNS) {
	case "string":
		return true
	case "boolean":
		return s == "true" || s == "false" || s == "1" || s == "0"
	case "decimal":
		_, ok := parseDecimal(s)
		return ok
	case "double", "float":
		_, ok := parseFloat(s)
		return ok
	case "dateTime":
		_, ok := parseDateTime(s, true, true)
		return ok
	case "dateTimeStamp":
		t, ok := parseDateTime(s, true, true)
		return ok && t.tz
	case "date":
		_, ok := parseDateTime(s, true, false)
		return ok
	case "time":
		_, ok := parseDateTime(s, false, true)
		return ok
	case "gYear":
		return gregorian(s, "Y")
	case "gYearMonth":
		return gregorian(s, "YM")
	case "gMonth":
		return gregorian(s, "M")
	case "gMonthDay":
		return gregorian(s, "MD")
	case "gDay":
		return gregorian(s, "D")
	case "duration":
		return duration(s, true, true)
	case "yearMonthDuration":
		return duration(s, true, false)
	case "dayTimeDuration":
		return duration(s, false, true)
	case "hexBinary":
		if len(s)%2 != 0 {
			return false
		}
		for i := 0; i < len(s); i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		return true
	case "base64Binary":
		t := strings.Map(func(r rune) rune {
			if r == ' ' {
				return -1
			}
			return r
		}, s)
		_, err := base64.StdEncoding.Strict().DecodeString(t)
		return err == nil
	case "normalizedString":
		return !strings.ContainsAny(s, "\r\n\t")
	case "token":
		return isToken(s)
	case "language":
		return isToken(s) && isLangTag(s)
	case "NMTOKEN":
		return s != "" && strings.IndexFunc(s, func(r rune) bool { return !isNameChar(r) }) < 0
	case "Name":
		return isName(s, true)
	case "NCName", "ID", "IDREF", "ENTITY":
		return isName(s, false)
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isToken(s string) bool {
	return !strings.ContainsAny(s, "\r\n\t") && !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ") && !strings.Contains(s, "  ")
}

func isLangTag(s string) bool {
	for i, part := range strings.Split(s, "-") {
		if len(part) < 1 || len(part) > 8 {
			return false
		}
		for j := 0; j < len(part); j++ {
			c := part[j]
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

func isNameStart(r rune) bool {
	return r == ':' || r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' ||
		r >= 0xC0 && r <= 0xD6 || r >= 0xD8 && r <= 0xF6 || r >= 0xF8 && r <= 0x2FF ||
		r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF ||
		r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isNameChar(r rune) bool {
	return isNameStart(r) || r == '-' || r == '.' || r >= '0' && r <= '9' || r == 0xB7 ||
		r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

func isName(s string, colon bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == ':' && !colon || !(i == 0 && isNameStart(r) || i > 0 && isNameChar(r)) {
			return false
		}
	}
	return true
}

// intBounds are intRanges' bounds as int64s, for smallInteger; a bound
// beyond int64 (xsd:unsignedLong's) is none for the numbers it reads.
var intBounds = func() map[string][2]int64 {
	m := make(map[string][2]int64, len(intRanges))
	for dt, r := range intRanges {
		b := [2]int64{math.MinInt64, math.MaxInt64}
		for i, s := range r {
			if n, err := strconv.ParseInt(s, 10, 64); s != "" && err == nil {
				b[i] = n
			}
		}
		m[dt] = b
	}
	return m
}()

// smallInteger reads s, the lexical form of a literal of dt (xsd:integer
// or a type derived from it), without big numbers when it has at most 18
// characters (small false otherwise): its value, and whether it is well
// formed and in dt's range.
func smallInteger(s, dt string) (n int64, ok, small bool) {
	if len(s) > 18 {
		return 0, false, false
	}
	n, err := strconv.ParseInt(s, 10, 64) // the same syntax: [+-]?[0-9]+
	if err != nil {
		return 0, false, true
	}
	b := intBounds[dt]
	return n, n >= b[0] && n <= b[1], true
}

// Integer returns the value of a literal of xsd:integer or of a type
// derived from it (xsd:int, xsd:nonNegativeInteger...), and whether it is
// one, well formed.
func Integer(t rdf.Term) (*big.Int, bool) {
	if _, ok := intRanges[t.Datatype]; !ok || t.Kind != rdf.Literal || !WellFormed(t) {
		return nil, false
	}
	return parseInteger(t.Value)
}

// parseInteger reads an xsd:integer lexical form.
func parseInteger(s string) (*big.Int, bool) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	if len(t) < len(s)-1 || !isDigits(t) {
		return nil, false
	}
	return new(big.Int).SetString(s, 10)
}

// decimalLexical splits an xsd:decimal (or xsd:integer) lexical form
// into its integer and fraction digits, and reports whether it is one.
func decimalLexical(s string) (ip, fp string, ok bool) {
	t := s
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	ip, fp, dot := strings.Cut(t, ".")
	if ip == "" && fp == "" || ip != "" && !isDigits(ip) || fp != "" && !isDigits(fp) || !dot && fp != "" {
		return "", "", false
	}
	return ip, fp, true
}

// parseDecimal reads an xsd:decimal (or xsd:integer) lexical form.
func parseDecimal(s string) (*big.Rat, bool) {
	ip, fp, ok := decimalLexical(s)
	if !ok {
		return nil, false
	}
	if ip == "" {
		ip = "0"
	}
	r, ok := new(big.Rat).SetString(ip + "." + fp + "0")
	if !ok {
		return nil, false
	}
	if s[0] == '-' {
		r.Neg(r)
	}
	return r, true
}

// parseFloat reads an xsd:double or xsd:float lexical form.
func parseFloat(s string) (float64, bool) {
	switch s {
	case "INF", "+INF":
		return math.Inf(1), true
	case "-INF":
		return math.Inf(-1), true
	case "NaN":
		return math.NaN(), true
	}
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
		e := strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "-")
		if len(e) < len(exp)-1 || !isDigits(e) {
			return 0, false
		}
	}
	if _, _, ok := decimalLexical(mant); !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// moment is a point in time read from xsd:dateTime, xsd:date or xsd:time:
// seconds from 0001-01-01T00:00:00 in UTC (or in local time without a
// time zone), and the fraction of a second as its digits.
type moment struct {
	sec  int64
	frac string
	tz   bool
}

// DaysIn returns the number of days of month (1 to 12) in year, in the
// proleptic Gregorian calendar with year 0 a leap year, as XSD 1.1 counts.
func DaysIn(year int64, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFrom returns the days from 0001-01-01 to year-month-day
// (proleptic Gregorian calendar).
func daysFrom(year int64, month, day int) int64 {
	y := year - 1
	days := y*365 + floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400)
	for m := 1; m < month; m++ {
		days += int64(DaysIn(year, m))
	}
	return days + int64(day-1)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// parseYear reads the year of a date: at least four digits, no leading
// zero beyond four, an optional minus.
func parseYear(s string) (int64, string, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < 4 || i > 4 && s[0] == '0' || i > 15 {
		return 0, "", false
	}
	y, _ := strconv.ParseInt(s[:i], 10, 64)
	if neg {
		y = -y
	}
	return y, s[i:], true
}

func twoDigits(s string) (int, string, bool) {
	if len(s) < 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, "", false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), s[2:], true
}

// parseTZ reads an optional time zone, Z or ±hh:mm, which must end s; it
// returns the offset in minutes.
func parseTZ(s string) (int, bool, bool) {
	switch {
	case s == "":
		return 0, false, true
	case s == "Z":
		return 0, true, true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':':
		h, _, ok1 := twoDigits(s[1:3])
		m, _, ok2 := twoDigits(s[4:6])
		if !ok1 || !ok2 || m > 59 || h > 14 || h == 14 && m != 0 {
			return 0, false, false
		}
		off := h*60 + m
		if s[0] == '-' {
			off = -off
		}
		return off, true, true
	}
	return 0, false, false
}

// parseDateTime reads xsd:dateTime (date and clock), xsd:date (date only)
// or xsd:time (clock only).
func parseDateTime(s string, date, clock bool) (moment, bool) {
	var m moment
	var year int64 = 1
	month, day := 1, 1
	rest := s
	ok := true
	if date {
		year, rest, ok = parseYear(rest)
		if !ok || len(rest) < 6 || rest[0] != '-' || rest[3] != '-' {
			return m, false
		}
		month, _, ok = twoDigits(rest[1:3])
		if !ok || month < 1 || month > 12 {
			return m, false
		}
		day, rest, ok = twoDigits(rest[4:])
		if !ok || day < 1 || day > DaysIn(year, month) {
			return m, false
		}
		if clock {
			if rest == "" || rest[0] != 'T' {
				return m, false
			}
			rest = rest[1:]
		}
	}
	var h, mi, sec int
	if clock {
		if len(rest) < 8 || rest[2] != ':' || rest[5] != ':' {
			return m, false
		}
		var ok1, ok2, ok3 bool
		h, _, ok1 = twoDigits(rest[0:2])
		mi, _, ok2 = twoDigits(rest[3:5])
		sec, rest, ok3 = twoDigits(rest[6:])
		if !ok1 || !ok2 || !ok3 || mi > 59 || sec > 59 || h > 24 {
			return m, false
		}
		if strings.HasPrefix(rest, ".") {
			i := 1
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i == 1 {
				return m, false
			}
			m.frac = strings.TrimRight(rest[1:i], "0")
			rest = rest[i:]
		}
		if h == 24 && (mi != 0 || sec != 0 || m.frac != "") {
			return m, false
		}
	}
	off, tz, ok := parseTZ(rest)
	if !ok {
		return m, false
	}
	m.tz = tz
	m.sec = daysFrom(year, month, day)*86400 + int64(h*3600+mi*60+sec) - int64(off*60)
	return m, true
}

// gregorian checks the lexical forms of xsd:gYear ("Y"), gYearMonth
// ("YM"), gMonth ("M"), gMonthDay ("MD") and gDay ("D").
func gregorian(s, parts string) bool {
	rest := s
	var ok bool
	year := int64(2000) // a leap year, for --02-29
	if parts[0] == 'Y' {
		if year, rest, ok = parseYear(rest); !ok {
			return false
		}
		parts = parts[1:]
	} else {
		if !strings.HasPrefix(rest, "--") {
			return false
		}
		rest = rest[1:]
		if parts == "D" {
			if !strings.HasPrefix(rest, "--") {
				return false
			}
			rest = rest[1:]
		}
	}
	month := 1
	for _, p := range parts {
		if rest == "" || rest[0] != '-' {
			return false
		}
		var n int
		if n, rest, ok = twoDigits(rest[1:]); !ok {
			return false
		}
		if p == 'M' {
			if n < 1 || n > 12 {
				return false
			}
			month = n
		} else if n < 1 || n > DaysIn(year, month) {
			return false
		}
	}
	_, _, ok = parseTZ(rest)
	return ok
}

// duration checks an xsd:duration lexical form, with or without its year
// and month parts and its day and time parts.
func duration(s string, ym, dt bool) bool {
	s = strings.TrimPrefix(s, "-")
	if !strings.HasPrefix(s, "P") {
		return false
	}
	s = s[1:]
	date, clock, hasT := strings.Cut(s, "T")
	if date == "" && !hasT || hasT && clock == "" {
		return false
	}
	any := false
	take := func(s *string, units string, allowed string) bool {
		for *s != "" {
			i := 0
			for i < len(*s) && ((*s)[i] >= '0' && (*s)[i] <= '9' || (*s)[i] == '.') {
				i++
			}
			if i == len(*s) {
				return false
			}
			num, unit := (*s)[:i], (*s)[i]
			k := strings.IndexByte(units, unit)
			if k < 0 || !strings.ContainsRune(allowed, rune(unit)) {
				return false
			}
			if unit == 'S' && strings.Contains(num, ".") {
				if _, ok := parseDecimal(num); !ok || strings.HasPrefix(num, ".") || strings.HasSuffix(num, ".") {
					return false
				}
			} else if !isDigits(num) {
				return false
			}
			units = units[k+1:]
			*s = (*s)[i+1:]
			any = true
		}
		return true
	}
	dateUnits, clockUnits := "", ""
	if ym {
		dateUnits += "YM"
	}
	if dt {
		dateUnits += "D"
		clockUnits = "HMS"
	}
	if !take(&date, "YMD", dateUnits) {
		return false
	}
	if hasT && (clockUnits == "" || !take(&clock, "HMS", clockUnits)) {
		return false
	}
	return any
}

// A value class groups the literals SPARQL's operators compare.
type valueClass uint8

const (
	classNone valueClass = iota
	classNumber
	classString
	classBoolean
	classDateTime
	classDate
	classTime
)

// Value is a literal's value, as SPARQL's operators compare it.
type Value struct {
	class valueClass
	float bool // a double or float: f holds it
	f     float64
	r     *big.Rat
	s     string
	b     bool
	m     moment
}

// ValueOf returns the value of t; no operator orders it when t is an IRI,
// a blank node, an ill-formed literal or a literal of a datatype other
// than the numeric ones, xsd:string, xsd:boolean, xsd:dateTime, xsd:date
// and xsd:time.
func ValueOf(t rdf.Term) Value {
	if t.Kind != rdf.Literal {
		return Value{}
	}
	dt := t.Datatype
	if _, ok := intRanges[dt]; ok {
		if n, ok, small := smallInteger(t.Value, dt); small {
			if !ok {
				return Value{}
			}
			return Value{class: classNumber, r: new(big.Rat).SetInt64(n)}
		}
	}
	if _, ok := intRanges[dt]; ok || dt == xsdNS+"decimal" {
		if dt != xsdNS+"decimal" && !WellFormed(t) {
			return Value{}
		}
		r, ok := parseDecimal(t.Value)
		if !ok {
			return Value{}
		}
		return Value{class: classNumber, r: r}
	}
	switch dt {
	case xsdNS + "double", xsdNS + "float":
		f, ok := parseFloat(t.Value)
		if !ok {
			return Value{}
		}
		return Value{class: classNumber, float: true, f: f}
	case rdf.XSDString:
		return Value{class: classString, s: t.Value}
	case rdf.XSDBoolean:
		if !WellFormed(t) {
			return Value{}
		}
		return Value{class: classBoolean, b: t.Value == "true" || t.Value == "1"}
	case xsdNS + "dateTime", xsdNS + "dateTimeStamp":
		if m, ok := parseDateTime(t.Value, true, true); ok && WellFormed(t) {
			return Value{class: classDateTime, m: m}
		}
	case xsdNS + "date":
		if m, ok := parseDateTime(t.Value, true, false); ok {
			return Value{class: classDate, m: m}
		}
	case xsdNS + "time":
		if m, ok := parseDateTime(t.Value, false, true); ok {
			return Value{class: classTime, m: m}
		}
	}
	return Value{}
}

// Compare returns -1, 0 or 1 as a is below, equal to or above b, and
// false when SPARQL's operators do not order them: values of different
// kinds, NaN, and date-times with and without a time zone closer than 14
// hours (XML Schema's partial order).
func Compare(a, b Value) (int, bool) {
	if a.class == classNone || a.class != b.class {
		return 0, false
	}
	switch a.class {
	case classNumber:
		if a.float || b.float {
			x, y := a.f, b.f
			if !a.float {
				x, _ = a.r.Float64()
			}
			if !b.float {
				y, _ = b.r.Float64()
			}
			switch {
			case math.IsNaN(x) || math.IsNaN(y):
				return 0, false
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
		return a.r.Cmp(b.r), true
	case classString:
		return strings.Compare(a.s, b.s), true
	case classBoolean:
		switch {
		case a.b == b.b:
			return 0, true
		case b.b:
			return -1, true
		}
		return 1, true
	}
	return compareMoments(a.m, b.m)
}

// compareMoments orders two moments as XML Schema does: one without a
// time zone is taken to be anywhere from -14:00 to +14:00, and the order
// is indeterminate when that range spans the other.
func compareMoments(a, b moment) (int, bool) {
	if a.tz == b.tz {
		return cmpMoment(a.sec, a.frac, b.sec, b.frac), true
	}
	const span = 14 * 3600
	if !a.tz {
		c1 := cmpMoment(a.sec-span, a.frac, b.sec, b.frac)
		c2 := cmpMoment(a.sec+span, a.frac, b.sec, b.frac)
		if c1 == c2 {
			return c1, true
		}
		return 0, false
	}
	c, ok := compareMoments(b, a)
	return -c, ok
}

func cmpMoment(as int64, af string, bs int64, bf string) int {
	switch {
	case as < bs:
		return -1
	case as > bs:
		return 1
	}
	n := max(len(af), len(bf))
	return strings.Compare(af+strings.Repeat("0", n-len(af)), bf+strings.Repeat("0", n-len(bf)))
}

// Float returns a numeric value as a float64, and false for any other.
func (v Value) Float() (float64, bool) {
	switch {
	case v.class != classNumber:
		return 0, false
	case v.float:
		return v.f, true
	}
	f, _ := v.r.Float64()
	return f, true
}

// Rat returns the exact value of an xsd:decimal, xsd:integer or derived
// integer literal's Value, and false for any other (doubles and floats
// included: use Float).
func (v Value) Rat() (*big.Rat, bool) {
	if v.class != classNumber || v.float {
		return nil, false
	}
	return new(big.Rat).Set(v.r), true
}

// Instant returns the point in time of an xsd:dateTime, xsd:date or
// xsd:time Value: seconds from 0001-01-01T00:00:00 (UTC when zoned, local
// time otherwise), the digits of the fraction of a second without
// trailing zeros, and whether the lexical form had a time zone; ok is
// false for any other Value. Ordering values by (sec, frac) agrees with
// Compare wherever Compare gives an order.
func (v Value) Instant() (sec int64, frac string, zoned, ok bool) {
	switch v.class {
	case classDateTime, classDate, classTime:
		return v.m.sec, v.m.frac, v.m.tz, true
	}
	return 0, "", false, false
}
