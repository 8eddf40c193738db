package expr

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/shacl/xsd"
)

// timeFuncs are the functions on xsd:dateTime (section 17.4.5). They read
// the fields as written, in the literal's own time zone.
var timeFuncs = map[string]func(name string, a rdf.Term) (rdf.Term, error){
	"YEAR":     dateField,
	"MONTH":    dateField,
	"DAY":      dateField,
	"HOURS":    dateField,
	"MINUTES":  dateField,
	"SECONDS":  dateField,
	"TIMEZONE": timezone,
	"TZ":       timezone,
}

// dateTime holds the fields of an xsd:dateTime lexical form.
type dateTime struct {
	year                             int64
	month, day, hour, minute, second int
	frac                             string // digits of the fraction of a second
	tz                               string // "", "Z" or ±hh:mm
}

// parseDateTime reads the fields of a, which must be a well-formed
// xsd:dateTime (or xsd:dateTimeStamp); 24:00:00 is read as the start of
// the next day, the same value.
func parseDateTime(name string, a rdf.Term) (dateTime, error) {
	if a.Kind != rdf.Literal || a.Datatype != rdf.XSDDateTime && a.Datatype != xsdDateTimeStamp || !xsd.WellFormed(a) {
		return dateTime{}, typeErr(name, "not an xsd:dateTime: "+describe(a))
	}
	s := a.Value
	i := strings.IndexByte(s[1:], '-') + 1 // the year may start with '-'
	var d dateTime
	d.year, _ = strconv.ParseInt(s[:i], 10, 64)
	r := s[i+1:] // MM-DDThh:mm:ss[.fff][tz]
	two := func(at int) int { return int(r[at]-'0')*10 + int(r[at+1]-'0') }
	d.month, d.day, d.hour, d.minute, d.second = two(0), two(3), two(6), two(9), two(12)
	r = r[14:]
	if strings.HasPrefix(r, ".") {
		j := 1
		for j < len(r) && r[j] >= '0' && r[j] <= '9' {
			j++
		}
		d.frac = strings.TrimRight(r[1:j], "0")
		r = r[j:]
	}
	d.tz = r
	if d.hour == 24 {
		d.hour = 0
		d.day++
		if d.day > xsd.DaysIn(d.year, d.month) {
			d.day = 1
			d.month++
			if d.month > 12 {
				d.month = 1
				d.year++
			}
		}
	}
	return d, nil
}

// dateField is YEAR, MONTH, DAY, HOURS, MINUTES (xsd:integer) and SECONDS
// (xsd:decimal).
func dateField(name string, a rdf.Term) (rdf.Term, error) {
	d, err := parseDateTime(name, a)
	if err != nil {
		return rdf.Term{}, err
	}
	switch name {
	case "YEAR":
		return rdf.NewLiteral(strconv.FormatInt(d.year, 10), rdf.XSDInteger), nil
	case "MONTH":
		return intTerm(d.month), nil
	case "DAY":
		return intTerm(d.day), nil
	case "HOURS":
		return intTerm(d.hour), nil
	case "MINUTES":
		return intTerm(d.minute), nil
	}
	r, _ := new(big.Rat).SetString(strconv.Itoa(d.second) + "." + d.frac + "0")
	return number{kind: kDecimal, r: r}.term(), nil
}

// timezone is TIMEZONE (the offset as an xsd:dayTimeDuration, an error
// when there is none) and TZ (the time zone as written, "" for none).
func timezone(name string, a rdf.Term) (rdf.Term, error) {
	d, err := parseDateTime(name, a)
	if err != nil {
		return rdf.Term{}, err
	}
	if name == "TZ" {
		return simple(d.tz), nil
	}
	switch d.tz {
	case "":
		return rdf.Term{}, typeErr(name, a.String()+" has no time zone")
	case "Z":
		return rdf.NewLiteral("PT0S", xsdDayTimeDuration), nil
	}
	h, _ := strconv.Atoi(d.tz[1:3])
	m, _ := strconv.Atoi(d.tz[4:6])
	if h == 0 && m == 0 {
		return rdf.NewLiteral("PT0S", xsdDayTimeDuration), nil
	}
	s := "PT"
	if d.tz[0] == '-' {
		s = "-PT"
	}
	if h > 0 {
		s += strconv.Itoa(h) + "H"
	}
	if m > 0 {
		s += strconv.Itoa(m) + "M"
	}
	return rdf.NewLiteral(s, xsdDayTimeDuration), nil
}
