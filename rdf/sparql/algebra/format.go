package algebra

import (
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Format writes op as an S-expression, much as Jena's SSE does: one line,
// operators by lower-case name, variables as ?name, IRIs in <>, numbers
// and booleans bare when their lexical form reads back as that type.
// It is for messages, debugging and tests; nothing reads it back.
func Format(op Op) string {
	var b strings.Builder
	formatOp(&b, op)
	return b.String()
}

// FormatExpr writes e as Format does.
func FormatExpr(e Expr) string {
	var b strings.Builder
	formatExpr(&b, e)
	return b.String()
}

// FormatPath writes p as Format does.
func FormatPath(p Path) string {
	var b strings.Builder
	formatPath(&b, p)
	return b.String()
}

// FormatTerm writes t as Format does; the zero Term is UNDEF.
func FormatTerm(t rdf.Term) string {
	switch {
	case t == rdf.Term{}:
		return "UNDEF"
	case t.Kind != rdf.Literal || t.Lang != "":
		return t.String()
	}
	v := t.Value
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	unsigned := v
	if v != "" && (v[0] == '+' || v[0] == '-') {
		unsigned = v[1:]
	}
	switch t.Datatype {
	case rdf.XSDInteger:
		if digits(unsigned) {
			return v
		}
	case rdf.XSDDecimal:
		// [+-]?[0-9]*.[0-9]+
		if whole, frac, ok := strings.Cut(unsigned, "."); ok && (whole == "" || digits(whole)) && digits(frac) {
			return v
		}
	case rdf.XSDDouble:
		if _, err := strconv.ParseFloat(v, 64); err == nil && strings.ContainsAny(v, "eE") {
			return v
		}
	case rdf.XSDBoolean:
		if v == "true" || v == "false" {
			return v
		}
	}
	return t.String()
}

// FormatNode writes n as Format does.
func FormatNode(n Node) string {
	if n.IsVar() {
		return "?" + n.Var
	}
	return FormatTerm(n.Term)
}

func formatTriple(b *strings.Builder, t TriplePattern) {
	b.WriteString("(triple " + FormatNode(t.S) + " " + FormatNode(t.P) + " " + FormatNode(t.O) + ")")
}

// formatOp writes op.
func formatOp(b *strings.Builder, op Op) {
	open := func(name string) { b.WriteString("(" + name) }
	sub := func(ops ...Op) {
		for _, o := range ops {
			b.WriteByte(' ')
			formatOp(b, o)
		}
		b.WriteByte(')')
	}
	exprs := func(es []Expr) {
		b.WriteString(" (")
		for i, e := range es {
			if i > 0 {
				b.WriteByte(' ')
			}
			formatExpr(b, e)
		}
		b.WriteByte(')')
	}
	switch o := op.(type) {
	case nil:
		b.WriteString("(null)")
	case BGP:
		open("bgp")
		for _, t := range o.Patterns {
			b.WriteByte(' ')
			formatTriple(b, t)
		}
		b.WriteByte(')')
	case PathPattern:
		b.WriteString("(path " + FormatNode(o.S) + " ")
		formatPath(b, o.Path)
		b.WriteString(" " + FormatNode(o.O) + ")")
	case Join:
		open("join")
		sub(o.Left, o.Right)
	case LeftJoin:
		open("leftjoin")
		b.WriteByte(' ')
		formatOp(b, o.Left)
		b.WriteByte(' ')
		formatOp(b, o.Right)
		if o.Expr != nil {
			b.WriteByte(' ')
			formatExpr(b, o.Expr)
		}
		b.WriteByte(')')
	case Filter:
		open("filter")
		exprs(o.Exprs)
		sub(o.Sub)
	case Union:
		open("union")
		sub(o.Left, o.Right)
	case Minus:
		open("minus")
		sub(o.Left, o.Right)
	case Graph:
		open("graph " + FormatNode(o.Name))
		sub(o.Sub)
	case Extend:
		b.WriteString("(extend ((?" + o.Var + " ")
		formatExpr(b, o.Expr)
		b.WriteString("))")
		sub(o.Sub)
	case Table:
		formatTable(b, o)
	case Group:
		open("group (")
		for i, k := range o.By {
			if i > 0 {
				b.WriteByte(' ')
			}
			if k.Var != "" {
				if v, ok := k.Expr.(VarExpr); ok && v.Name == k.Var {
					b.WriteString("?" + k.Var)
					continue
				}
				b.WriteString("(?" + k.Var + " ")
				formatExpr(b, k.Expr)
				b.WriteByte(')')
				continue
			}
			formatExpr(b, k.Expr)
		}
		b.WriteString(") (")
		for i, a := range o.Aggs {
			if i > 0 {
				b.WriteByte(' ')
			}
			formatAggregate(b, a)
		}
		b.WriteByte(')')
		sub(o.Sub)
	case OrderBy:
		open("order (")
		for i, c := range o.Conds {
			if i > 0 {
				b.WriteByte(' ')
			}
			if c.Desc {
				b.WriteString("(desc ")
				formatExpr(b, c.Expr)
				b.WriteByte(')')
			} else {
				formatExpr(b, c.Expr)
			}
		}
		b.WriteByte(')')
		sub(o.Sub)
	case Project:
		open("project (")
		for i, v := range o.Vars {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("?" + v)
		}
		b.WriteByte(')')
		sub(o.Sub)
	case Distinct:
		open("distinct")
		sub(o.Sub)
	case Reduced:
		open("reduced")
		sub(o.Sub)
	case Slice:
		open("slice " + strconv.FormatInt(o.Offset, 10) + " " + strconv.FormatInt(o.Limit, 10))
		sub(o.Sub)
	case Service:
		name := "service "
		if o.Silent {
			name += "silent "
		}
		open(name + FormatNode(o.Endpoint))
		sub(o.Sub)
	default:
		b.WriteString("(unknown)")
	}
}

func formatTable(b *strings.Builder, t Table) {
	if len(t.Vars) == 0 && len(t.Rows) == 1 {
		b.WriteString("(table unit)")
		return
	}
	b.WriteString("(table (vars")
	for _, v := range t.Vars {
		b.WriteString(" ?" + v)
	}
	b.WriteByte(')')
	for _, r := range t.Rows {
		b.WriteString(" (row")
		for _, c := range r {
			b.WriteString(" " + FormatTerm(c))
		}
		b.WriteByte(')')
	}
	b.WriteByte(')')
}

func formatAggregate(b *strings.Builder, a Aggregate) {
	b.WriteString("(?" + a.Var + " (" + strings.ToLower(a.Name))
	if a.Distinct {
		b.WriteString(" distinct")
	}
	if len(a.Args) == 0 {
		b.WriteString(" *")
	}
	for _, e := range a.Args {
		b.WriteByte(' ')
		formatExpr(b, e)
	}
	if a.Name == "GROUP_CONCAT" && a.Separator != " " {
		b.WriteString(" (separator " + strconv.Quote(a.Separator) + ")")
	}
	b.WriteString("))")
}

// formatExpr writes e.
func formatExpr(b *strings.Builder, e Expr) {
	switch x := e.(type) {
	case nil:
		b.WriteString("(null)")
	case Const:
		b.WriteString(FormatTerm(x.Term))
	case VarExpr:
		b.WriteString("?" + x.Name)
	case Call:
		name := x.Name
		if strings.Contains(name, ":") {
			name = "<" + name + ">"
		}
		b.WriteString("(" + name)
		for _, a := range x.Args {
			b.WriteByte(' ')
			formatExpr(b, a)
		}
		b.WriteByte(')')
	case Exists:
		if x.Not {
			b.WriteString("(notexists ")
		} else {
			b.WriteString("(exists ")
		}
		formatOp(b, x.Op)
		b.WriteByte(')')
	default:
		b.WriteString("(unknown)")
	}
}

// formatPath writes p.
func formatPath(b *strings.Builder, p Path) {
	one := func(name string, sub ...Path) {
		b.WriteString("(" + name)
		for _, s := range sub {
			b.WriteByte(' ')
			formatPath(b, s)
		}
		b.WriteByte(')')
	}
	switch x := p.(type) {
	case PathIRI:
		b.WriteString("<" + x.IRI + ">")
	case PathInverse:
		one("inv", x.P)
	case PathSeq:
		one("seq", x.Left, x.Right)
	case PathAlt:
		one("alt", x.Left, x.Right)
	case PathZeroOrMore:
		one("path*", x.P)
	case PathOneOrMore:
		one("path+", x.P)
	case PathZeroOrOne:
		one("path?", x.P)
	case PathNegated:
		b.WriteString("(notoneof")
		for _, f := range x.Forward {
			b.WriteString(" <" + f + ">")
		}
		for _, i := range x.Inverse {
			b.WriteString(" ^<" + i + ">")
		}
		b.WriteByte(')')
	default:
		b.WriteString("(unknown)")
	}
}
