package catalog_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/jrpcld/jrpcld/register/catalog"
)

// The register's own uplift of a register.json with one block, published
// at https://example.org/reg/.
func ExampleWrite() {
	register := `{
  "name": "Example",
  "baseURL": "https://example.org/reg/",
  "bblocks": [{"itemIdentifier": "ex.thing", "name": "Thing", "itemClass": "schema", "status": "stable"}]
}`
	files, err := catalog.Write([]byte(register), catalog.Options{Base: "https://example.org/reg"})
	if err != nil {
		log.Fatal(err)
	}
	// The statements, after the prefix block.
	_, statements, _ := strings.Cut(string(files.Turtle), "\n\n")
	fmt.Print(statements)
	// Output:
	// <bblocks://ex.thing> a bblocks:Schema , skos:Concept , dcat:Dataset , bblocks:BBlock ;
	//     rdfs:label "Thing" ;
	//     skos:inScheme <https://example.org/reg/> ;
	//     skos:prefLabel "Thing" ;
	//     skos:topConceptOf <https://example.org/reg/> ;
	//     bblocks:status <http://www.opengis.net/def/status/stable> .
	// <https://example.org/reg/> a skos:ConceptScheme , dcat:Catalog , bblocks:BBlocksRegister ;
	//     rdfs:label "Building Blocks - Example" ;
	//     skos:prefLabel "Building Blocks - Example" ;
	//     skos:hasTopConcept <bblocks://ex.thing> .
}
