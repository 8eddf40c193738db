//go:build jena

package sparql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/jenatest"
)

// jenaGenPeers returns Apache Jena's ARQ: with the build tag jena (.ci/run
// sets it) TestGeneratedQueries runs the cases in Jena too, all in one
// Java process (testdata/GenDiffJena.java), which the JDK compiles first:
// seconds that the plain suite leaves out.
func jenaGenPeers() []genPeer { return []genPeer{{"jena", false, runJena}} }

// runJena writes the datasets and queries to files, runs them in ARQ and
// reads the answers back.
func runJena(t *testing.T, ctx context.Context, datasets []string, cases []genCase) []genAnswer {
	cp := jenatest.Classpath(t)
	dir := t.TempDir()
	for i, d := range datasets {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("data-%d.nt", i)), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var list strings.Builder
	for _, c := range cases {
		q := filepath.Join(dir, fmt.Sprintf("case-%d.rq", c.id))
		if err := os.WriteFile(q, []byte(c.query), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&list, "%s\t%s\t%s\t%s\n", filepath.Join(dir, fmt.Sprintf("data-%d.nt", c.data)), q,
			filepath.Join(dir, fmt.Sprintf("answer-%d", c.id)), c.form)
	}
	listFile := filepath.Join(dir, "cases.tsv")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "GenDiffJena.java"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jenatest.Source(t, ctx, cp, script, listFile); err != nil {
		t.Fatal(err)
	}
	res := make([]genAnswer, len(cases))
	for i, c := range cases {
		out := filepath.Join(dir, fmt.Sprintf("answer-%d", c.id))
		if msg, err := os.ReadFile(out + ".err"); err == nil {
			res[i].err = errors.New(string(msg))
			continue
		}
		data, err := os.ReadFile(out)
		switch {
		case err != nil:
			res[i].err = fmt.Errorf("no answer from Jena: %v", err)
		case c.form == "CONSTRUCT":
			res[i] = readGraph(string(data))
		default:
			res[i] = readTable(data)
		}
	}
	return res
}
