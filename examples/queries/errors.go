package queries

import "fmt"

// QueryError is a query of the pack that failed on a dataset: its parse or
// evaluation error, with the query's name.
type QueryError struct {
	Name string // the query's file, such as "kinds.rq"
	Err  error
}

func (e *QueryError) Error() string {
	return fmt.Sprintf("SPARQL pack, %s: %v", e.Name, e.Err)
}

func (e *QueryError) Unwrap() error { return e.Err }
