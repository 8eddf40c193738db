package rdf

// Internals the external tests (package rdf_test, which may import
// rdf/rdftest) check directly.
const (
	FlushSize  = flushSize
	SmallGroup = smallGroup
)

// PlanAll makes t lay out every group with its plan (see appendSimple).
func PlanAll(t *TurtleWriter) { t.planAll = true }

// CheckBlank and CheckBlankRunes check a blank node label by table and rune
// by rune (TestCheckBlank).
var CheckBlank, CheckBlankRunes = checkBlank, checkBlankRunes

// ReadLinesSized is ReadLines with pieces of about size bytes
// (TestReadLines).
var ReadLinesSized = readLines
