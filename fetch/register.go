package fetch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/regcache"
)

// RegisterResult is what Register fetched.
type RegisterResult struct {
	URL    string   // the register.json's
	Dir    string   // the cached copy
	Blocks int      // blocks the register lists
	Files  []string // the files fetched, as paths in Dir
	// Warnings name the files that could not be fetched, and the URLs
	// left out because they lie outside the register.
	Warnings []string
}

// Register downloads the register.json at u and what a register that
// imports it reads of each of its blocks: the annotated schemas (each
// media type), the context and the ontology, and the files of the register
// the schemas refer to ($ref) and the contexts name. A URL outside the
// register (not below the folder of its register.json, or below its
// baseURL when that holds the register.json or its build/ folder) is not
// followed. The copy replaces the register's folder in the cache
// (regcache) only once complete: a reader sees the old copy or the new.
func (f *Fetcher) Register(ctx context.Context, u string) (*RegisterResult, error) {
	u = regcache.Normalize(u)
	if !regcache.IsURL(u) {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL", u)
	}
	data, err := f.Get(ctx, u)
	if err != nil {
		return nil, err
	}
	var doc struct {
		BaseURL string            `json:"baseURL"`
		Blocks  []json.RawMessage `json:"bblocks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Blocks == nil {
		var list []json.RawMessage
		if json.Unmarshal(data, &list) != nil {
			return nil, fmt.Errorf("%s is not a building-block register (a register.json with \"bblocks\")", u)
		}
		doc.Blocks = list
	}
	root := regcache.MirrorRoot(u, doc.BaseURL)
	res := &RegisterResult{URL: u, Blocks: len(doc.Blocks)}
	files := map[string][]byte{} // path below root -> content
	rel := func(v string) (string, bool) {
		rest, ok := strings.CutPrefix(v, root)
		if !ok || rest == "" {
			return "", false
		}
		p := path.Clean(rest)
		if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
			return "", false
		}
		return p, true
	}
	regPath, _ := rel(u)
	files[regPath] = data

	base, _ := url.Parse(u)
	var queue []string
	seen := map[string]bool{}
	enqueue := func(from *url.URL, link string) {
		if link == "" || strings.HasPrefix(link, "#") {
			return
		}
		lu, err := url.Parse(link)
		if err != nil {
			return
		}
		abs := from.ResolveReference(lu)
		abs.Fragment, abs.RawFragment = "", ""
		s := abs.String()
		if seen[s] {
			return
		}
		seen[s] = true
		if _, ok := rel(s); !ok {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s is outside the register (%s): not fetched", s, root))
			return
		}
		queue = append(queue, s)
	}
	for _, raw := range doc.Blocks {
		var b struct {
			Schema    json.RawMessage `json:"schema"`
			LdContext string          `json:"ldContext"`
			Ontology  string          `json:"ontology"`
		}
		if json.Unmarshal(raw, &b) != nil {
			continue
		}
		var byType map[string]string
		var one string
		if json.Unmarshal(b.Schema, &byType) == nil {
			keys := make([]string, 0, len(byType))
			for k := range byType {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				enqueue(base, byType[k])
			}
		} else if json.Unmarshal(b.Schema, &one) == nil {
			enqueue(base, one)
		}
		enqueue(base, b.LdContext)
		enqueue(base, b.Ontology)
	}
	for len(queue) > 0 {
		link := queue[0]
		queue = queue[1:]
		data, err := f.Get(ctx, link)
		if err != nil {
			res.Warnings = append(res.Warnings, err.Error())
			continue
		}
		p, _ := rel(link)
		files[p] = data
		from, _ := url.Parse(link)
		for _, ref := range references(p, data) {
			enqueue(from, ref)
		}
	}
	dir, err := install(u, files)
	if err != nil {
		return nil, err
	}
	res.Dir = dir
	for p := range files {
		res.Files = append(res.Files, p)
	}
	sort.Strings(res.Files)
	return res, nil
}

// references returns the links a schema ($ref) or a context (@context and
// @import given as strings) names; nothing for other files.
func references(name string, data []byte) []string {
	ext := path.Ext(name)
	if ext != ".json" && ext != ".yaml" && ext != ".yml" && ext != ".jsonld" {
		return nil
	}
	v, err := bblock.DecodeDoc(name, data)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case string:
			if key == "$ref" || (ext == ".jsonld" && (key == "@context" || key == "@import")) {
				out = append(out, x)
			}
		}
	}
	walk(v, "")
	sort.Strings(out)
	return out
}

// install writes files (paths below the register's mirror root) into a new
// folder of the cache and puts it in the place of the register's folder.
func install(u string, files map[string][]byte) (string, error) {
	root, err := regcache.Root()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	key := regcache.Key(u)
	tmp, err := os.MkdirTemp(root, "."+key+".tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	for p, data := range files {
		dst := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", err
		}
	}
	final := filepath.Join(root, key)
	old := ""
	if _, err := os.Stat(final); err == nil {
		old = tmp + ".old"
		if err := os.Rename(final, old); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if old != "" {
			os.Rename(old, final)
		}
		return "", err
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return final, nil
}
