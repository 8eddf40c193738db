package ogcdiff

import (
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// compareRegister compares two register.json files: the register's
// members (modified and tooling aside), then each block by id, member by
// member.
func compareRegister(p string, got, want []byte) []Diff {
	g, w, diffs, ok := decodeBoth(p, got, want)
	if !ok {
		return diffs
	}
	gm, _ := g.(map[string]any)
	wm, _ := w.(map[string]any)
	var out []Diff
	skip := map[string]bool{"modified": true, "tooling": true, "bblocks": true}
	for _, k := range sortedKeys(wm) {
		if skip[k] {
			continue
		}
		if _, ok := gm[k]; !ok {
			out = append(out, Diff{Path: p, Kind: Missing, Where: k, Detail: short(wm[k])})
		} else if !reflect.DeepEqual(gm[k], wm[k]) {
			out = append(out, Diff{Path: p, Kind: Differs, Where: k, Detail: "jrpcld " + short(gm[k]) + ", the tool chain " + short(wm[k])})
		}
	}
	for _, k := range sortedKeys(gm) {
		if _, ok := wm[k]; !ok && !skip[k] {
			out = append(out, Diff{Path: p, Kind: Extra, Where: k, Detail: short(gm[k])})
		}
	}
	byID := func(v any) (map[string]map[string]any, []string) {
		m := map[string]map[string]any{}
		var order []string
		list, _ := v.([]any)
		for _, b := range list {
			bm, _ := b.(map[string]any)
			id, _ := bm["itemIdentifier"].(string)
			m[id] = bm
			order = append(order, id)
		}
		return m, order
	}
	gb, gorder := byID(gm["bblocks"])
	wb, worder := byID(wm["bblocks"])
	for _, id := range worder {
		b, ok := gb[id]
		if !ok {
			out = append(out, Diff{Path: p, Kind: Missing, Where: "bblocks[" + id + "]"})
			continue
		}
		sortStrings(b, "dependsOn")
		sortStrings(wb[id], "dependsOn")
		out = append(out, compareMembers(p, "bblocks["+id+"]", b, wb[id])...)
	}
	for _, id := range gorder {
		if _, ok := wb[id]; !ok {
			out = append(out, Diff{Path: p, Kind: Extra, Where: "bblocks[" + id + "]"})
		}
	}
	// The order of the blocks both list.
	var gcommon, wcommon []string
	for _, id := range gorder {
		if wb[id] != nil {
			gcommon = append(gcommon, id)
		}
	}
	for _, id := range worder {
		if gb[id] != nil {
			wcommon = append(wcommon, id)
		}
	}
	if !slices.Equal(gcommon, wcommon) {
		out = append(out, Diff{Path: p, Kind: Differs, Where: "bblocks order", Detail: fmt.Sprintf("jrpcld %v, the tool chain %v", gcommon, wcommon)})
	}
	return out
}

// compareMembers compares two objects member by member: one difference
// per member, named where/member.
func compareMembers(p, where string, g, w map[string]any) []Diff {
	var out []Diff
	for _, k := range sortedKeys(w) {
		gv, ok := g[k]
		switch {
		case !ok:
			out = append(out, Diff{Path: p, Kind: Missing, Where: where + "/" + k, Detail: short(w[k])})
		case !reflect.DeepEqual(gv, w[k]):
			d := jsonDiffs(p, where+"/"+k, gv, w[k])
			detail := "jrpcld " + short(gv) + ", the tool chain " + short(w[k])
			if len(d) > 0 && d[0].Where != where+"/"+k {
				detail = d[0].String()
			}
			out = append(out, Diff{Path: p, Kind: Differs, Where: where + "/" + k, Detail: detail})
		}
	}
	for _, k := range sortedKeys(g) {
		if _, ok := w[k]; !ok {
			out = append(out, Diff{Path: p, Kind: Extra, Where: where + "/" + k, Detail: short(g[k])})
		}
	}
	return out
}

// compareBlockReport compares two _report.json files.
func compareBlockReport(p, where string, got, want []byte) []Diff {
	g, w, diffs, ok := decodeBoth(p, got, want)
	if !ok {
		return diffs
	}
	gm, _ := g.(map[string]any)
	wm, _ := w.(map[string]any)
	return compareReportValue(p, where, gm, wm)
}

func compareReportValue(p, where string, g, w map[string]any) []Diff {
	var out []Diff
	at := func(s string) string {
		if where == "" {
			return s
		}
		return where + "." + s
	}
	for _, k := range []string{"title", "bblockName", "bblockId", "result", "counts"} {
		if !reflect.DeepEqual(g[k], w[k]) {
			out = append(out, Diff{Path: p, Kind: Differs, Where: at(k), Detail: "jrpcld " + short(g[k]) + ", the tool chain " + short(w[k])})
		}
	}
	gg, _ := g["globalErrors"].(map[string]any)
	wg, _ := w["globalErrors"].(map[string]any)
	for _, s := range unionKeys(gg, wg) {
		ge, gok := gg[s].(map[string]any)
		we, wok := wg[s].(map[string]any)
		switch {
		case !gok:
			out = append(out, Diff{Path: p, Kind: Missing, Where: at("globalErrors." + s), Detail: normEntry(s, we)})
		case !wok:
			out = append(out, Diff{Path: p, Kind: Extra, Where: at("globalErrors." + s), Detail: normEntry(s, ge)})
		case normEntry(s, ge) != normEntry(s, we):
			out = append(out, Diff{Path: p, Kind: Differs, Where: at("globalErrors." + s), Detail: "jrpcld " + normEntry(s, ge) + ", the tool chain " + normEntry(s, we)})
		}
	}
	items := func(v any) (map[string]map[string]any, []string) {
		m := map[string]map[string]any{}
		var order []string
		list, _ := v.([]any)
		for _, x := range list {
			it, _ := x.(map[string]any)
			src, _ := it["source"].(map[string]any)
			f, _ := src["filename"].(string)
			m[f] = it
			order = append(order, f)
		}
		return m, order
	}
	gi, gorder := items(g["items"])
	wi, worder := items(w["items"])
	for _, f := range worder {
		it, ok := gi[f]
		name := at("item[" + f + "]")
		if !ok {
			out = append(out, Diff{Path: p, Kind: Missing, Where: name})
			continue
		}
		out = append(out, compareItem(p, name, it, wi[f])...)
	}
	for _, f := range gorder {
		if _, ok := wi[f]; !ok {
			out = append(out, Diff{Path: p, Kind: Extra, Where: at("item[" + f + "]")})
		}
	}
	return out
}

func compareItem(p, where string, g, w map[string]any) []Diff {
	var out []Diff
	gs, _ := g["source"].(map[string]any)
	ws, _ := w["source"].(map[string]any)
	out = append(out, compareMembers(p, where+".source", gs, ws)...)
	if !reflect.DeepEqual(g["result"], w["result"]) {
		out = append(out, Diff{Path: p, Kind: Differs, Where: where + ".result", Detail: fmt.Sprintf("jrpcld %v, the tool chain %v", g["result"], w["result"])})
	}
	sections := func(v any) map[string][]string {
		m := map[string][]string{}
		list, _ := v.([]any)
		for _, x := range list {
			s, _ := x.(map[string]any)
			name, _ := s["name"].(string)
			es, _ := s["entries"].([]any)
			for _, e := range es {
				em, _ := e.(map[string]any)
				m[name] = append(m[name], normEntry(name, em))
			}
		}
		return m
	}
	gsec, wsec := sections(g["sections"]), sections(w["sections"])
	for _, s := range unionKeys(anyMap(gsec), anyMap(wsec)) {
		ge, we := gsec[s], wsec[s]
		if slices.Equal(ge, we) {
			continue
		}
		kind := Differs
		switch {
		case len(ge) == 0:
			kind = Missing
		case len(we) == 0:
			kind = Extra
		}
		out = append(out, Diff{Path: p, Kind: kind, Where: where + "." + s, Detail: fmt.Sprintf("jrpcld %s, the tool chain %s", entryList(ge), entryList(we))})
	}
	return out
}

func entryList(es []string) string {
	if len(es) == 0 {
		return "none"
	}
	return "[" + strings.Join(es, "; ") + "]"
}

func unionKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// bnodeRE finds blank node labels, which differ between builds.
var bnodeRE = regexp.MustCompile(`_:[A-Za-z0-9_.-]+`)

// normEntry renders the parts of an entry that are to be equal: its op,
// error flag and payload, and its message unless Python wrote it.
func normEntry(section string, e map[string]any) string {
	op, _ := e["op"].(string)
	_, exception := e["exception"]
	pythonText := exception || section == "UNKNOWN" || op == "shacl-report" ||
		op == "validation" && e["result"] == false || op == "jsonld-uplift-error"
	var parts []string
	if op != "" {
		parts = append(parts, "op="+op)
	}
	if e["isError"] == true {
		parts = append(parts, "error")
	}
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "op", "isError", "message":
			continue
		case "errorMessage", "graph":
			if pythonText {
				continue
			}
		}
		v := e[k]
		if k == "focusNodes" {
			data, _ := json.Marshal(v)
			v = bnodeRE.ReplaceAllString(string(data), "_:b")
		}
		parts = append(parts, k+"="+short(v))
	}
	if !pythonText {
		msg, _ := e["message"].(string)
		parts = append(parts, fmt.Sprintf("%q", clip(bnodeRE.ReplaceAllString(msg, "_:b"))))
	}
	return strings.Join(parts, " ")
}

// compareRegisterReport compares two tests/report.json files: the summary,
// then each block's report.
func compareRegisterReport(p string, got, want []byte) []Diff {
	g, w, diffs, ok := decodeBoth(p, got, want)
	if !ok {
		return diffs
	}
	gm, _ := g.(map[string]any)
	wm, _ := w.(map[string]any)
	var out []Diff
	if !reflect.DeepEqual(gm["summary"], wm["summary"]) {
		out = append(out, Diff{Path: p, Kind: Differs, Where: "summary", Detail: "jrpcld " + short(gm["summary"]) + ", the tool chain " + short(wm["summary"])})
	}
	gb, _ := gm["bblocks"].(map[string]any)
	wb, _ := wm["bblocks"].(map[string]any)
	for _, id := range unionKeys(gb, wb) {
		gr, gok := gb[id].(map[string]any)
		wr, wok := wb[id].(map[string]any)
		switch {
		case !gok:
			out = append(out, Diff{Path: p, Kind: Missing, Where: "bblocks[" + id + "]"})
		case !wok:
			out = append(out, Diff{Path: p, Kind: Extra, Where: "bblocks[" + id + "]"})
		default:
			out = append(out, compareReportValue(p, "bblocks["+id+"]", gr, wr)...)
		}
	}
	return out
}

// BlockOf returns the output path of block id (its id without the first
// component, dots as slashes), for the known-difference lists.
func BlockOf(id string) string {
	_, rest, _ := strings.Cut(id, ".")
	return path.Join(strings.Split(rest, ".")...)
}
