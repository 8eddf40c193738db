package stats

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// scan counts the envelope log file independently of the package: a plain
// decode of each line, and pairing by direction and id (the corpus never
// reuses an id while a request is open, which scan checks).
type scanned struct {
	kinds    map[string]map[string]float64
	requests map[string]float64
	notifs   map[string]float64
	tools    map[string][2]float64
	latency  map[string][]float64
	errors   map[string]float64 // "code method"
}

func scan(t *testing.T, file string) scanned {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := scanned{kinds: map[string]map[string]float64{}, requests: map[string]float64{}, notifs: map[string]float64{},
		tools: map[string][2]float64{}, latency: map[string][]float64{}, errors: map[string]float64{}}
	type open struct {
		method, tool string
		ts           time.Time
	}
	pending := map[string]open{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var env struct {
			Dir string
			TS  string
			Msg map[string]any
		}
		if err := json.Unmarshal(sc.Bytes(), &env); err != nil {
			t.Fatal(err)
		}
		m := env.Msg
		ts, err := time.Parse(time.RFC3339Nano, env.TS)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprint(m["id"])
		kind := ""
		switch {
		case m["method"] != nil && m["id"] != nil:
			kind = "request"
			method := m["method"].(string)
			s.requests[method]++
			o := open{method: method, ts: ts}
			if method == "tools/call" {
				o.tool = m["params"].(map[string]any)["name"].(string)
				c := s.tools[o.tool]
				c[0]++
				s.tools[o.tool] = c
			}
			key := env.Dir + " " + id
			if _, dup := pending[key]; dup {
				t.Fatalf("%s reuses open id %s: scan cannot pair it", file, key)
			}
			pending[key] = o
		case m["method"] != nil:
			kind = "notification"
			s.notifs[m["method"].(string)]++
		default:
			kind = "response"
			from := map[string]string{"c2s": "s2c", "s2c": "c2s"}[env.Dir]
			o, ok := pending[from+" "+id]
			if !ok {
				t.Fatalf("%s: orphan response %s", file, id)
			}
			delete(pending, from+" "+id)
			s.latency[o.method] = append(s.latency[o.method], float64(ts.Sub(o.ts).Milliseconds()))
			if e, ok := m["error"].(map[string]any); ok {
				kind = "error-response"
				s.errors[fmt.Sprintf("%v %s", e["code"], o.method)]++
			} else if res, ok := m["result"].(map[string]any); ok && o.tool != "" && res["isError"] == true {
				c := s.tools[o.tool]
				c[1]++
				s.tools[o.tool] = c
			}
		}
		if s.kinds[kind] == nil {
			s.kinds[kind] = map[string]float64{}
		}
		s.kinds[kind][env.Dir]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCorpusIndependently compares the JSON figures of stats for the
// recorded sessions with an independent scan, and with what the corpus's
// SOURCE.txt says the sessions hold.
func TestCorpusIndependently(t *testing.T) {
	corpus := shared.Dir(t, "corpus", "mcp-sessions")
	files, _ := filepath.Glob(filepath.Join(corpus, "*.dir.jsonl"))
	if len(files) != 3 {
		t.Fatalf("%d envelope logs in the corpus", len(files))
	}
	report := NewReport()
	for _, file := range files {
		l := readLogFile(t, file, Options{})
		report.Add(l)
		got := toJSON(t, l.Stats).(map[string]any)
		want := scan(t, file)
		name := filepath.Base(file)
		same := func(what string, got, want any) {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: stats %v, scan %v", name, what, got, want)
			}
		}
		kinds := map[string]map[string]float64{}
		for k, dirs := range obj(got["kinds"]) {
			kinds[k] = map[string]float64{}
			for d, n := range obj(dirs) {
				kinds[k][d] = num(n)
			}
		}
		same("kinds", kinds, want.kinds)
		counts := func(m any) map[string]float64 {
			out := map[string]float64{}
			for k, v := range obj(m) {
				out[k] = num(v)
			}
			return out
		}
		same("requests", counts(got["requests"]), want.requests)
		same("notifications", counts(got["notifications"]), want.notifs)
		tools := map[string][2]float64{}
		for k, v := range obj(got["tools"]) {
			tools[k] = [2]float64{num(obj(v)["calls"]), num(obj(v)["isError"])}
		}
		same("tools", tools, want.tools)
		errs := map[string]float64{}
		for _, e := range got["errors"].([]any) {
			errs[fmt.Sprintf("%v %s", obj(e)["code"], obj(e)["method"])] = num(obj(e)["count"])
		}
		same("errors", errs, want.errors)
		for m, values := range want.latency {
			sort.Float64s(values)
			l := obj(obj(got["latency"])[m])
			same("latency of "+m, []float64{num(l["count"]), num(l["p50"]), num(l["p90"]), num(l["p99"]), num(l["max"])},
				[]float64{float64(len(values)), nearestRank(values, 50), nearestRank(values, 90), nearestRank(values, 99), values[len(values)-1]})
		}
		same("timed methods", len(obj(got["latency"])), len(want.latency))
	}
	// SOURCE.txt: 25 tools/call, a -32601 error response, tool results with
	// isError: true; server-to-client requests reuse the client's ids (in
	// the other direction, which is no reuse).
	total := report.Total
	calls, isError := 0, 0
	for _, tl := range total.Tools {
		calls += tl.Calls
		isError += tl.IsError
	}
	if calls != 25 || total.Requests["tools/call"] != 25 || isError == 0 {
		t.Errorf("tools/call: %d calls by tool, %d requests, %d isError", calls, total.Requests["tools/call"], isError)
	}
	if len(total.Errors) != 1 || total.Errors[0].Code != -32601 {
		t.Errorf("errors %+v", total.Errors)
	}
	for d, p := range total.Pairing {
		if p.ReusedIDs != 0 || p.OrphanResponses != 0 || p.Unanswered != 0 {
			t.Errorf("%s: %+v", d, p)
		}
	}
	if total.Pairing[DirS2C] == nil || total.Pairing[DirS2C].Requests == 0 {
		t.Errorf("no server-to-client requests: %+v", total.Pairing)
	}
	var text strings.Builder
	if err := report.WriteText(&text); err != nil || !strings.Contains(text.String(), "total of 3 logs: 112 messages") {
		t.Errorf("text report: %v\n%s", err, text.String())
	}
}
