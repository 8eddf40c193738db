package docs

import (
	"net/url"
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
)

// Layout says where a build is published and how its files link to each
// other.
type Layout struct {
	// BaseURL, ending in "/", is the URL the output folder is published
	// at, or with BuildPath the URL of the repository root; links are
	// absolute below it. Empty: links are relative.
	BaseURL string
	// BuildPath is the output folder's slash-separated path below the root
	// of the published repository ("build" in the OGC GitHub Action), or
	// "" when the output folder stands alone.
	BuildPath string
}

// RepoPath returns the path, from the root of the published repository,
// of the output file p (a path below the output folder).
func (l Layout) RepoPath(p string) string {
	if l.BuildPath == "" {
		return p
	}
	return path.Join(l.BuildPath, p)
}

// Link returns the URL of the output file to as written in the output file
// from: below the base URL when there is one, else relative.
func (l Layout) Link(from, to string) string {
	if l.BaseURL != "" {
		return l.BaseURL + EscapePath(l.RepoPath(to))
	}
	return RelLink(from, to)
}

// SourceLink returns the URL of the file p, a path from the root of the
// repository (a file of the sources tree, "_sources/..."), as written in
// the output file from (a path below the build folder): below the base URL
// when there is one, else relative.
func (l Layout) SourceLink(from, p string) string {
	if l.BaseURL != "" {
		return l.BaseURL + EscapePath(p)
	}
	return RelLink(l.RepoPath(from), p)
}

// SourceFolder returns the URL of block b's folder in the sources tree,
// ending in "/", below the base URL; "" without one.
func (l Layout) SourceFolder(b *bblock.Block) string {
	if l.BaseURL == "" {
		return ""
	}
	return l.BaseURL + EscapePath(path.Join(bblock.SourcesDir, b.Path)) + "/"
}

// RelLink returns the relative URL of the output file to from the output
// file from (both slash-separated paths below the same folder).
func RelLink(from, to string) string {
	f := strings.Split(path.Dir(from), "/")
	if path.Dir(from) == "." {
		f = nil
	}
	t := strings.Split(to, "/")
	i := 0
	for i < len(f) && i < len(t)-1 && f[i] == t[i] {
		i++
	}
	rel := strings.Repeat("../", len(f)-i) + strings.Join(t[i:], "/")
	if strings.HasSuffix(to, "/") && !strings.HasSuffix(rel, "/") {
		rel += "/"
	}
	if rel == "" {
		rel = "./"
	}
	return EscapePath(rel)
}

// EscapePath percent-encodes the characters of a slash-separated path that
// a URL path cannot hold as they are.
func EscapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// MarkdownPath returns the path, below the output folder, of block b's
// Markdown documentation.
func MarkdownPath(b *bblock.Block) string {
	return path.Join("generateddocs", "markdown", b.OutputPath(), "index.md")
}

// JSONFullPath returns the path, below the output folder, of block b's
// full JSON documentation, which the OGC viewer shows the block from.
func JSONFullPath(b *bblock.Block) string {
	return path.Join("generateddocs", "json-full", b.OutputPath(), "index.json")
}
