//go:build !virtuoso

package stats

// virtuosoEngines returns no engine: Virtuoso runs in TestSPARQLEngines
// with the build tag virtuoso, as .ci/run sets it (starting it takes from
// a few seconds to a quarter of a minute).
func virtuosoEngines() []sparqlEngine { return nil }
