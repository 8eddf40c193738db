package rdf

// Internals the external tests (package rdf_test, which may import
// internal/rdftest) check directly.
const (
	FlushSize  = flushSize
	SmallGroup = smallGroup
)
