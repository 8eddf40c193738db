// Package bomb makes transform steps, for tests, that look small and take
// far more memory than a sandbox's limit, quickly: a jq program, a JSON-LD
// frame and SHACL rules, with the inputs that make them blow up. The tests
// of the sandbox that bounds the steps (transform.Sandbox) run them from
// the transform package up to the command line.
package bomb

import (
	"fmt"
	"strings"
)

// JQ is a jq program that doubles a string of 500 MB twice: 2 GB and
// more, whatever its input.
const JQ = `("a" * 500000000) | . + . | . + . | length`

// Frame returns a JSON-LD frame and a document it blows up: each node of
// a ladder of depth nodes names the next twice, and the frame embeds a
// node each time it is named (@embed @always), so its output holds the
// last node, and its string of size bytes, 2^depth times.
func Frame(depth, size int) (frame string, doc []byte) {
	var b strings.Builder
	b.WriteString(`{"@context": {"ex": "http://example.org/", "a": {"@id": "ex:a", "@type": "@id"}, "b": {"@id": "ex:b", "@type": "@id"}}, "@graph": [`)
	for i := range depth {
		fmt.Fprintf(&b, `{"@id": "ex:n%d", "a": "ex:n%d", "b": "ex:n%d"}, `, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `{"@id": "ex:n%d", "ex:v": "%s"}]}`, depth, strings.Repeat("x", size))
	return `{"@context": {"ex": "http://example.org/"}, "@id": "ex:n0", "@embed": "@always"}`, []byte(b.String())
}

// Rules returns SHACL rules (Turtle) and a graph (N-Triples, which is
// Turtle too) they blow up: a chain of n nodes, and a triple rule that
// links every node of the chain to every other, n*n triples. The nodes'
// IRIs are longer than pad bytes.
func Rules(n, pad int) (shapes string, data []byte) {
	var b strings.Builder
	long := "http://example.org/" + strings.Repeat("x", pad) + "/"
	for i := range n {
		fmt.Fprintf(&b, "<%s%d> <http://example.org/p> <%s%d> .\n", long, i, long, i+1)
	}
	return `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:Everyone a sh:NodeShape ;
  sh:targetNode <` + long + `0> ;
  sh:rule [ a sh:TripleRule ;
    sh:subject [ sh:path [ sh:zeroOrMorePath [ sh:alternativePath ( ex:p [ sh:inversePath ex:p ] ) ] ] ] ;
    sh:predicate ex:q ;
    sh:object [ sh:path [ sh:zeroOrMorePath [ sh:alternativePath ( ex:p [ sh:inversePath ex:p ] ) ] ] ] ] .
`, []byte(b.String())
}
