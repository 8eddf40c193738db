//go:build !jena

package sparql_test

// jenaGenPeers returns no peer: Apache Jena's ARQ runs the generated
// queries with the build tag jena, as .ci/run sets it (a Java process
// takes seconds to start and compile its runner).
func jenaGenPeers() []genPeer { return nil }
