package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/jrpcld/jrpcld/fetch/regcache"
	"go.yaml.in/yaml/v3"
)

// Limits bound what Register downloads, so that no register, however
// large or however it refers to itself, can fill the disk or run for ever.
// A zero field takes its default.
type Limits struct {
	// Files is the most files, register.json included (DefaultMaxFiles).
	Files int
	// Bytes is the most bytes of all files together (DefaultMaxBytes).
	Bytes int64
	// RefDepth is the most references ($ref, and in a context @context and
	// @import) from the register to a file: its blocks' schemas, contexts
	// and ontologies are 1 reference away (DefaultMaxRefDepth).
	RefDepth int
	// YAMLBytes is the largest YAML file read for the references it holds,
	// which YAML needs whole in memory (about 25 times its size):
	// DefaultMaxYAMLBytes. JSON is read as a stream, whatever its size.
	YAMLBytes int64
}

// The default Limits: far beyond a register's needs (the OGC's MCP
// register has 8 files, 500 kB, its schemas 2 references deep, its
// largest YAML 130 kB).
const (
	DefaultMaxFiles     = 5000
	DefaultMaxBytes     = 512 << 20
	DefaultMaxRefDepth  = 32
	DefaultMaxYAMLBytes = 1 << 20
)

// maxWarnings is the most URLs outside the register a fetch names; it
// counts the others.
const maxWarnings = 100

// RegisterResult is what Register fetched.
type RegisterResult struct {
	URL    string   // the register.json's
	Dir    string   // the cached copy
	Blocks int      // blocks the register lists
	Files  []string // the files fetched, as paths in Dir
	// Warnings name the URLs left out because they lie outside the
	// register.
	Warnings []string
}

// Register downloads the register.json at u and what a register that
// imports it reads of each of its blocks: the annotated schemas (each
// media type), the context and the ontology, and the files of the register
// the schemas refer to ($ref) and the contexts name. A URL outside the
// register (not below the folder of its register.json, or below its
// baseURL when that holds the register.json or its build/ folder) is not
// followed.
//
// It is all or nothing: the files go to a new folder of the cache as they
// arrive (regcache.Stage), which becomes the register's copy only once
// every file is there. Any failure (a file that cannot be downloaded, the
// Fetcher's Timeout or Limits passed, ctx done) removes it and returns an
// error saying the cache is unchanged: an earlier copy stays the one read.
func (f *Fetcher) Register(ctx context.Context, u string) (*RegisterResult, error) {
	u = regcache.Normalize(u)
	if !regcache.IsURL(u) {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL", u)
	}
	st, err := regcache.Stage(u)
	if err != nil {
		return nil, err
	}
	w := &walk{f: f, lim: f.limits(), dir: st.Dir, seen: map[string]bool{}, warned: map[string]bool{}}
	err = w.register(ctx, u)
	if err == nil {
		err = ctx.Err() // stopped as the last file ended
	}
	if err == nil {
		w.res.Dir, err = st.Commit(u)
	}
	if err != nil {
		st.Abort()
		return nil, fmt.Errorf("register %s not fetched, the cache is unchanged: %w", u, err)
	}
	sort.Strings(w.res.Files)
	return w.res, nil
}

// limits returns the Fetcher's Limits, defaults filled in.
func (f *Fetcher) limits() Limits {
	l := f.Limits
	if l.Files <= 0 {
		l.Files = DefaultMaxFiles
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultMaxBytes
	}
	if l.RefDepth <= 0 {
		l.RefDepth = DefaultMaxRefDepth
	}
	if l.YAMLBytes <= 0 {
		l.YAMLBytes = DefaultMaxYAMLBytes
	}
	return l
}

// walk is one fetch of a register: the files to fetch, breadth first,
// and what was fetched.
type walk struct {
	f      *Fetcher
	lim    Limits
	dir    string // the staging folder
	root   string // the URL prefix the copy mirrors
	res    *RegisterResult
	bytes  int64
	queue  []link
	seen   map[string]bool // paths in the register, fetched or queued
	warned map[string]bool // URLs outside, named in a warning
	more   int             // references outside not named
}

// link is a file to fetch: its URL, and how many references away from the
// register it is.
type link struct {
	url   string
	depth int
}

// register fetches the register.json at u, then its files.
func (w *walk) register(ctx context.Context, u string) error {
	tmp := filepath.Join(w.dir, ".register.json")
	if err := w.download(ctx, u, tmp); err != nil {
		return err
	}
	reg := &registerDoc{}
	if err := scanFile(tmp, reg); err != nil || !reg.isRegister {
		if err != nil && !errors.Is(err, errNotJSON) {
			return withURL(u, err)
		}
		return fmt.Errorf("%s is not a building-block register (a register.json with \"bblocks\")", u)
	}
	w.root = regcache.MirrorRoot(u, reg.baseURL)
	w.res = &RegisterResult{URL: u, Blocks: reg.blocks}
	regPath, _ := w.rel(u)
	w.seen[regPath] = true
	// Read again, now that the root is known, for the links of the blocks.
	base, _ := url.Parse(u)
	reg.link = func(ref string) error { return w.enqueue(base, ref, u, 1) }
	if err := scanFile(tmp, reg); err != nil {
		return withURL(u, err)
	}
	if err := w.place(tmp, regPath); err != nil {
		return err
	}
	for len(w.queue) > 0 {
		l := w.queue[0]
		w.queue = w.queue[1:]
		p, _ := w.rel(l.url)
		dst := filepath.Join(w.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := w.download(ctx, l.url, dst); err != nil {
			return err
		}
		w.res.Files = append(w.res.Files, p)
		from, _ := url.Parse(l.url)
		err := w.references(l.url, dst, func(ref string) error { return w.enqueue(from, ref, l.url, l.depth+1) })
		if err != nil {
			return err
		}
	}
	if w.more > 0 {
		w.res.Warnings = append(w.res.Warnings, fmt.Sprintf("%d more references outside the register (%s): not fetched", w.more, w.root))
	}
	return nil
}

// place moves the file at tmp to p, a path below the register's root.
func (w *walk) place(tmp, p string) error {
	dst := filepath.Join(w.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	w.res.Files = append(w.res.Files, p)
	return os.Rename(tmp, dst)
}

// rel returns the path below the register's root of the URL v, and false
// for a URL outside it.
func (w *walk) rel(v string) (string, bool) {
	rest, ok := strings.CutPrefix(v, w.root)
	if !ok || rest == "" {
		return "", false
	}
	p := path.Clean(rest)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) || p == regcache.CompleteMark {
		return "", false
	}
	return p, true
}

// enqueue queues the file link names (relative to from, in the file
// named by) unless it was seen, or lies outside the register (a warning).
// Past the limits on files and on the depth of references, it is an error.
func (w *walk) enqueue(from *url.URL, ref, by string, depth int) error {
	if ref == "" || strings.HasPrefix(ref, "#") {
		return nil
	}
	lu, err := url.Parse(ref)
	if err != nil {
		return nil
	}
	abs := from.ResolveReference(lu)
	abs.Fragment, abs.RawFragment = "", ""
	s := abs.String()
	p, ok := w.rel(s)
	if w.seen[p] {
		return nil
	}
	if !ok {
		switch {
		case w.warned[s]:
		case len(w.warned) < maxWarnings:
			w.warned[s] = true
			w.res.Warnings = append(w.res.Warnings, fmt.Sprintf("%s is outside the register (%s): not fetched", s, w.root))
		default:
			w.more++
		}
		return nil
	}
	if depth > w.lim.RefDepth {
		return &LimitError{URL: s, Flag: "--max-ref-depth",
			What: fmt.Sprintf("%d references away from the register (named by %s), more than %d", depth, by, w.lim.RefDepth)}
	}
	if len(w.seen) >= w.lim.Files {
		return &LimitError{URL: s, Flag: "--max-files", What: fmt.Sprintf("more than %d files (named by %s)", w.lim.Files, by)}
	}
	w.seen[p] = true
	w.queue = append(w.queue, link{url: s, depth: depth})
	return nil
}

// download writes the file at u to dst, synced to disk, within what is
// left of the limit on bytes.
func (w *walk) download(ctx context.Context, u, dst string) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	n, err := w.f.download(ctx, u, out, w.lim.Bytes-w.bytes)
	w.bytes += n
	if errors.Is(err, errTooBig) {
		err = &LimitError{URL: u, Flag: "--max-bytes", What: fmt.Sprintf("more than %d bytes in all", w.lim.Bytes)}
	}
	if err == nil {
		err = out.Sync()
	}
	return errors.Join(err, out.Close())
}

// references tells found of each link the file at p, downloaded from u,
// names: a schema's $ref; a context's too, and its @context and @import
// given as strings; nothing for other files.
func (w *walk) references(u, p string, found func(string) error) error {
	var keys []string
	switch path.Ext(u) {
	case ".json":
		keys = []string{"$ref"}
	case ".jsonld":
		keys = []string{"$ref", "@context", "@import"}
	case ".yaml", ".yml":
		return w.yamlReferences(u, p, found)
	default:
		return nil
	}
	err := scanFile(p, &refDoc{keys: keys, link: found})
	if errors.Is(err, errNotJSON) {
		return nil // kept as it is, and read as nothing
	}
	return withURL(u, err)
}

// withURL returns err, but for a LimitError (which names its own URL)
// with the URL u before it.
func withURL(u string, err error) error {
	var le *LimitError
	if err == nil || errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("%s: %w", u, err)
}

// yamlReferences tells found of the references ($ref) of the YAML file at
// p, downloaded from u, read whole.
func (w *walk) yamlReferences(u, p string, found func(string) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, w.lim.YAMLBytes+1))
	if err != nil {
		return err
	}
	if int64(len(data)) > w.lim.YAMLBytes {
		return &LimitError{URL: u, Flag: "--max-yaml-bytes",
			What: fmt.Sprintf("a YAML file of more than %d bytes, read whole for its references", w.lim.YAMLBytes)}
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil // not YAML: kept as it is, and read as nothing
	}
	data = nil
	return yamlRefs(&doc, "", found)
}

// yamlRefs tells found of the strings of members named $ref below n, or of
// sequences that are, key being the name of the member n is the value of.
// An alias is followed only as the value of a $ref: what it names is
// walked where it is written (and so no alias bomb goes off).
func yamlRefs(n *yaml.Node, key string, found func(string) error) error {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if err := yamlRefs(c, key, found); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := ""
			if n.Content[i].Kind == yaml.ScalarNode {
				k = n.Content[i].Value
			}
			if err := yamlRefs(n.Content[i+1], k, found); err != nil {
				return err
			}
		}
	case yaml.AliasNode:
		if key == "$ref" && n.Alias != nil && n.Alias.Kind == yaml.ScalarNode {
			return yamlRefs(n.Alias, key, found)
		}
	case yaml.ScalarNode:
		if key == "$ref" && n.ShortTag() == "!!str" {
			return found(n.Value)
		}
	}
	return nil
}

// scanFile reads the JSON file at p as a stream (scanJSON).
func scanFile(p string, v visitor) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return scanJSON(f, v)
}

// registerDoc reads a register.json: its baseURL and its blocks, or, when
// link is set, the links each block names (schema, by media type or
// alone, ldContext and ontology), in the order written. A register is an
// object with a "bblocks" array, or an array of blocks.
type registerDoc struct {
	baseURL    string
	isRegister bool
	blocks     int
	link       func(string) error
}

// block returns the part of path below a block of the register: nil when
// path is not below one.
func (r *registerDoc) block(path []frame) []frame {
	switch {
	case len(path) >= 2 && !path[0].array && path[0].key == "bblocks" && path[1].array:
		return path[2:]
	case len(path) >= 1 && path[0].array:
		return path[1:]
	}
	return nil
}

func (r *registerDoc) opened(path []frame) {
	switch b := r.block(path); {
	case b != nil && len(b) == 0:
		r.isRegister = true
	case len(b) == 1 && !b[0].array:
		r.blocks++
	}
}

func (r *registerDoc) wants(path []frame) bool {
	if len(path) == 1 && !path[0].array && path[0].key == "baseURL" {
		return true
	}
	b := r.block(path)
	if r.link == nil || len(b) == 0 || b[0].array {
		return false
	}
	switch k := b[0].key; len(b) {
	case 1:
		return k == "schema" || k == "ldContext" || k == "ontology"
	case 2:
		return k == "schema" && !b[1].array
	}
	return false
}

func (r *registerDoc) found(path []frame, s string) error {
	if len(path) == 1 {
		r.baseURL = s
		return nil
	}
	return r.link(s)
}

// refDoc reads the references of a schema or context: the strings of
// members named as one of keys, or of arrays that are.
type refDoc struct {
	keys []string
	link func(string) error
}

func (r *refDoc) opened([]frame) {}

func (r *refDoc) wants(path []frame) bool {
	for i := len(path) - 1; i >= 0; i-- {
		if !path[i].array {
			return slices.Contains(r.keys, path[i].key)
		}
	}
	return false
}

func (r *refDoc) found(_ []frame, s string) error { return r.link(s) }
