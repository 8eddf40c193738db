// Package register builds a building-block register from a source tree, as
// the OGC building-block tool chain does, offline: annotated schemas, JSON-LD
// contexts, ontologies, validated and uplifted examples and tests, their
// reports, register.json, generated documentation, and a static HTML site.
package register
