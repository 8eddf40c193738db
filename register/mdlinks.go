package register

import (
	"io/fs"
	"net/url"
	"path"
	"regexp"
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

// mdLinks returns the LinkFunc of Markdown shown on the page from (a path
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
func (bd *builder) mdLinks(from, dir string, missing func(dest, why string)) docs.LinkFunc {
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
			if href, ok := bd.pageOf(from, id, tab); ok {
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
			if id, ok := bd.blockOfFolder(target); ok {
				href, _ := bd.pageOf(from, id, "")
				return href, true
			}
			if prefix, ok := bd.folderOfBlocks(target); ok {
				return docs.RelLink(from, "index.html") + "#q=" + url.PathEscape(prefix), true
			}
			if bd.sourcePublished(target) {
				return withFrag(docs.RelLink(from, target)), true
			}
		}
		if m := viewerPageRE.FindStringSubmatch(path.Join(viewerDir, p)); m != nil {
			tab := m[2]
			if hasFrag && tab == "" {
				tab = frag
			}
			if href, ok := bd.pageOf(from, m[1], tab); ok {
				return href, true
			}
		}
		switch {
		case target == ".." || strings.HasPrefix(target, "../"):
			missing(dest, "outside the register's sources")
		case bd.sourceExists(target):
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
func (bd *builder) pageOf(from, id, tab string) (string, bool) {
	o := bd.built[id]
	if o == nil {
		return "", false
	}
	href := docs.RelLink(from, o.page())
	anchor := tabAnchors[tab]
	has := map[string]bool{"description": o.description != "", "examples": len(o.examples) > 0, "schema": o.schemaYAML != nil,
		"context": o.context != nil, "ontology": o.ontology != nil || o.ontologyNote != "", "report": true}
	if has[anchor] {
		href += "#" + anchor
	}
	return href, true
}

// blockOfFolder returns the block built from the folder p of the sources
// tree (a path from the repository root).
func (bd *builder) blockOfFolder(p string) (string, bool) {
	for _, o := range bd.blocks {
		if path.Join(bblock.SourcesDir, o.b.Path) == p {
			return o.b.ID, true
		}
	}
	return "", false
}

// folderOfBlocks returns the start that the identifiers of the blocks built
// from below the folder p of the sources tree share, when p holds some.
func (bd *builder) folderOfBlocks(p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, bblock.SourcesDir+"/")
	if !ok {
		return "", false
	}
	for _, o := range bd.blocks {
		below, ok := strings.CutPrefix(o.b.Path, rel+"/")
		if !ok {
			continue
		}
		if prefix, ok := strings.CutSuffix(o.b.ID, strings.ReplaceAll(below, "/", ".")); ok {
			return prefix, true
		}
	}
	return "", false
}

// sourcePublished reports whether the file p of the sources tree (a path
// from the repository root) is published with the build: the build wrote
// its copy at the same path below the output folder, or builds into the
// register's own folder, which holds it.
func (bd *builder) sourcePublished(p string) bool {
	if !strings.HasPrefix(p, bblock.SourcesDir+"/") {
		return false
	}
	return bd.written[p] || bd.sources == sourcesInPlace && bd.sourceExists(p)
}

// sourceExists reports whether the sources tree has the file p (a path
// from the repository root).
func (bd *builder) sourceExists(p string) bool {
	if bd.reg.FS == nil {
		return false
	}
	fi, err := fs.Stat(bd.reg.FS, p)
	return err == nil && fi.Mode().IsRegular()
}
