package bblock

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// URLMap maps a URL to a local file, or, when the URL ends in '/', every
// URL below it to the file at the same place below a local folder: a
// schema or context that a register names by URL is read from there and
// never fetched. It is the command line's --map URL=FILE and the
// url-mappings of a register's configuration.
type URLMap struct {
	URL  string
	Path string
}

// ParseURLMap parses a command-line "URL=FILE".
func ParseURLMap(s string) (URLMap, error) {
	u, file, ok := strings.Cut(s, "=")
	if !ok || u == "" || file == "" {
		return URLMap{}, fmt.Errorf("--map %q: want URL=FILE (a URL a schema or context is named by, and the local file that stands for it; a URL ending in '/' and a folder map every URL below it)", s)
	}
	if pu, err := url.Parse(u); err != nil || !pu.IsAbs() {
		return URLMap{}, fmt.Errorf("--map %q: %q is not an absolute URL", s, u)
	}
	return URLMap{URL: u, Path: file}, nil
}

// urlMapping is one URLMap, ready to read from.
type urlMapping struct {
	prefix string // the URL, or the prefix of the URLs, mapped
	fsys   fs.FS  // the folder the mapped file or folder is read in
	sub    string // the mapped file or folder in fsys ("." for fsys itself)
	shown  string // the mapped path, for messages
	origin string // where the mapping was given: "--map" or a file name
}

// read reads the file that u, a URL without fragment, is mapped to; ok is
// false when the mapping does not cover u.
func (m *urlMapping) read(u string) (data []byte, ok bool, err error) {
	rest, ok := strings.CutPrefix(u, m.prefix)
	if !ok {
		return nil, false, nil
	}
	rest, _, _ = strings.Cut(rest, "?")
	rest, err = url.PathUnescape(strings.TrimPrefix(rest, "/"))
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", u, err)
	}
	name := m.sub
	if rest != "" {
		clean := path.Clean(rest)
		if clean == ".." || strings.HasPrefix(clean, "../") || path.IsAbs(clean) {
			return nil, true, fmt.Errorf("%s leaves %s, which %s maps %s to", u, m.shown, m.origin, m.prefix)
		}
		name = path.Join(m.sub, clean)
	}
	data, err = fs.ReadFile(m.fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, true, fmt.Errorf("the local file %s for %s (mapped by %s from %s) does not exist", path.Join(m.shown, rest), u, m.origin, m.prefix)
		}
		return nil, true, fmt.Errorf("%s (mapped by %s from %s to %s): %w", u, m.origin, m.prefix, m.shown, err)
	}
	return data, true, nil
}

// MapURLs returns imports that also read the URLs maps name from local
// files or folders on disk (--map URL=FILE), before any other mapping. A
// file or folder that does not exist is an error.
func (im *Imports) MapURLs(maps []URLMap) (*Imports, error) {
	out := im.clone()
	for _, m := range maps {
		info, err := os.Stat(m.Path)
		if err != nil {
			return nil, fmt.Errorf("--map %s=%s: %w", m.URL, m.Path, err)
		}
		um := &urlMapping{prefix: m.URL, shown: m.Path, origin: "--map"}
		if info.IsDir() {
			um.fsys, um.sub = DirFS(m.Path), "."
		} else {
			um.fsys, um.sub = DirFS(filepath.Dir(m.Path)), filepath.Base(m.Path)
		}
		out.urls = append(out.urls, um)
	}
	return out, nil
}

// mapTreeURLs returns imports that also read the URLs of the url-mappings
// of file (a configuration file of the register folder fsys) from the
// files or folders they name, relative to that folder and inside it. A
// mapping that leaves the folder is a problem, and is left out.
func (im *Imports) mapTreeURLs(fsys fs.FS, file string, mappings map[string]string) (*Imports, Problems) {
	if len(mappings) == 0 {
		return im, nil
	}
	out := im.clone()
	var probs Problems
	keys := make([]string, 0, len(mappings))
	for k := range mappings {
		keys = append(keys, k)
	}
	sort.Strings(keys) // YAML's order is lost in a map; a fixed one instead
	for _, u := range keys {
		p := mappings[u]
		ptr := "/url-mappings/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(u)
		if pu, err := url.Parse(u); err != nil || !pu.IsAbs() {
			probs = append(probs, Problem{File: file, Pointer: ptr, Message: fmt.Sprintf("url-mappings: %q is not an absolute URL", u)})
			continue
		}
		clean := path.Clean(filepath.ToSlash(p))
		if p == "" || path.IsAbs(clean) || filepath.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
			probs = append(probs, Problem{File: file, Pointer: ptr, Message: fmt.Sprintf("url-mappings: %s maps to %q, which is not a path inside the register's folder: jrpcld reads nothing outside it (map a file elsewhere with --map URL=FILE)", u, p)})
			continue
		}
		out.urls = append(out.urls, &urlMapping{prefix: u, fsys: fsys, sub: clean, shown: clean, origin: "url-mappings of " + file})
	}
	return out, probs
}

// clone returns a copy of im (or new imports for nil) whose lists can grow
// without changing im.
func (im *Imports) clone() *Imports {
	out := &Imports{}
	if im != nil {
		out.regs = im.regs
		out.urls = append([]*urlMapping(nil), im.urls...)
	}
	return out
}

// MapsURL reports whether a URL mapping covers u.
func (im *Imports) MapsURL(u string) bool {
	if im == nil {
		return false
	}
	u, _, _ = strings.Cut(u, "#")
	for _, m := range im.urls {
		if strings.HasPrefix(u, m.prefix) {
			return true
		}
	}
	return false
}

// readMapped reads the file a URL mapping maps u to; ok is false when no
// mapping covers u. The first mapping that covers u is the one read, as
// the tool chain takes the first of its url-mappings.
func (im *Imports) readMapped(u string) (data []byte, ok bool, err error) {
	if im == nil {
		return nil, false, nil
	}
	u, _, _ = strings.Cut(u, "#")
	for _, m := range im.urls {
		if data, ok, err := m.read(u); ok {
			return data, true, err
		}
	}
	return nil, false, nil
}
