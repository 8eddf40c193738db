//go:build !jena

package stats

// jenaEngines returns no engine: Apache Jena runs in TestSPARQLEngines with
// the build tag jena, as .ci/run sets it (one Java process per query takes
// over a minute of two cores).
func jenaEngines() []sparqlEngine { return nil }
