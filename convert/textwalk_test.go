package convert

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"

	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// textCases are messages whose params and result the text walk takes, or
// must give up on: escapes, white space, member order, names it does not
// read, numbers, lists, dropped members, nested @json values.
var textCases = []string{
	`{"jsonrpc":"2.0","method":"first"}`, // the reader reads the first line untyped
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a\"b\\c\u00e9\ud83c\udf89\n\/\b\f\r\t\u0000","title":"plain é 🎉","version":""}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params": { "name" : "x" , "capabilities" : { "roots" : [ { "listChanged" : true } , null ] , "sampling" : { "b" : 1 , "a" : [ ] } } } }`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"z":1,"name":"n","a":{"b":[1,{"c":-2.5e3}],"d":"x"},"y":[true,null,"s"]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"z":1e400,"name":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":[1e400]},"name":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"@id":"x","name":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"@id":"x"},"name":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"na\u006de":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"é":1,"name":"n","":2}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"size":12,"priority":0.5,"progress":1.0,"maxTokens":1e2,"temperature":-0,"total":12345678901234567890,"minimum":-7}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"size":1e400}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}},null,{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"image","data":"AA=="}]}],"stopSequences":["a","b","a"],"audience":"user","values":[]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"enum":[["a"]],"name":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":["a","b",null,["c",1,true]],"title":{"name":"inner"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"b":1,"a":[1.5,"x"]},"arguments":{"x":"y"},"name":"n"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"x":1.0},"arguments":{"\u0061":1}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"ref":"r1","resource":"a b","uri":"file:///x","progressToken":"t"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"ref":"r1","Implementation":"x","progressToken":7}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[1,"a",{"name":"x"},[2],null]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"required":"true","isError":true,"listChanged":1,"subscribe":"no","hasMore":false}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"\ud800"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"bad \xff utf-8"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","name":"b"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":{"c":{"d":{"e":{"name":"deep","f":[[[[{"g":1}]]]]}}}}}}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"unknown":{"data":{"a":1.0}},"count":3}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"unknown":{"data":{"a":1}},"inner":{"name":"n","ref":"q"},"steps":["s1",{"count":2},null]}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"unknown":{"x":[{"@y":1}]}}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"reset":{"only":1,"count":2},"when":"2020-01-01T00:00:00Z","kind":"k","ratio":0.5,"flag":"true"}}`,
	`{"jsonrpc":"2.0","id":2,"result":"text"}`,
	`{"jsonrpc":"2.0","id":2,"result":1e400}`,
	`{"jsonrpc":"2.0","id":2,"result":[1,{"count":"1"}]}`,
	`{"jsonrpc":"2.0","id":2,"result":null}`,
	`{"dir":"c2s","ts":"2026-01-01T00:00:00Z","msg":{"jsonrpc":"2.0","id":"x","method":"m","params":{"name":"in an envelope"}}}`,
}

// walkLogs returns the logs the text walk is tested on: the cases above,
// the quirk cases, the corpus and the logs of the command's and stats'
// tests.
func walkLogs(t *testing.T) map[string]string {
	logs := map[string]string{
		"text":  strings.Join(textCases, "\n") + "\n",
		"cases": strings.Join(engineCases, "\n") + "\n",
	}
	files := shared.CorpusFiles(t)
	for _, dir := range []string{"../cmd/jrpcld/testdata", "../jsonrpc/stats/testdata"} {
		more, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if err != nil || len(more) == 0 {
			t.Fatalf("%s: no logs (%v)", dir, err)
		}
		files = append(files, more...)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(file)] = string(data)
	}
	return logs
}

// TestTextWalk: for every message read typed, the text walk gives what the
// decoded walk gives (triples, notices, changes, whether a patch is
// needed) wherever it does not give up, with strings pointing into the
// text (an arena) and without; and it gives up seldom on the corpus.
func TestTextWalk(t *testing.T) {
	// The least share of the corpus messages read typed that the text walk
	// must take: the MCP block walks its params; the test context walks
	// results, and gives up on the objects it drops.
	floor := map[string]int{"mcp": 90, "test": 25}
	total := map[string][2]int{}
	for lname, log := range walkLogs(t) {
		for name, m := range engineMappings(t, "http://example.com/logs/x/") {
			typed, walked := compareTextWalk(t, name+" "+lname, m, log)
			t.Logf("%s %s: %d read typed, %d walked", name, lname, typed, walked)
			if strings.HasSuffix(lname, ".dir.jsonl") {
				n := total[name]
				total[name] = [2]int{n[0] + typed, n[1] + walked}
			}
		}
	}
	for name, pc := range floor {
		if n := total[name]; n[0] < 100 || n[1]*100 < n[0]*pc {
			t.Errorf("%s: the text walk takes %d of %d corpus messages read typed", name, n[1], n[0])
		}
	}
}

// compareTextWalk reads log typed and, for each record read so, compares
// the text walk of its message with the decoded walk; it returns how many
// records were read typed, and how many of them the text walk took.
func compareTextWalk(t testing.TB, what string, m *Mapping, log string) (typed, walked int) {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(log), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for b := range r.Batches(rpclog.BatchOptions{Classify: true, Lazy: m.lazyKeys(), Typed: true}, nil) {
		for _, rec := range b.Records {
			line++
			if rec.Record == nil || rec.Object == nil {
				continue
			}
			typed++
			node := fmt.Sprintf("http://example.com/logs/x#c2s-%d", line)
			for _, withArena := range []bool{false, true} {
				var arenas [2][]byte
				var ap, wap *[]byte
				if withArena {
					ap, wap = &arenas[0], &arenas[1]
				}
				want, wLeft, wChanges, wWhole, wFix, wErr := m.mapInto(nil, m.typedValue(rec.Object), node, "p-", wap)
				got, left, changes, whole, fix, ok := m.compiledWalk(nil, m.typedMembers(nil, rec.Object), node, "p-", nil, ap)
				if !ok {
					continue
				}
				if withArena {
					walked++
				}
				where := fmt.Sprintf("%s line %d (arena %v)", what, line, withArena)
				switch {
				case wErr != nil:
					t.Errorf("%s: the decoded walk fails (%v) where the text walk maps", where, wErr)
				case !reflect.DeepEqual(got, want):
					t.Errorf("%s: triples\n text    %v\n decoded %v", where, got, want)
				case !reflect.DeepEqual(left, wLeft) || !reflect.DeepEqual(changes, wChanges):
					t.Errorf("%s: notices\n text    %v %v\n decoded %v %v", where, left, changes, wLeft, wChanges)
				case whole != wWhole || fix != wFix:
					t.Errorf("%s: whole %v, patch %q; decoded %v, %q", where, whole, fix, wWhole, wFix)
				}
			}
		}
		b.Done()
	}
	return typed, walked
}
