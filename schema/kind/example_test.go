package kind_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema"
	"github.com/jrpcld/jrpcld/schema/kind"
)

// A caller branches on the kind of each violation rather than on its words.
func Example() {
	dir, err := os.MkdirTemp("", "kind")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "s.json")
	doc := `{"properties":{"params":{"required":["name"],"properties":{"size":{"type":"integer","minimum":1}}}}}`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		panic(err)
	}
	s, err := schema.CompileFile(file)
	if err != nil {
		panic(err)
	}
	v, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","method":"make","params":{"size":0}}`))
	if err != nil {
		panic(err)
	}
	for _, d := range s.Validate(v) {
		switch d.Violation {
		case kind.Required:
			fmt.Println("ask for what is missing:", d.Message)
		case kind.Minimum, kind.Maximum:
			fmt.Println("out of range at", d.Pointer)
		default:
			fmt.Println(d.Violation, d)
		}
	}
	// Output:
	// ask for what is missing: missing property 'name'
	// out of range at /params/size
}
