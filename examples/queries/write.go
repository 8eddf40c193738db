package queries

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/rdf/sparql/results"
)

// WriteText writes each answer as a table: a title line naming the query
// and its figure, a header of its variables, a row per solution (an IRI or a
// literal as its text, a blank node as _:label, an unbound variable empty,
// escaped to be safe on a terminal), and the number of rows.
func WriteText(w io.Writer, answers []Answer) error {
	for i, a := range answers {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "%s: %s\n", a.Query.Name, a.Query.Title); err != nil {
			return err
		}
		var table bytes.Buffer
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(a.Vars, "\t"))
		for _, row := range a.Rows {
			cells := make([]string, len(row))
			for j, t := range row {
				cells[j] = termsafe.Escape(text(t))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		// A last column of empty cells leaves spaces at the ends of lines.
		for line := range strings.Lines(table.String()) {
			if _, err := io.WriteString(w, strings.TrimRight(line, " \n")+"\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "(%d %s)\n", len(a.Rows), plural(len(a.Rows), "row")); err != nil {
			return err
		}
	}
	return nil
}

// text is the text of a term in a table.
func text(t rdf.Term) string {
	switch t.Kind {
	case rdf.Blank:
		return "_:" + t.Value
	}
	return t.Value
}

func plural(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}

// jsonAnswer is one answer in WriteJSON's output: a SPARQL 1.1 JSON results
// document with the query's name and title beside head and results.
type jsonAnswer struct {
	Name    string          `json:"name"`
	Title   string          `json:"title"`
	Head    json.RawMessage `json:"head"`
	Results json.RawMessage `json:"results"`
}

// WriteJSON writes the answers as one JSON object, {"queries": [...]}, in
// which each query is an object: its "name" and "title", and the "head" and
// "results" of its rows as SPARQL 1.1 Query Results JSON gives them.
func WriteJSON(w io.Writer, answers []Answer) error {
	out := struct {
		Queries []jsonAnswer `json:"queries"`
	}{Queries: []jsonAnswer{}}
	for _, a := range answers {
		var buf bytes.Buffer
		rw, err := results.NewWriter(&buf, results.JSON, a.Vars)
		if err != nil {
			return fmt.Errorf("%s: %w", a.Query.Name, err)
		}
		for _, row := range a.Rows {
			if err := rw.Write(row); err != nil {
				return fmt.Errorf("%s: %w", a.Query.Name, err)
			}
		}
		if err := rw.Close(); err != nil {
			return fmt.Errorf("%s: %w", a.Query.Name, err)
		}
		ja := jsonAnswer{Name: a.Query.Name, Title: a.Query.Title}
		if err := json.Unmarshal(buf.Bytes(), &ja); err != nil {
			return fmt.Errorf("%s: %w", a.Query.Name, err)
		}
		out.Queries = append(out.Queries, ja)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
