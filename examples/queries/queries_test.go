package queries

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql"
)

// TestPackIsTheFolder holds the pack to the .rq files of this folder: each
// file is in it once, and its embedded text is the file's.
func TestPackIsTheFolder(t *testing.T) {
	onDisk, err := filepath.Glob("*.rq")
	if err != nil || len(onDisk) == 0 {
		t.Fatalf("no .rq files here: %v", err)
	}
	var names []string
	for _, q := range Pack() {
		names = append(names, q.Name)
		want, err := os.ReadFile(q.Name)
		if err != nil {
			t.Errorf("%s: in the pack, not in the folder", q.Name)
			continue
		}
		if q.Text != string(want) {
			t.Errorf("%s: the embedded text is not the file's", q.Name)
		}
		if q.Title == "" {
			t.Errorf("%s: no title", q.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, onDisk) {
		t.Errorf("pack %v, folder %v", names, onDisk)
	}
}

// TestPackOrderIsTheDocs holds the pack's order to the table of
// docs/stats.md, which names the queries in the order stats --sparql prints
// them.
func TestPackOrderIsTheDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "stats.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| query | figure |")
	if !ok {
		t.Fatal("docs/stats.md has no table of queries")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var inDocs []string
	for _, f := range strings.Split(table, "`") {
		if strings.HasSuffix(f, ".rq") {
			inDocs = append(inDocs, f)
		}
	}
	var names []string
	for _, q := range Pack() {
		names = append(names, q.Name)
	}
	if !slices.Equal(inDocs, names) {
		t.Errorf("docs/stats.md lists %v, the pack is %v", inDocs, names)
	}
}

var (
	log1 = rdf.NewIRI("file:///logs/a.jsonl")
	tab  = rdf.NewLiteral("a\tb\x1b[2J", rdf.XSDString)
)

// answers are two hand-made answers for the writers.
func answers() []Answer {
	pack := Pack()
	return []Answer{
		{Query: pack[0], Vars: []string{"log", "kind", "count"}, Rows: [][]rdf.Term{
			{log1, rdf.NewLiteral("request", rdf.XSDString), rdf.NewLiteral("3", rdf.XSDInteger)},
			{log1, tab, {}},
		}},
		{Query: pack[1], Vars: []string{"log", "method"}},
	}
}

func TestWriteText(t *testing.T) {
	var out bytes.Buffer
	if err := WriteText(&out, answers()); err != nil {
		t.Fatal(err)
	}
	want := "kinds.rq: messages by kind and direction\n" +
		"log                   kind         count\n" +
		"file:///logs/a.jsonl  request      3\n" +
		"file:///logs/a.jsonl  a\\tb\\x1b[2J\n" +
		"(2 rows)\n" +
		"\n" +
		"requests.rq: requests per method\n" +
		"log  method\n" +
		"(0 rows)\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteJSON(t *testing.T) {
	var out bytes.Buffer
	if err := WriteJSON(&out, answers()); err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	var want any
	wantText := `{"queries": [
	  {"name": "kinds.rq", "title": "messages by kind and direction",
	   "head": {"vars": ["log", "kind", "count"]},
	   "results": {"bindings": [
	     {"log": {"type": "uri", "value": "file:///logs/a.jsonl"},
	      "kind": {"type": "literal", "value": "request"},
	      "count": {"type": "literal", "datatype": "http://www.w3.org/2001/XMLSchema#integer", "value": "3"}},
	     {"log": {"type": "uri", "value": "file:///logs/a.jsonl"},
	      "kind": {"type": "literal", "value": "a\tb\u001b[2J"}}]}},
	  {"name": "requests.rq", "title": "requests per method",
	   "head": {"vars": ["log", "method"]}, "results": {"bindings": []}}]}`
	if err := json.Unmarshal([]byte(wantText), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s", out.Bytes())
	}
}

// dataset returns a dataset of the Turtle text graph.
func dataset(t *testing.T, graph string) *sparql.Dataset {
	t.Helper()
	qs, _, err := rdf.Parse([]byte(graph), rdf.Turtle, "")
	if err != nil {
		t.Fatal(err)
	}
	ds := sparql.NewDataset()
	if err := ds.Add(qs...); err != nil {
		t.Fatal(err)
	}
	return ds
}

const graph = `@prefix jrpc: <http://json-rpc.org/ontology#> .
@prefix jlog: <https://jrpcld.github.io/ns/log#> .
<urn:m1> a jrpc:Request ; jlog:inLog <urn:log> ; jlog:direction jlog:ClientToServer ;
  jrpc:method "ping" .
<urn:m2> a jrpc:Response ; jlog:inLog <urn:log> ; jlog:direction jlog:ServerToClient ;
  jlog:answers <urn:m1> .
`

// TestRun runs the pack on a graph of one request answered by one response,
// written here as jrpcld writes it, and checks the rows of two queries,
// worked out by hand.
func TestRun(t *testing.T) {
	got, err := Run(context.Background(), dataset(t, graph), sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(pack) {
		t.Fatalf("%d answers, want %d", len(got), len(pack))
	}
	rows := func(a Answer) [][]string {
		var out [][]string
		for _, r := range a.Rows {
			var s []string
			for _, t := range r {
				s = append(s, t.Value)
			}
			out = append(out, s)
		}
		return out
	}
	wantKinds := [][]string{{"urn:log", "request", "c2s", "1"}, {"urn:log", "response", "s2c", "1"}}
	if k := rows(got[0]); !reflect.DeepEqual(k, wantKinds) {
		t.Errorf("kinds.rq: %v, want %v", k, wantKinds)
	}
	wantPairing := [][]string{{"urn:log", "c2s", "1", "1", "0"}}
	if p := rows(got[3]); !reflect.DeepEqual(p, wantPairing) {
		t.Errorf("pairing.rq: %v, want %v", p, wantPairing)
	}
}

// TestRunError checks that a failed query is named: kinds.rq holds more
// than one solution at once.
func TestRunError(t *testing.T) {
	_, err := Run(context.Background(), dataset(t, graph), sparql.Options{MaxSolutions: 1})
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Name != "kinds.rq" || !strings.Contains(err.Error(), "kinds.rq") {
		t.Errorf("error %v, want one naming kinds.rq", err)
	}
}
