package site

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/docs"
)

// tabAnchors maps the tabs of a block in the OGC viewer (bblocks://ID/TAB,
// .../bblock/ID/TAB) to the sections of jrpcld's page of the block.
var tabAnchors = map[string]string{
	"about": "description", "examples": "examples", "json-schema": "schema", "jsonld-context": "context",
	"ontology": "ontology", "validation": "report",
}

// viewerPageRE matches the path of a block's page in the OGC viewer,
// bblock/ID or bblock/ID/TAB, from the viewer's root.
var viewerPageRE = regexp.MustCompile(`^bblock/([^/]+)(?:/([^/]+))?/?$`)

// Built is what a link of a register's Markdown texts can lead to: the
// pages of the blocks built and the files of the sources tree published
// with the build.
type Built struct {
	// Blocks are the blocks built, in build order.
	Blocks []BuiltBlock
	// Published reports whether the file p of the sources tree (a path
	// from the repository root) is published with the build, at the same
	// path below the output folder.
	Published func(p string) bool
	// Exists reports whether the sources tree has the file p.
	Exists func(p string) bool
	// NameOf returns the name of a block depended on that was not built
	// (an import, a block a filter left out), "" when unknown.
	NameOf func(id string) string
}

// BuiltBlock is a block built, as links see it.
type BuiltBlock struct {
	ID, Name string
	Deps     []string // the ids of the blocks it depends on
	Dir      string   // its folder in the sources tree, from the repository root
	Page     string   // its page, below the output folder
	// Sections are the sections its page shows (description, examples,
	// schema, context, ontology, report).
	Sections map[string]bool
}

// Links returns the LinkFunc of Markdown shown on the page from (a path
// below the output folder) and written in the folder dir of the sources
// tree (a path from the repository root: _sources/PATH for a block's
// description and examples, "" for bblocks-config.yaml's texts). A link
// leads where a reader of the sources means it to:
//   - a bblocks:// URI, to the page of a block the register built (its
//     section for a viewer tab: bblocks://ID/examples);
//   - a path from dir: to the page of the block whose folder it names, to
//     the index filtered by the blocks of a folder that holds blocks, or to
//     the file published with the sources;
//   - a path from the page's place in the OGC viewer (bblock/ID from the
//     register's description, a sibling block's ID from a block's), to the
//     block's page;
//   - any other URL with a scheme, as written.
//
// A link that leads to nothing the build published is shown as text; when
// it leads nowhere in the sources either (a file missing from them, a path
// from the web server's root, a block not built), missing is told the
// destination and why.
func (bt *Built) Links(from, dir string, missing func(dest, why string)) docs.LinkFunc {
	viewerDir := "" // the folder of the page in the viewer
	if from != "index.html" {
		viewerDir = "bblock"
	}
	return func(dest string) (string, bool) {
		if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "//") {
			return dest, true
		}
		if rest, ok := strings.CutPrefix(dest, bblock.BlockRefPrefix); ok {
			id, tab, _ := strings.Cut(strings.Trim(rest, "/"), "/")
			if href, ok := bt.pageOf(from, id, tab); ok {
				return href, true
			}
			missing(dest, "no block "+id+" in this build")
			return "", false
		}
		if scheme := strings.IndexByte(dest, ':'); scheme > 0 && !strings.ContainsAny(dest[:scheme], "/?#") {
			return dest, true
		}
		ref, frag, hasFrag := strings.Cut(dest, "#")
		ref, _, _ = strings.Cut(ref, "?")
		if strings.HasPrefix(ref, "/") {
			missing(dest, "a path from the web server's root, which the build does not know")
			return "", false
		}
		p, err := url.PathUnescape(ref)
		if err != nil {
			p = ref
		}
		withFrag := func(href string) string {
			if hasFrag {
				return href + "#" + frag
			}
			return href
		}
		target := path.Join(dir, p)
		if target != ".." && !strings.HasPrefix(target, "../") {
			if id, ok := bt.blockOfFolder(target); ok {
				href, _ := bt.pageOf(from, id, "")
				return href, true
			}
			if prefix, ok := bt.folderOfBlocks(target); ok {
				return docs.RelLink(from, "index.html") + "#q=" + url.PathEscape(prefix), true
			}
			if strings.HasPrefix(target, bblock.SourcesDir+"/") && bt.Published(target) {
				return withFrag(docs.RelLink(from, target)), true
			}
		}
		if m := viewerPageRE.FindStringSubmatch(path.Join(viewerDir, p)); m != nil {
			tab := m[2]
			if hasFrag && tab == "" {
				tab = frag
			}
			if href, ok := bt.pageOf(from, m[1], tab); ok {
				return href, true
			}
		}
		switch {
		case target == ".." || strings.HasPrefix(target, "../"):
			missing(dest, "outside the register's sources")
		case bt.Exists(target):
			// There, but not published with this build: jrpcld's matter,
			// not the author's; the text stands, without a word.
		default:
			missing(dest, "no file "+target+" in the register's sources")
		}
		return "", false
	}
}

// pageOf returns the link from the page from to the page of the built
// block id, at the section of its page that the viewer's tab shows.
func (bt *Built) pageOf(from, id, tab string) (string, bool) {
	b := bt.block(id)
	if b == nil {
		return "", false
	}
	href := docs.RelLink(from, b.Page)
	if anchor := tabAnchors[tab]; b.Sections[anchor] {
		href += "#" + anchor
	}
	return href, true
}

// blockOfFolder returns the block built from the folder p of the sources
// tree (a path from the repository root).
func (bt *Built) blockOfFolder(p string) (string, bool) {
	for _, b := range bt.Blocks {
		if b.Dir == p {
			return b.ID, true
		}
	}
	return "", false
}

// folderOfBlocks returns the start that the identifiers of the blocks built
// from below the folder p of the sources tree share, when p holds some.
func (bt *Built) folderOfBlocks(p string) (string, bool) {
	if !strings.HasPrefix(p, bblock.SourcesDir+"/") {
		return "", false
	}
	for _, b := range bt.Blocks {
		below, ok := strings.CutPrefix(b.Dir, p+"/")
		if !ok {
			continue
		}
		if prefix, ok := strings.CutSuffix(b.ID, strings.ReplaceAll(below, "/", ".")); ok {
			return prefix, true
		}
	}
	return "", false
}

// Deps returns the blocks ids as the page from lists them, each linked
// to its page when it was built.
func (bt *Built) Deps(from string, ids []string) []Dep {
	var out []Dep
	for _, d := range ids {
		l := Dep{ID: d}
		if b := bt.block(d); b != nil {
			l.Page = docs.RelLink(from, b.Page)
		}
		out = append(out, l)
	}
	return out
}

// Graph returns the nodes of a dependency graph on the page from: every
// block built, for the index (id ""); for block id's page, the block, what
// it depends on (near and far, blocks not built included) and the built
// blocks that depend on it. Nodes come in build order, links relative to
// from.
func (bt *Built) Graph(from, id string) []GraphNode {
	deps := map[string][]string{}
	for _, b := range bt.Blocks {
		deps[b.ID] = b.Deps
	}
	keep := map[string]bool{}
	if id == "" {
		for _, b := range bt.Blocks {
			keep[b.ID] = true
		}
	} else {
		var walk func(string)
		walk = func(d string) {
			if keep[d] {
				return
			}
			keep[d] = true
			for _, e := range deps[d] {
				walk(e)
			}
		}
		walk(id)
		for _, b := range bt.Blocks {
			if slices.Contains(b.Deps, id) {
				keep[b.ID] = true
			}
		}
	}
	var nodes []GraphNode
	added := map[string]bool{}
	add := func(n GraphNode) {
		if keep[n.ID] && !added[n.ID] {
			added[n.ID] = true
			nodes = append(nodes, n)
		}
	}
	for _, b := range bt.Blocks {
		add(GraphNode{ID: b.ID, Name: b.Name, Page: docs.RelLink(from, b.Page), Deps: b.Deps, Current: b.ID == id})
	}
	// The blocks depended on that were not built: imports, and blocks of
	// the register left out by a filter.
	for _, b := range bt.Blocks {
		for _, d := range b.Deps {
			if bt.block(d) != nil || !keep[b.ID] {
				continue
			}
			keep[d] = true
			n := GraphNode{ID: d, Deps: deps[d]}
			if bt.NameOf != nil {
				n.Name = bt.NameOf(d)
			}
			add(n)
		}
	}
	return nodes
}

// block returns the built block id, or nil.
func (bt *Built) block(id string) *BuiltBlock {
	for i := range bt.Blocks {
		if bt.Blocks[i].ID == id {
			return &bt.Blocks[i]
		}
	}
	return nil
}
