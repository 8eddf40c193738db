// Package algebra is the SPARQL 1.1 algebra (section 18 of the
// specification): the operators a parsed query or update is translated to
// and the evaluator runs. It sits between the syntax, which knows the
// grammar, and the evaluator, which knows the data, so that each can change
// without the other: a query is parsed once into these values, which are
// plain data (no behaviour beyond a marker method), printable and comparable
// in tests.
//
// Variables are held by name without the leading '?' or '$'. An unbound
// value, in a VALUES table or a solution, is the zero rdf.Term.
package algebra

import "github.com/jrpcld/jrpcld/rdf"

// Node is a term or a variable in a triple pattern, a GRAPH clause or a
// DESCRIBE: Var is the variable's name when it is a variable, else Term is
// the term. A blank node in a pattern is a hidden variable (see Hidden);
// in a template or in data it is a blank node Term.
type Node struct {
	Var  string
	Term rdf.Term
}

// IsVar reports whether n is a variable.
func (n Node) IsVar() bool { return n.Var != "" }

// TriplePattern is one triple pattern of a basic graph pattern.
type TriplePattern struct{ S, P, O Node }

// QuadPattern is a triple pattern in a graph, for the templates of
// updates: Graph is the zero Node for the default graph.
type QuadPattern struct {
	TriplePattern
	Graph Node
}

// Op is an operator of the algebra. Its concrete types are the structs of
// this file.
type Op interface{ op() }

// BGP is a basic graph pattern: triple patterns joined.
type BGP struct{ Patterns []TriplePattern }

// PathPattern is a triple pattern whose predicate is a property path that
// is not a single IRI.
type PathPattern struct {
	S    Node
	Path Path
	O    Node
}

// Join is the join of two patterns.
type Join struct{ Left, Right Op }

// LeftJoin is OPTIONAL: Right's solutions joined where compatible and Expr
// (nil for none) is true, Left's alone otherwise.
type LeftJoin struct {
	Left, Right Op
	Expr        Expr
}

// Filter keeps the solutions of Sub for which every expression is true.
type Filter struct {
	Exprs []Expr
	Sub   Op
}

// Union is the union of two patterns' solutions.
type Union struct{ Left, Right Op }

// Minus removes Left's solutions compatible with some solution of Right
// sharing a variable.
type Minus struct{ Left, Right Op }

// Graph evaluates Sub in the named graph Name (an IRI or a variable ranging
// over the dataset's named graphs).
type Graph struct {
	Name Node
	Sub  Op
}

// Extend is BIND: Var set to Expr's value in each solution of Sub (left
// unbound where Expr is an error).
type Extend struct {
	Sub  Op
	Var  string
	Expr Expr
}

// Table is a VALUES block, or the unit table (one empty solution, no
// variables) where a pattern is empty. A zero rdf.Term in a row is UNDEF.
type Table struct {
	Vars []string
	Rows [][]rdf.Term
}

// Group groups Sub's solutions by the keys and computes the aggregates of
// each group. With no keys and no solutions, there is one empty group.
type Group struct {
	Sub  Op
	By   []GroupKey
	Aggs []Aggregate
}

// GroupKey is one GROUP BY condition; Var names it when the query binds it
// with AS, or when it is a plain variable.
type GroupKey struct {
	Expr Expr
	Var  string
}

// Aggregate is one aggregate of a Group, its value bound to Var (a name
// the query cannot write) for the HAVING, ORDER BY and SELECT expressions
// above to use. Name is COUNT, SUM, MIN, MAX, AVG, SAMPLE or GROUP_CONCAT;
// Args is empty for COUNT(*).
type Aggregate struct {
	Var       string
	Name      string
	Distinct  bool
	Args      []Expr
	Separator string // GROUP_CONCAT's, " " when the query gives none
}

// OrderBy sorts Sub's solutions.
type OrderBy struct {
	Sub   Op
	Conds []OrderCond
}

// OrderCond is one ORDER BY condition.
type OrderCond struct {
	Expr Expr
	Desc bool
}

// Project keeps Vars of each solution, in that order.
type Project struct {
	Sub  Op
	Vars []string
}

// Distinct removes duplicate solutions.
type Distinct struct{ Sub Op }

// Reduced may remove duplicate solutions.
type Reduced struct{ Sub Op }

// Slice is OFFSET and LIMIT; Limit is -1 when there is none.
type Slice struct {
	Sub           Op
	Offset, Limit int64
}

// Service is a SERVICE clause, kept so that the evaluator can refuse it
// with a clear error (jrpcld never queries the network).
type Service struct {
	Endpoint Node
	Silent   bool
	Sub      Op
}

func (BGP) op()         {}
func (PathPattern) op() {}
func (Join) op()        {}
func (LeftJoin) op()    {}
func (Filter) op()      {}
func (Union) op()       {}
func (Minus) op()       {}
func (Graph) op()       {}
func (Extend) op()      {}
func (Table) op()       {}
func (Group) op()       {}
func (OrderBy) op()     {}
func (Project) op()     {}
func (Distinct) op()    {}
func (Reduced) op()     {}
func (Slice) op()       {}
func (Service) op()     {}

// Path is a property path. Its concrete types follow.
type Path interface{ path() }

// PathIRI is a single predicate.
type PathIRI struct{ IRI string }

// PathInverse is ^P.
type PathInverse struct{ P Path }

// PathSeq is P1/P2.
type PathSeq struct{ Left, Right Path }

// PathAlt is P1|P2.
type PathAlt struct{ Left, Right Path }

// PathZeroOrMore is P*.
type PathZeroOrMore struct{ P Path }

// PathOneOrMore is P+.
type PathOneOrMore struct{ P Path }

// PathZeroOrOne is P?.
type PathZeroOrOne struct{ P Path }

// PathNegated is !(iri|^iri...): any predicate not in Forward, walked
// forward, or not in Inverse, walked backward. The forward walk is made
// when Forward is not empty or Inverse is empty (!() walks forward over
// every predicate); the backward walk only when Inverse is not empty, so
// !^:p walks backward only.
type PathNegated struct{ Forward, Inverse []string }

func (PathIRI) path()        {}
func (PathInverse) path()    {}
func (PathSeq) path()        {}
func (PathAlt) path()        {}
func (PathZeroOrMore) path() {}
func (PathOneOrMore) path()  {}
func (PathZeroOrOne) path()  {}
func (PathNegated) path()    {}

// Expr is an expression. Its concrete types follow.
type Expr interface{ expr() }

// Const is a constant term.
type Const struct{ Term rdf.Term }

// VarExpr is a variable's value.
type VarExpr struct{ Name string }

// Call is an operator or a function call. Name is one of: the operators
// "||", "&&", "!", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/",
// "UMINUS", "UPLUS", "IN", "NOT IN" (first argument the value, the others
// the list); a built-in function's name in upper case as the grammar
// spells it ("STRLEN", "REGEX", "BOUND", "IF", "COALESCE", "BNODE", ...);
// or an IRI, for casts (xsd:integer...) and other functions.
type Call struct {
	Name string
	Args []Expr
}

// Exists is EXISTS or, with Not, NOT EXISTS of a pattern evaluated with
// the current solution's bindings substituted.
type Exists struct {
	Not bool
	Op  Op
}

func (Const) expr()   {}
func (VarExpr) expr() {}
func (Call) expr()    {}
func (Exists) expr()  {}

// Form is a query form.
type Form int

// The query forms.
const (
	Select Form = iota
	Construct
	Ask
	Describe
)

// Query is a parsed query translated to the algebra.
type Query struct {
	Form Form
	// Op is the pattern and solution modifiers; for SELECT its Project
	// names the variables in order (SELECT * lists the pattern's in-scope
	// variables in the order they first appear).
	Op Op
	// Template is CONSTRUCT's template: blank nodes in it are blank node
	// Terms, fresh for each solution. CONSTRUCT WHERE's template is its
	// pattern's triples, node for node (a blank node there is the pattern's
	// hidden variable, so the triples matched come out).
	Template []TriplePattern
	// DescribeNodes are DESCRIBE's resources and variables; with
	// DESCRIBE *, DescribeAll is set and DescribeNodes lists the pattern's
	// in-scope variables. A DESCRIBE's Op ends in a Project of the
	// variables described (under any DISTINCT or Slice).
	DescribeNodes []Node
	DescribeAll   bool
	// From and FromNamed are the dataset clauses; both empty when the query
	// has none.
	From, FromNamed []string
	Base            string
	Prefixes        map[string]string
}

// Update is a parsed update request: operations run in order.
type Update struct {
	Ops      []UpdateOp
	Base     string
	Prefixes map[string]string
}

// UpdateOp is one update operation. Its concrete types follow.
type UpdateOp interface{ updateOp() }

// InsertData is INSERT DATA.
type InsertData struct{ Quads []rdf.Quad }

// DeleteData is DELETE DATA.
type DeleteData struct{ Quads []rdf.Quad }

// Modify is DELETE/INSERT ... WHERE, DELETE WHERE (Delete and Where from
// the same patterns) and their WITH and USING clauses.
type Modify struct {
	With              string
	Delete, Insert    []QuadPattern
	Using, UsingNamed []string
	Where             Op
}

// GraphTarget names the graphs an operation acts on: one graph by IRI, or
// the default graph, every named graph, or all graphs.
type GraphTarget struct {
	IRI                 string
	Default, Named, All bool
}

// Load is LOAD <iri> [INTO GRAPH <g>].
type Load struct {
	Source string
	Into   string
	Silent bool
}

// Clear is CLEAR.
type Clear struct {
	Target GraphTarget
	Silent bool
}

// Drop is DROP.
type Drop struct {
	Target GraphTarget
	Silent bool
}

// Create is CREATE GRAPH.
type Create struct {
	Graph  string
	Silent bool
}

// Transfer is ADD, MOVE or COPY (Kind) from one graph to another, each
// an IRI or DEFAULT.
type Transfer struct {
	Kind     string // "ADD", "MOVE" or "COPY"
	From, To GraphTarget
	Silent   bool
}

func (InsertData) updateOp() {}
func (DeleteData) updateOp() {}
func (Modify) updateOp()     {}
func (Load) updateOp()       {}
func (Clear) updateOp()      {}
func (Drop) updateOp()       {}
func (Create) updateOp()     {}
func (Transfer) updateOp()   {}
