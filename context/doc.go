// Package context loads and merges JSON-LD contexts, annotates a JSON schema
// from a context and builds a context back from an annotated schema.
package context
