package sparql_test

// The generator of the differential test on generated queries
// (gendiff_test.go): small datasets and SPARQL 1.1 queries over them, from
// fixed seeds, so that case N is the same on every run and every machine.
//
// Variables have roles, so that the filters and expressions a query gets
// meet the values its patterns bind: ?s, ?x and ?y are nodes (ex:knows
// links them), ?v and ?w numbers (ex:val), ?n and ?m strings with or
// without a language tag (ex:name), ?d dates and date-times (ex:when), ?o
// anything (ex:p) and ?t a class IRI (ex:q). Everything a query computes
// is deterministic: no RAND, NOW, UUID or BNODE(); SAMPLE only of a group
// key; GROUP_CONCAT compared as a multiset of its parts (genCase.concat);
// ORDER BY compared as an order only where its keys are total on the
// answer (totalOrder), and LIMIT or OFFSET only under such an ORDER BY.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

const genEx = "http://example.org/"

// genPerData is how many queries run on each generated dataset.
const genPerData = 10

// genCase is one generated query and the dataset it runs on.
type genCase struct {
	id    int    // its number: the seed of its query
	data  int    // the number of its dataset: the seed of the data
	form  string // SELECT, ASK or CONSTRUCT
	query string // its text (render(raw, false))
	raw   string // its text with the paths and aggregates marked, for render
	// ordered is set when the query has an ORDER BY on its projected
	// variables (orderKeys, in order): the order of the answer counts if
	// the keys are total on it.
	ordered   bool
	orderKeys []string
	limited   bool     // LIMIT or OFFSET: the answer is defined only under a total order
	unlimited string   // raw without its LIMIT and OFFSET, to tell whether the order is total
	concat    []string // GROUP_CONCAT variables, compared as multisets of "|"-separated parts
}

// genData returns dataset n as N-Triples: a few dozen triples of IRIs,
// blank nodes and literals of several kinds.
func genData(n int) string {
	r := rand.New(rand.NewPCG(uint64(n), 0xda7a5e7))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	node := func() string {
		return pick("<"+genEx+"s0>", "<"+genEx+"s1>", "<"+genEx+"s2>", "<"+genEx+"s3>", "<"+genEx+"s4>", "<"+genEx+"s5>", "_:b0", "_:b1")
	}
	const xsd = "http://www.w3.org/2001/XMLSchema#"
	typed := func(lex, dt string) string { return fmt.Sprintf("%q^^<%s%s>", lex, xsd, dt) }
	number := func() string {
		return pick(typed("1", "integer"), typed("2", "integer"), typed("-3", "integer"), typed("10", "integer"),
			typed("007", "integer"), typed("2.5", "decimal"), typed("0.5", "decimal"), typed("1.50", "decimal"),
			typed("4.0", "decimal"), typed("1.25E1", "double"), typed("3.5E0", "double"), typed("-5.0E-1", "double"),
			typed("3", "float"))
	}
	name := func() string {
		return pick(`"alpha"`, `"Beta"`, `"gamma \u03B4"`, `"\u00FCn\u00EF"`, `"\u65E5\u672C\u8A9E"`, `"a.b*c"`, `""`,
			`"Alpha"`, `"chat"@fr`, `"cat"@en`, `"Colour"@en-GB`, `"\u00FCn\u00EF"@de`, typed("beta", "string"))
	}
	when := func() string {
		return pick(typed("2020-01-31", "date"), typed("2021-12-01", "date"), typed("2020-01-31T10:00:00Z", "dateTime"),
			typed("2019-06-15T23:59:59+02:00", "dateTime"), typed("2020-02-29T12:30:00Z", "dateTime"),
			typed("2021-03-01T00:00:00-05:00", "dateTime"))
	}
	other := func() string {
		switch r.IntN(4) {
		case 0:
			return node()
		case 1:
			return number()
		case 2:
			return name()
		}
		return pick(when(), typed("true", "boolean"), typed("false", "boolean"), "<"+genEx+"t0>")
	}
	class := func() string { return pick("<"+genEx+"t0>", "<"+genEx+"t1>", "<"+genEx+"t2>") }
	seen := map[string]bool{}
	var b strings.Builder
	add := func(s, p, o string) {
		line := s + " <" + genEx + p + "> " + o + " .\n"
		if !seen[line] {
			seen[line] = true
			b.WriteString(line)
		}
	}
	for range 6 + r.IntN(6) {
		add(node(), "knows", node())
	}
	for range 5 + r.IntN(6) {
		add(node(), "val", number())
	}
	for range 4 + r.IntN(6) {
		add(node(), "name", name())
	}
	for range 2 + r.IntN(4) {
		add(node(), "when", when())
	}
	for range 3 + r.IntN(5) {
		add(node(), "p", other())
	}
	for range 2 + r.IntN(4) {
		add(node(), "q", class())
	}
	return b.String()
}

// qgen builds one query.
type qgen struct {
	r     *rand.Rand
	binds int // BIND variables made so far: ?b0, ?b1, ...
	inner int // variables of EXISTS and subqueries: ?z0, ?z1, ...
}

func (g *qgen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *qgen) chance(p float64) bool { return g.r.Float64() < p }

// genQuery returns case id, on dataset id/genPerData.
func genQuery(id int) genCase {
	g := &qgen{r: rand.New(rand.NewPCG(uint64(id), 0x9e2f11))}
	c := genCase{id: id, data: id / genPerData}
	vars := map[string]bool{}
	where := g.group(vars, 0)
	prologue := "PREFIX ex: <" + genEx + ">\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
	mentioned := sortedVars(vars)
	switch k := g.r.IntN(20); {
	case k < 2:
		c.form = "ASK"
		c.raw = prologue + "ASK WHERE {\n" + where + "}\n"
	case k < 5:
		c.form = "CONSTRUCT"
		c.raw = prologue + "CONSTRUCT {\n" + g.template(mentioned) + "} WHERE {\n" + where + "}\n"
	case k < 9:
		c.form = "SELECT"
		c.raw = prologue + g.aggregate(&c, mentioned, where)
	default:
		c.form = "SELECT"
		c.raw = prologue + g.plain(&c, mentioned, where)
		if c.limited {
			c.unlimited = prologue + c.unlimited
		}
	}
	c.query = render(c.raw, false)
	return c
}

func sortedVars(vars map[string]bool) []string {
	var out []string
	for v := range vars {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// plain returns a SELECT with or without DISTINCT, ORDER BY, LIMIT and
// OFFSET.
func (g *qgen) plain(c *genCase, mentioned []string, where string) string {
	proj := "*"
	var chosen []string
	if g.chance(0.6) && len(mentioned) > 0 {
		for _, v := range mentioned {
			if g.chance(0.6) {
				chosen = append(chosen, v)
			}
		}
		if len(chosen) == 0 {
			chosen = mentioned[:1]
		}
		proj = "?" + strings.Join(chosen, " ?")
	}
	distinct := ""
	if g.chance(0.3) {
		distinct = "DISTINCT "
	}
	if g.chance(0.15) {
		distinct = "REDUCED " // compared as a set: REDUCED may drop any duplicates
	}
	q := "SELECT " + distinct + proj + " WHERE {\n" + where + "}\n"
	if len(chosen) > 0 && g.chance(0.35) {
		// ORDER BY every projected variable: total when no two rows tie.
		c.ordered, c.orderKeys = true, chosen
		var keys []string
		for _, v := range chosen {
			if g.chance(0.3) {
				keys = append(keys, "DESC(?"+v+")")
			} else {
				keys = append(keys, "?"+v)
			}
		}
		q += "ORDER BY " + strings.Join(keys, " ") + "\n"
		if g.chance(0.6) {
			c.limited, c.unlimited = true, q
			if g.chance(0.7) {
				q += fmt.Sprintf("LIMIT %d\n", 1+g.r.IntN(5))
			}
			if g.chance(0.5) {
				q += fmt.Sprintf("OFFSET %d\n", g.r.IntN(4))
			}
		}
	}
	return q
}

// aggregate returns a SELECT with GROUP BY (or one group), aggregates and
// perhaps HAVING.
func (g *qgen) aggregate(c *genCase, mentioned []string, where string) string {
	var key string
	if len(mentioned) > 0 && g.chance(0.75) {
		key = mentioned[g.r.IntN(len(mentioned))]
	}
	has := func(v string) bool { return slices.Contains(mentioned, v) }
	var sel []string
	if key != "" {
		sel = append(sel, "?"+key)
	}
	sel = append(sel, "(COUNT(*) AS ?count)")
	if len(mentioned) > 0 && g.chance(0.5) {
		v := mentioned[g.r.IntN(len(mentioned))]
		sel = append(sel, "(COUNT("+g.pick("", "DISTINCT ")+"?"+v+") AS ?cv)")
	}
	for _, v := range []string{"v", "w"} {
		if has(v) && g.chance(0.7) {
			switch g.r.IntN(4) {
			case 0:
				sel = append(sel, "("+agg("SUM", "", "?"+v, "")+" AS ?sum_"+v+")")
			case 1:
				sel = append(sel, "("+agg("AVG", "", "?"+v, "")+" AS ?avg_"+v+")")
			case 2:
				sel = append(sel, "("+agg("MIN", "", "?"+v, "")+" AS ?min_"+v+")")
			default:
				sel = append(sel, "("+agg("MAX", "", "?"+v, "")+" AS ?max_"+v+")")
			}
		}
	}
	for _, v := range []string{"n", "m"} {
		if has(v) && g.chance(0.5) {
			if g.chance(0.5) {
				sel = append(sel, "("+agg("GROUP_CONCAT", g.pick("", "DISTINCT "), "STR(?"+v+")", "; separator=\"|\"")+" AS ?gc_"+v+")")
				c.concat = append(c.concat, "gc_"+v)
			} else {
				sel = append(sel, "("+agg("MAX", "", "STR(?"+v+")", "")+" AS ?maxs_"+v+")")
			}
		}
	}
	if key != "" && g.chance(0.3) {
		sel = append(sel, "(SAMPLE(?"+key+") AS ?sample)")
	}
	q := "SELECT " + strings.Join(sel, " ") + " WHERE {\n" + where + "}\n"
	if key != "" {
		q += "GROUP BY ?" + key + "\n"
	}
	if g.chance(0.35) {
		switch {
		case has("v") && g.chance(0.5):
			q += "HAVING (" + agg("SUM", "", "?v", "") + " > " + g.pick("0", "2", "5") + ")\n"
		default:
			q += "HAVING (COUNT(*) " + g.pick(">", ">=", "=") + " " + g.pick("1", "2") + ")\n"
		}
	}
	return q
}

// template returns a CONSTRUCT template over the mentioned variables.
func (g *qgen) template(mentioned []string) string {
	if len(mentioned) == 0 {
		return "  ex:c ex:none ex:c .\n"
	}
	var b strings.Builder
	for range 1 + g.r.IntN(3) {
		a := mentioned[g.r.IntN(len(mentioned))]
		o := mentioned[g.r.IntN(len(mentioned))]
		switch g.r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "  ?%s ex:out ?%s .\n", a, o)
		case 1:
			fmt.Fprintf(&b, "  [ ex:from ?%s ; ex:to ?%s ] .\n", a, o)
		default:
			fmt.Fprintf(&b, "  ?%s ex:pair ( ?%s ex:c ) .\n", a, o)
		}
	}
	return b.String()
}

// triple returns a triple pattern or property path, recording its
// variables.
func (g *qgen) triple(vars map[string]bool) string {
	patterns := []string{
		"?s ex:knows ?x", "?x ex:knows ?y", "?s ex:val ?v", "?x ex:val ?w", "?s ex:name ?n", "?x ex:name ?m",
		"?s ex:when ?d", "?s ex:p ?o", "?s ex:q ?t", "?x ex:q ?t", "ex:s0 ex:knows ?x", "?s ex:p ex:s1",
		"?y ex:val ?v",
		// property paths
		"?s ex:knows/ex:knows ?y", "?s ex:knows|ex:p ?o", "?x ^ex:knows ?s", "?s ex:knows* ?x",
		"?s ex:knows+ ?x", "?s ex:knows? ?x", "?s (ex:knows/ex:q)|ex:q ?t", "?s ^ex:knows/ex:val ?v",
		"ex:s0 ex:knows+ ?x", "?s ex:knows* ex:s2", "?s (ex:knows|^ex:knows)+ ?x", "?s ex:knows/ex:name ?n",
		"?s !(ex:knows|ex:val) ?o",
	}
	p := patterns[g.r.IntN(len(patterns))]
	for _, f := range strings.Fields(p) {
		if v, ok := strings.CutPrefix(f, "?"); ok {
			vars[v] = true
		}
	}
	if strings.ContainsAny(p, "/|") {
		return "\x01" + p + "\x02"
	}
	return p
}

// group returns the body of a group graph pattern, recording its
// variables in vars.
func (g *qgen) group(vars map[string]bool, depth int) string {
	var b strings.Builder
	for range 1 + g.r.IntN(3) {
		b.WriteString("  " + g.triple(vars) + " .\n")
	}
	for range g.r.IntN(4) {
		switch k := g.r.IntN(11); {
		case k == 0 && depth < 2:
			fmt.Fprintf(&b, "  OPTIONAL {\n%s  }\n", g.group(vars, depth+1))
		case k == 1 && depth < 2:
			fmt.Fprintf(&b, "  { %s } UNION { %s }\n", g.flat(vars), g.flat(vars))
		case k == 2:
			sub := map[string]bool{}
			fmt.Fprintf(&b, "  MINUS { %s }\n", g.flat(sub))
		case k == 3 || k == 4:
			fmt.Fprintf(&b, "  FILTER (%s)\n", g.cond(vars, depth))
		case k == 5:
			v := fmt.Sprintf("b%d", g.binds)
			g.binds++
			fmt.Fprintf(&b, "  BIND (%s AS ?%s)\n", g.value(vars), v)
			vars[v] = true
		case k == 6:
			b.WriteString("  " + g.values(vars) + "\n")
		case k == 7 && depth < 2:
			b.WriteString(g.subquery(vars, depth))
		case k == 8:
			fmt.Fprintf(&b, "  OPTIONAL { %s }\n", g.flat(vars))
		default:
			b.WriteString("  " + g.triple(vars) + " .\n")
		}
	}
	return b.String()
}

// flat returns one or two triple patterns, for UNION and MINUS.
func (g *qgen) flat(vars map[string]bool) string {
	s := g.triple(vars)
	if g.chance(0.4) {
		s += " . " + g.triple(vars)
	}
	return s
}

// values returns a VALUES block on one or two variables.
func (g *qgen) values(vars map[string]bool) string {
	switch g.r.IntN(4) {
	case 0:
		vars["s"] = true
		return "VALUES ?s { ex:s0 ex:s1 ex:s3 }"
	case 1:
		vars["v"] = true
		return "VALUES ?v { 1 2.5 \"+3\"^^xsd:integer 10 }" // "+3" is no value of the data
	case 2:
		vars["x"], vars["n"] = true, true
		return "VALUES (?x ?n) { (ex:s1 \"alpha\") (UNDEF \"cat\"@en) (ex:s2 UNDEF) }"
	}
	vars["t"] = true
	return "VALUES ?t { ex:t0 ex:t2 }"
}

// subquery returns a subquery in braces, which projects some of its
// variables.
func (g *qgen) subquery(vars map[string]bool, depth int) string {
	inner := map[string]bool{}
	body := g.group(inner, depth+1)
	names := sortedVars(inner)
	if len(names) == 0 {
		return ""
	}
	key := names[g.r.IntN(len(names))]
	vars[key] = true
	if g.chance(0.5) {
		c := fmt.Sprintf("z%d", g.inner)
		g.inner++
		vars[c] = true
		return fmt.Sprintf("  { SELECT ?%s (COUNT(*) AS ?%s) WHERE {\n%s  } GROUP BY ?%s }\n", key, c, body, key)
	}
	return fmt.Sprintf("  { SELECT DISTINCT ?%s WHERE {\n%s  } }\n", key, body)
}

// cond returns a condition for FILTER.
func (g *qgen) cond(vars map[string]bool, depth int) string {
	type tmpl struct {
		needs string // a variable the condition is about, or ""
		text  string // with % for the variable
	}
	conds := []tmpl{
		{"v", "?% > 2"}, {"v", "?% + 1 < 3"}, {"v", "?% * 2 = 5"}, {"v", "ABS(?%) >= 1"}, {"v", "?% - 1 <= 0"},
		{"v", "ROUND(?%) = 3"}, {"v", "CEIL(?%) > 1"}, {"v", "FLOOR(?%) < 2"}, {"v", "isNumeric(?%)"},
		{"v", "?% IN (1, 2.5, \"x\", 10)"}, {"v", "?% NOT IN (1, 2)"}, {"v", "?% != 1"}, {"v", "?% = 2.5e0"},
		{"w", "?v = ?%"}, {"w", "?v < ?%"}, {"w", "?% / 2 > 1"},
		{"n", "STRLEN(?%) > 3"}, {"n", "CONTAINS(?%, \"a\")"}, {"n", "STRSTARTS(?%, \"a\")"},
		{"n", "STRENDS(LCASE(?%), \"a\")"}, {"n", "REGEX(?%, \"^[a-c]\", \"i\")"}, {"n", "REGEX(STR(?%), \"\u00FC\")"},
		{"n", "LANG(?%) = \"en\""}, {"n", "LANGMATCHES(LANG(?%), \"en\")"}, {"n", "LANGMATCHES(LANG(?%), \"*\")"},
		{"n", "UCASE(?%) = \"ALPHA\""}, {"n", "SUBSTR(?%, 2, 2) = \"lp\""}, {"n", "STRBEFORE(?%, \"a\") != \"\""},
		{"n", "?% < \"b\""}, {"n", "?% = \"alpha\""}, {"n", "STR(?%) >= \"a\""}, {"m", "?n != ?%"},
		{"m", "CONCAT(?n, ?%) = \"alphaalpha\""}, {"n", "isLiteral(?%) && DATATYPE(?%) = xsd:string"},
		{"x", "isIRI(?%)"}, {"x", "isBlank(?%)"}, {"x", "?s != ?%"}, {"x", "sameTerm(?s, ?%)"},
		{"x", "STR(?s) < STR(?%)"}, {"s", "?% = ex:s1"}, {"s", "?% IN (ex:s0, ex:s2)"},
		{"o", "BOUND(?%)"}, {"o", "isLiteral(?%)"}, {"o", "DATATYPE(?%) = xsd:integer"}, {"o", "?% = 1"},
		{"o", "?% > \"b\""}, {"o", "!isBlank(?%)"}, {"w", "COALESCE(?%, 0) > 1"}, {"w", "IF(BOUND(?%), ?%, -1) > 0"},
		{"d", "YEAR(?%) = 2020"}, {"d", "?% < \"2021-01-01T00:00:00Z\"^^xsd:dateTime"}, {"d", "MONTH(?%) > 6"},
		{"d", "DAY(?%) = 31"}, {"d", "TZ(?%) = \"Z\""}, {"d", "HOURS(?%) >= 10"}, {"t", "?% != ex:t1"},
		{"m", "!BOUND(?%)"}, {"y", "BOUND(?%)"}, {"", "true"}, {"", "1 + 1 = 2"},
	}
	var fit []tmpl
	for _, c := range conds {
		if c.needs == "" || vars[c.needs] {
			fit = append(fit, c)
		}
	}
	if g.chance(0.15) {
		g.inner++
		z := fmt.Sprintf("?z%d", g.inner)
		s := g.pick("?s", "?x")
		pat := g.pick(s+" ex:knows "+z, s+" ex:val "+z, z+" ex:knows "+s, s+" ex:name "+z)
		return g.pick("", "NOT ") + "EXISTS { " + pat + " }"
	}
	c := fit[g.r.IntN(len(fit))]
	out := strings.ReplaceAll(c.text, "%", c.needs)
	if g.chance(0.15) {
		d := fit[g.r.IntN(len(fit))]
		out = "(" + out + ") " + g.pick("&&", "||") + " (" + strings.ReplaceAll(d.text, "%", d.needs) + ")"
	}
	return out
}

// value returns an expression for BIND.
func (g *qgen) value(vars map[string]bool) string {
	type tmpl struct{ needs, text string }
	vals := []tmpl{
		{"v", "?% + 1"}, {"v", "?% * 2"}, {"w", "?v * ?%"}, {"v", "?% / 2"}, {"v", "ROUND(?% * 10)"},
		{"v", "IF(?% > 2, \"big\", \"small\")"}, {"v", "-?%"}, {"v", "DATATYPE(?%)"},
		{"n", "STRLEN(?%)"}, {"n", "UCASE(?%)"}, {"n", "CONCAT(STR(?%), \"-\")"}, {"n", "LANG(?%)"},
		{"n", "REPLACE(?%, \"a\", \"A\")"}, {"n", "SUBSTR(?%, 1, 3)"}, {"n", "ENCODE_FOR_URI(?%)"},
		{"n", "MD5(STR(?%))"}, {"n", "STRAFTER(?%, \"a\")"}, {"n", "CONCAT(?%, ?m)"}, {"n", "LCASE(?%)"},
		{"m", "COALESCE(?%, \"none\")"}, {"o", "DATATYPE(?%)"}, {"o", "isLiteral(?%)"}, {"s", "STR(?%)"},
		{"s", "IRI(CONCAT(STR(?%), \"/more\"))"}, {"d", "YEAR(?%)"}, {"d", "STR(?%)"}, {"d", "TIMEZONE(?%)"},
		{"", "\"k\"@en"}, {"", "42"}, {"t", "STRAFTER(STR(?%), \"example.org/\")"},
	}
	var fit []tmpl
	for _, v := range vals {
		if v.needs == "" || vars[v.needs] {
			fit = append(fit, v)
		}
	}
	v := fit[g.r.IntN(len(fit))]
	return strings.ReplaceAll(v.text, "%", v.needs)
}

// agg returns an aggregate, marked for render: name(distinct expr sep).
func agg(name, distinct, expr, sep string) string {
	return "\x03" + name + "\x1f" + distinct + "\x1f" + expr + "\x1f" + sep + "\x04"
}

// render returns the text of a query from raw, where the generator marks
// paths with a sequence or an alternative (between \x01 and \x02) and
// aggregates (between \x03 and \x04, their parts separated by \x1f). With
// setPaths, each marked path with an alternative is a SELECT DISTINCT
// subquery: the path as a set of pairs, as Oxigraph evaluates it
// (genDeviations).
func render(raw string, setPaths bool) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(raw, "\x01\x03")
		if i < 0 {
			b.WriteString(raw)
			return b.String()
		}
		b.WriteString(raw[:i])
		end := "\x02"
		if raw[i] == '\x03' {
			end = "\x04"
		}
		j := i + strings.Index(raw[i:], end)
		body := raw[i+1 : j]
		path := raw[i] == '\x01'
		raw = raw[j+1:]
		if path {
			if !setPaths || !strings.Contains(body, "|") {
				b.WriteString(body)
				continue
			}
			var vars []string
			for _, f := range strings.Fields(body) {
				if strings.HasPrefix(f, "?") && !slices.Contains(vars, f) {
					vars = append(vars, f)
				}
			}
			fmt.Fprintf(&b, "{ SELECT DISTINCT %s WHERE { %s } }", strings.Join(vars, " "), body)
			continue
		}
		parts := strings.Split(body, "\x1f")
		b.WriteString(parts[0] + "(" + parts[1] + parts[2] + parts[3] + ")")
	}
}
