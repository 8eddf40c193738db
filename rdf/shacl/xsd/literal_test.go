package xsd

import (
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/rdf"
)

// TestWellFormed: lexical forms in and out of XML Schema's lexical
// spaces (XML Schema 1.1 Part 2, section 3).
func TestWellFormed(t *testing.T) {
	good := map[string][]string{
		"integer":            {"0", "-12", "+7", "0012", "123456789012345678901234567890"},
		"byte":               {"-128", "127", "+0"},
		"unsignedByte":       {"0", "255"},
		"nonNegativeInteger": {"0", "+5"},
		"positiveInteger":    {"1"},
		"negativeInteger":    {"-1"},
		"long":               {"9223372036854775807", "-9223372036854775808"},
		"decimal":            {"1", "1.", ".5", "-0.50", "+3.14"},
		"double":             {"1", "1.5e10", "-1E-3", ".5e1", "INF", "-INF", "+INF", "NaN", "1e400"},
		"boolean":            {"true", "false", "1", "0"},
		"dateTime":           {"2020-02-29T12:00:00", "2020-01-01T00:00:00.123Z", "-0044-03-15T12:00:00+01:00", "2020-01-01T24:00:00", "12020-01-01T00:00:00"},
		"dateTimeStamp":      {"2020-01-01T00:00:00Z"},
		"date":               {"2021-12-31", "2021-12-31Z", "2021-12-31-05:00"},
		"time":               {"23:59:59", "00:00:00.5+14:00"},
		"gYear":              {"2021", "-0001", "2021Z"},
		"gYearMonth":         {"2021-02"},
		"gMonth":             {"--02"},
		"gMonthDay":          {"--02-29"},
		"gDay":               {"---31"},
		"duration":           {"P1Y", "PT1H", "-P1Y2M3DT4H5M6.7S", "P0D"},
		"dayTimeDuration":    {"P1DT2H"},
		"yearMonthDuration":  {"P1Y2M"},
		"hexBinary":          {"", "0FB7", "ab"},
		"base64Binary":       {"", "QUJD", "QU JD"},
		"language":           {"en", "en-GB", "zh-Hant-TW"},
		"NCName":             {"abc", "_a.b-c"},
		"Name":               {"a:b"},
		"token":              {"a b"},
		"string":             {" anything\n"},
	}
	bad := map[string][]string{
		"integer":            {"", "1.0", "1e3", " 1", "1 ", "+-1", "one"},
		"byte":               {"128", "-129", "c"},
		"unsignedByte":       {"-1", "256"},
		"nonNegativeInteger": {"-1"},
		"positiveInteger":    {"0"},
		"negativeInteger":    {"0"},
		"long":               {"9223372036854775808"},
		"decimal":            {"", ".", "1e3", "1.2.3", "INF"},
		"double":             {"", "1e", "e1", "inf", "1.5f", "0x10"},
		"boolean":            {"TRUE", "yes", ""},
		"dateTime":           {"2021-02-29T12:00:00", "2020-01-01", "2020-01-01T25:00:00", "2020-01-01T24:00:01", "2020-1-01T00:00:00", "020-01-01T00:00:00", "02020-01-01T00:00:00", "2020-01-01T00:00:00+15:00", "2020-01-01T00:00:00.Z"},
		"dateTimeStamp":      {"2020-01-01T00:00:00"},
		"date":               {"2021-13-01", "2021-04-31", "2021-01-01T00:00:00"},
		"time":               {"24:00:01", "12:60:00", "12:00"},
		"gYear":              {"21", "2021-01"},
		"gMonth":             {"02", "--13"},
		"gMonthDay":          {"--02-30"},
		"gDay":               {"--31", "---32"},
		"duration":           {"P", "PT", "1Y", "P1S", "P1.5Y", "PT1.S"},
		"dayTimeDuration":    {"P1Y"},
		"yearMonthDuration":  {"P1D"},
		"hexBinary":          {"0", "0G"},
		"base64Binary":       {"QUJ", "Q==="},
		"language":           {"", "englishlanguage", "en_GB", "1en"},
		"NCName":             {"a:b", "1a", ""},
		"token":              {" a", "a  b", "a\tb"},
	}
	for dt, forms := range good {
		for _, s := range forms {
			if !WellFormed(rdf.NewLiteral(s, xsdNS+dt)) {
				t.Errorf("%q is not accepted as xsd:%s", s, dt)
			}
		}
	}
	for dt, forms := range bad {
		for _, s := range forms {
			if WellFormed(rdf.NewLiteral(s, xsdNS+dt)) {
				t.Errorf("%q is accepted as xsd:%s", s, dt)
			}
		}
	}
	if WellFormed(rdf.Term{Kind: rdf.Literal, Value: "x", Datatype: rdf.RDFLangString}) {
		t.Error("an rdf:langString without a language tag is accepted")
	}
	if !WellFormed(rdf.NewLiteral("{not json", rdf.RDFJSON)) {
		t.Error("a datatype outside XML Schema must take any lexical form")
	}
}

func TestCompareValues(t *testing.T) {
	lit := func(s, dt string) Value { return ValueOf(rdf.NewLiteral(s, dt)) }
	tests := []struct {
		a, b Value
		want int
		ok   bool
	}{
		{lit("1", xsdNS+"integer"), lit("1.0", xsdNS+"decimal"), 0, true},
		{lit("2", xsdNS+"byte"), lit("10", xsdNS+"integer"), -1, true},
		{lit("0.1", xsdNS+"decimal"), lit("0.1", xsdNS+"double"), 0, true},
		{lit("1e1", xsdNS+"double"), lit("9", xsdNS+"integer"), 1, true},
		{lit("NaN", xsdNS+"double"), lit("1", xsdNS+"double"), 0, false},
		{lit("INF", xsdNS+"double"), lit("1e308", xsdNS+"double"), 1, true},
		{lit("a", ""), lit("b", ""), -1, true},
		{lit("a", ""), lit("1", xsdNS+"integer"), 0, false},
		{ValueOf(rdf.NewLangLiteral("a", "en")), ValueOf(rdf.NewLangLiteral("b", "en")), 0, false},
		{lit("x", xsdNS+"integer"), lit("1", xsdNS+"integer"), 0, false},
		{lit("false", xsdNS+"boolean"), lit("1", xsdNS+"boolean"), -1, true},
		{lit("2020-01-01T01:00:00+01:00", xsdNS+"dateTime"), lit("2020-01-01T00:00:00Z", xsdNS+"dateTime"), 0, true},
		{lit("2020-01-01T00:00:00.5Z", xsdNS+"dateTime"), lit("2020-01-01T00:00:00.49Z", xsdNS+"dateTime"), 1, true},
		// Without a time zone, within 14 hours: indeterminate; beyond: ordered.
		{lit("2020-01-01T00:00:00", xsdNS+"dateTime"), lit("2020-01-01T10:00:00Z", xsdNS+"dateTime"), 0, false},
		{lit("2020-01-01T00:00:00", xsdNS+"dateTime"), lit("2020-01-02T00:00:00Z", xsdNS+"dateTime"), -1, true},
		{lit("2020-03-01", xsdNS+"date"), lit("2020-02-29", xsdNS+"date"), 1, true},
		{lit("2020-03-01", xsdNS+"date"), lit("2020-03-01T00:00:00", xsdNS+"dateTime"), 0, false},
		{lit("10:00:00", xsdNS+"time"), lit("09:59:59.9", xsdNS+"time"), 1, true},
		{ValueOf(rdf.NewIRI("http://example.org/a")), ValueOf(rdf.NewIRI("http://example.org/b")), 0, false},
	}
	for _, tc := range tests {
		got, ok := Compare(tc.a, tc.b)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("compare(%+v, %+v) = %d, %v; want %d, %v", tc.a, tc.b, got, ok, tc.want, tc.ok)
		}
	}
}

// TestDaysIn compares DaysIn with the time package's proleptic Gregorian
// calendar (which counts years as XSD 1.1 does, year 0 a leap year) over
// years before and after year 0, leap centuries and not.
func TestDaysIn(t *testing.T) {
	for year := int64(-800); year <= 2400; year++ {
		for month := 1; month <= 12; month++ {
			want := time.Date(int(year), time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
			if got := DaysIn(year, month); got != want {
				t.Fatalf("DaysIn(%d, %d) = %d, want %d", year, month, got, want)
			}
		}
	}
}

// TestValueRatInstant: the exact value of decimals and integers, and the
// instant of date-times, as XML Schema defines them.
func TestValueRatInstant(t *testing.T) {
	for _, c := range []struct {
		lex, dt string
		num     string // the exact value as a fraction, or "" for none
	}{
		{"0012", "integer", "12/1"},
		{"-0.50", "decimal", "-1/2"},
		{"+3.14", "decimal", "157/50"},
		{"7", "byte", "7/1"},
		{"1.5", "double", ""},
		{"abc", "integer", ""},
		{"1", "string", ""},
	} {
		r, ok := ValueOf(rdf.NewLiteral(c.lex, xsdNS+c.dt)).Rat()
		if ok != (c.num != "") || ok && r.String() != c.num {
			t.Errorf("Rat of %q^^xsd:%s = %v, %v; want %q", c.lex, c.dt, r, ok, c.num)
		}
	}
	// 2000-01-01 is day 730119 from 0001-01-01 (1999 years, 484 of them leap years).
	const y2k = 730119 * 86400
	for _, c := range []struct {
		lex, dt string
		sec     int64
		frac    string
		zoned   bool
	}{
		{"2000-01-01T00:00:00Z", "dateTime", y2k, "", true},
		{"2000-01-01T01:00:00.500+01:00", "dateTime", y2k, "5", true},
		{"2000-01-01T00:00:00", "dateTime", y2k, "", false},
		{"2000-01-02", "date", y2k + 86400, "", false},
		{"00:00:01Z", "time", 1, "", true},
	} {
		sec, frac, zoned, ok := ValueOf(rdf.NewLiteral(c.lex, xsdNS+c.dt)).Instant()
		if !ok || sec != c.sec || frac != c.frac || zoned != c.zoned {
			t.Errorf("Instant of %q = %d, %q, %v, %v; want %d, %q, %v", c.lex, sec, frac, zoned, ok, c.sec, c.frac, c.zoned)
		}
	}
	if _, _, _, ok := ValueOf(rdf.NewLiteral("1", rdf.XSDInteger)).Instant(); ok {
		t.Error("an integer has an instant")
	}
}
