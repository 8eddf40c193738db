package register

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/jrpcld/jrpcld/bblock"
)

// buildTree builds the register in memory as Build writes it to a folder:
// every file by its slash-separated path below the output folder (the
// repository root with a BuildPath), the copy of the sources included.
func buildTree(t *testing.T, reg *bblock.Register, opts Options) (map[string][]byte, *Result) {
	t.Helper()
	if opts.Sandbox == nil {
		opts.Sandbox = testSandbox
	}
	files := map[string][]byte{}
	res, err := buildTo(reg, opts, func(name string, data []byte) error {
		files[name] = data
		return nil
	}, sourcesCopied)
	if err != nil {
		t.Fatal(err)
	}
	return files, res
}

// brokenLink is a link of an output file that names no file of the output.
type brokenLink struct {
	from, where, link string
}

func (b brokenLink) String() string { return fmt.Sprintf("%s %s: %s", b.from, b.where, b.link) }

// linkChecker finds the links of a build's output files that lead to no
// file of the output, as a static web server (GitHub Pages) would serve
// the output folder at base.
type linkChecker struct {
	files     map[string][]byte
	dirs      map[string]bool // every folder that holds a file, "" for the root
	reg       *bblock.Register
	buildPath string // the build's folder below the output folder, "" for the output folder itself
	base      string // the URL the output folder is published at, ending in "/"
	// authored are the relative links the register's authors wrote in
	// Markdown (descriptions, examples' content), which the pages show as
	// written: whether they lead anywhere is the authors' matter.
	authored map[string]bool
	broken   []brokenLink
}

func newLinkChecker(reg *bblock.Register, files map[string][]byte, buildPath, base string) *linkChecker {
	c := &linkChecker{reg: reg, files: files, dirs: map[string]bool{"": true}, buildPath: buildPath, base: base, authored: map[string]bool{}}
	texts := []string{reg.Config.Abstract, reg.Config.Description}
	for p, data := range files {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			c.dirs[d] = true
		}
		if strings.HasPrefix(p, bblock.SourcesDir+"/") {
			texts = append(texts, string(data))
		}
	}
	for _, text := range texts {
		for _, m := range mdLinkRE.FindAllStringSubmatch(text, -1) {
			c.authored[m[1]] = true
		}
	}
	return c
}

// exists reports whether the output has the file p (a path below the
// output folder, or a folder when it ends in "/"), as a static server
// finds it: a folder serves when it holds anything, and the page
// NAME.html serves for NAME, as GitHub Pages serves it (the viewer's
// links to a block's page, bblock/ID).
func (c *linkChecker) exists(p string) bool {
	p = strings.TrimPrefix(p, "./")
	if p == "" || strings.HasSuffix(p, "/") {
		return c.dirs[strings.TrimSuffix(p, "/")]
	}
	if _, ok := c.files[p]; ok {
		return true
	}
	if _, ok := c.files[p+".html"]; ok {
		return true
	}
	return c.dirs[p]
}

// checkURL records u, found in the file from at where, when it is below
// the base URL and names nothing of the output.
func (c *linkChecker) checkURL(from, where, u string) {
	rest, ok := strings.CutPrefix(u, c.base)
	if !ok {
		return
	}
	rest, _, _ = strings.Cut(rest, "#")
	rest, _, _ = strings.Cut(rest, "?")
	p, err := url.PathUnescape(rest)
	if err == nil && !c.exists(p) && !c.built(p) && (!strings.HasPrefix(p, bblock.SourcesDir+"/") || !c.inSources(p)) {
		// A file the authors name that their sources lack, or one beside
		// the sources, which jrpcld neither reads nor publishes
		// (docs/ogc.md, departure 12): the block says so.
		return
	}
	if err != nil || !c.exists(p) {
		c.broken = append(c.broken, brokenLink{from, where, u})
	}
}

// built reports whether p, a path below the output folder, is a file
// the build writes (rather than one of the repository it is published
// with: the sources, or a file beside them).
func (c *linkChecker) built(p string) bool {
	top, _, _ := strings.Cut(p, "/")
	if top == "bblock" || p == "index.html" {
		return true // the pages
	}
	if c.buildPath != "" {
		return top == c.buildPath
	}
	return top != bblock.SourcesDir && strings.Contains(p, "/") || top == "register.json" || strings.HasPrefix(top, "bblocks.") || top == "register-summary.md"
}

// inSources reports whether the register's source tree has the file p.
func (c *linkChecker) inSources(p string) bool {
	_, err := fs.Stat(c.reg.FS, path.Clean(p))
	return err == nil
}

// checkRelative records the relative link l of the page from when it
// names nothing of the output.
func (c *linkChecker) checkRelative(from, l string) {
	if l == "" || strings.HasPrefix(l, "#") || strings.Contains(l, ":") || strings.HasPrefix(l, "/") {
		return // a fragment, a URL, or a path from the server's root
	}
	rest, _, _ := strings.Cut(l, "#")
	rest, _, _ = strings.Cut(rest, "?")
	p, err := url.PathUnescape(rest)
	target := path.Join(path.Dir(from), p)
	if strings.HasSuffix(p, "/") {
		target += "/"
	}
	if err != nil || target == ".." || strings.HasPrefix(target, "../") || !c.exists(target) {
		c.broken = append(c.broken, brokenLink{from, "link", l})
	}
}

// skippedMembers hold text rather than links: the annotated schema and
// the examples' code, whose IRIs name the data's things, not files.
var skippedMembers = map[string]bool{"annotatedSchema": true, "code": true, "remoteCacheDir": true}

// checkJSON checks every string below the base URL in the JSON (or YAML)
// document of the file from.
func (c *linkChecker) checkJSON(from string) {
	var v any
	var err error
	if path.Ext(from) == ".yaml" {
		err = yaml.Unmarshal(c.files[from], &v)
	} else {
		err = json.Unmarshal(c.files[from], &v)
	}
	if err != nil {
		c.broken = append(c.broken, brokenLink{from, "", "not JSON or YAML: " + err.Error()})
		return
	}
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !skippedMembers[k] {
					walk(ptr+"/"+k, x)
				}
			}
		case map[any]any: // YAML with keys that are not strings (response codes)
			for k, x := range v {
				walk(fmt.Sprintf("%s/%v", ptr, k), x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", ptr, i), x)
			}
		case string:
			c.checkURL(from, ptr, v)
		}
	}
	walk("", v)
}

var (
	linkAttrRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	mdLinkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	htmlEntity = strings.NewReplacer("&amp;", "&", "&#43;", "+", "&#34;", `"`, "&#39;", "'")
)

// checkPage checks the links of an HTML page: relative ones, and absolute
// ones below the base URL.
func (c *linkChecker) checkPage(from string) {
	for _, m := range linkAttrRE.FindAllStringSubmatch(string(c.files[from]), -1) {
		l := htmlEntity.Replace(m[1])
		if c.base != "" && strings.HasPrefix(l, c.base) {
			c.checkURL(from, "link", l)
		} else if !c.authored[l] {
			c.checkRelative(from, l)
		}
	}
}

// checkMarkdown checks the links of a Markdown page below the base URL
// (its other links come from the authors' descriptions).
func (c *linkChecker) checkMarkdown(from string) {
	for _, m := range mdLinkRE.FindAllStringSubmatch(string(c.files[from]), -1) {
		c.checkURL(from, "link", m[1])
	}
}

// checkBuild checks register.json, the documentation and the pages of the
// build, and that the viewer finds each import register.json lists in
// remoteCacheDir, unless the build's errors say how to fetch it (res).
func (c *linkChecker) checkBuild(res *Result) {
	in := func(p string) string { return path.Join(c.buildPath, p) }
	var names []string
	for p := range c.files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		rel, ok := strings.CutPrefix(p, in("")+"/")
		if c.buildPath == "" {
			rel, ok = p, true
		}
		switch {
		case ok && (rel == "register.json" || strings.HasPrefix(rel, "generateddocs/json-full/") && strings.HasSuffix(rel, ".json")):
			c.checkJSON(p)
		case ok && strings.HasPrefix(rel, "annotated/") && (path.Base(rel) == "schema.json" || path.Base(rel) == "schema.yaml" || path.Base(rel) == "openapi.yaml"):
			c.checkJSON(p) // the references of the annotated schemas and OpenAPI documents
		case ok && strings.HasPrefix(rel, "generateddocs/markdown/") && strings.HasSuffix(rel, ".md"):
			c.checkMarkdown(p)
		case strings.HasSuffix(p, ".html") && !strings.HasPrefix(p, bblock.SourcesDir+"/"):
			c.checkPage(p)
		}
	}
	var reg struct {
		Imports        []string `json:"imports"`
		RemoteCacheDir string   `json:"remoteCacheDir"`
	}
	if err := json.Unmarshal(c.files[in("register.json")], &reg); err != nil {
		c.broken = append(c.broken, brokenLink{in("register.json"), "", err.Error()})
		return
	}
	for _, u := range reg.Imports {
		sum := sha256.Sum256([]byte(u))
		cached := reg.RemoteCacheDir + "/" + hex.EncodeToString(sum[:])
		if slices.ContainsFunc(res.Errors, func(e string) bool { return strings.Contains(e, `"jrpcld fetch `+u+`"`) }) {
			if rest, ok := strings.CutPrefix(cached, c.base); ok && c.exists(rest) {
				c.broken = append(c.broken, brokenLink{in("register.json"), "import " + u, "cached, yet the build says it has no copy"})
			}
			continue
		}
		c.checkURL(in("register.json"), "/remoteCacheDir for import "+u, cached)
	}
}

// TestEveryLinkLeadsToAFile builds every register of ../shared (the MCP
// and tutorial registers, the real registers of ogc-full-current, the
// testdata registers and the embedded block) laid out both ways: alone at
// the base URL, and as the OGC GitHub Action publishes a repository (the
// build in build/; the real registers of ogc-full-current this way only). Every URL below the base URL in register.json, the
// full JSON and Markdown documentation, the annotated schemas and OpenAPI
// documents, every link of the pages, and the
// copy of each import register.json lists, must name a file of the output;
// an import ../shared holds no copy of is an error of the build that says
// how to fetch it.
func TestEveryLinkLeadsToAFile(t *testing.T) {
	const base = "https://links.invalid/reg/"
	// The registers whose imports ../shared holds copies of, in their
	// published builds' annotated/_cache.
	published := map[string]string{"ogc-full/mcp": "ogc-mcp-2025-09", "ogc-full/tutorial": "bblocks-tutorial"}
	for _, r := range ogcRegisters(t) {
		t.Run(r.String(), func(t *testing.T) {
			t.Parallel()
			reg, err := r.load()
			if full, ok := published[r.String()]; ok {
				reg, err = bblock.LoadRegisterDir(r.src, &bblock.Options{Imports: fullBuildImports(t, full)})
			}
			if err != nil {
				t.Fatal(err)
			}
			layouts := []string{"", "build"}
			if r.set == "ogc-full-current" {
				layouts = []string{"build"} // the large ones: as they are published, to keep the test short
			}
			for _, bp := range layouts {
				opts := r.opts
				opts.BaseURL, opts.BuildPath, opts.ViewerURL = base, bp, ""
				files, res := buildTree(t, reg, opts)
				c := newLinkChecker(reg, files, bp, base)
				c.checkBuild(res)
				for i, b := range c.broken {
					if i == 20 {
						t.Errorf("build path %q: ... and %d more", bp, len(c.broken)-i)
						break
					}
					t.Errorf("build path %q: %s", bp, b)
				}
			}
		})
	}
}
