package gsp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/gsp"
)

// Put replaces one named graph with what the function writes; here a
// stand-in for a store prints the request it gets.
func ExamplePut() {
	store := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Printf("%s %s?%s\nContent-Type: %s\nContent-Length: %d\n%s", r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), r.ContentLength, body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer store.Close()

	writeLog := func(w io.Writer) error {
		nt := rdf.NewNTriplesWriter(w)
		if err := nt.WriteGroup([]rdf.Triple{rdf.T(rdf.NewIRI("http://example.com/log#c2s-1"), rdf.JRPCNS+"hasMethod", rdf.NewLiteral("ping", rdf.XSDString))}); err != nil {
			return err
		}
		return nt.Flush()
	}
	up, err := gsp.Put(context.Background(), store.URL+"/store", "http://example.com/log", rdf.NTriples, writeLog)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Printf("stored: %d statement, %d bytes, answered %d\n", up.Statements, up.Bytes, up.StatusCode)
	// Output:
	// PUT /store?graph=http%3A%2F%2Fexample.com%2Flog
	// Content-Type: application/n-triples
	// Content-Length: 81
	// <http://example.com/log#c2s-1> <http://json-rpc.org/ontology#hasMethod> "ping" .
	// stored: 1 statement, 81 bytes, answered 204
}
