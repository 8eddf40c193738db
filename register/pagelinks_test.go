package register

import (
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

var (
	// pageTagRE and pageAttrRE find the attributes of the pages' tags: the
	// pages are written by html/template and goldmark, attributes in
	// double quotes; text holds no tag (it is escaped).
	pageTagRE  = regexp.MustCompile(`<[a-zA-Z][^<>]*>`)
	pageAttrRE = regexp.MustCompile(`\s(href|src|id)="([^"]*)"`)
	schemeRE   = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// pageLinks checks every relative link (href and src) of jrpcld's own
// pages below root (index.html and bblock/, not the tool chain's
// tests/report.html) as a static web server serving root would answer it: the
// file it names exists (a folder only with an index.html), and the
// fragment, on an HTML file, is the id of an element. It returns the links
// that lead nowhere, as "FILE: LINK (why)", and the number checked.
func pageLinks(t *testing.T, root string) (broken []string, checked int) {
	t.Helper()
	pages := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		if rel, _ := filepath.Rel(root, p); rel != "index.html" && !strings.HasPrefix(filepath.ToSlash(rel), "bblock/") {
			return nil
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		pages[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]map[string]bool{}
	idsOf := func(page string) map[string]bool {
		if ids[page] == nil {
			ids[page] = map[string]bool{}
			for _, tag := range pageTagRE.FindAllString(pages[page], -1) {
				for _, m := range pageAttrRE.FindAllStringSubmatch(tag, -1) {
					if m[1] == "id" {
						ids[page][html.UnescapeString(m[2])] = true
					}
				}
			}
		}
		return ids[page]
	}
	for page, text := range pages {
		for _, tag := range pageTagRE.FindAllString(text, -1) {
			for _, m := range pageAttrRE.FindAllStringSubmatch(tag, -1) {
				if m[1] == "id" {
					continue
				}
				link := html.UnescapeString(m[2])
				if schemeRE.MatchString(link) || strings.HasPrefix(link, "//") {
					continue // elsewhere: not the build's
				}
				checked++
				bad := func(why string) { broken = append(broken, page+": "+link+" ("+why+")") }
				ref, frag, _ := strings.Cut(link, "#")
				ref, _, _ = strings.Cut(ref, "?")
				p, err := url.PathUnescape(ref)
				if err != nil {
					bad("not a URL path")
					continue
				}
				target := page
				if p != "" {
					if strings.HasPrefix(p, "/") {
						bad("from the server's root, which the build does not know")
						continue
					}
					target = path.Join(path.Dir(page), p)
					if target == ".." || strings.HasPrefix(target, "../") {
						bad("outside the build")
						continue
					}
				}
				fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(target)))
				if err == nil && fi.IsDir() {
					target = path.Join(target, "index.html")
					_, err = os.Stat(filepath.Join(root, filepath.FromSlash(target)))
				}
				if err != nil {
					bad("no such file")
					continue
				}
				switch {
				case strings.HasPrefix(frag, "q=") && path.Base(target) == "index.html":
					// The index's filter box, filled by its script.
					if !idsOf(target)["filter"] {
						bad("no filter box on the index")
					}
				case frag != "" && strings.HasSuffix(target, ".html") && !idsOf(target)[frag]:
					bad("no element with that id")
				}
			}
		}
	}
	return broken, checked
}

// TestPageLinks builds registers and checks that no link of their pages
// leads nowhere: the fixture, the embedded block, every register of
// testdata/ogc-registers and those of ../shared.
func TestPageLinks(t *testing.T) {
	regs := map[string]func() (*bblock.Register, error){
		"fixture":  func() (*bblock.Register, error) { return bblock.LoadRegisterDir(fixtureDir, nil) },
		"embedded": DefaultRegister,
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "ogc-registers", "*", "bblocks-config.yaml"))
	for _, d := range dirs {
		src := filepath.Dir(d)
		regs["testdata/"+filepath.Base(src)] = func() (*bblock.Register, error) { return bblock.LoadRegisterDir(src, nil) }
	}
	if os.Getenv("JRPCLD_SHARED") != "" || shared.Present() {
		ref := shared.Dir(t, "reference")
		srcs, _ := filepath.Glob(filepath.Join(ref, "ogc-registers*", "*", "src", "bblocks-config.yaml"))
		srcs = append(srcs, filepath.Join(ref, "ogc-mcp-bblocks", "bblocks-config.yaml"))
		for _, d := range srcs {
			src := filepath.Dir(d)
			name := filepath.Base(src)
			if name == "src" {
				name = filepath.Base(filepath.Dir(src))
			}
			regs["shared/"+name] = func() (*bblock.Register, error) { return bblock.LoadRegisterDir(src, nil) }
		}
	}
	for name, load := range regs {
		t.Run(name, func(t *testing.T) {
			reg, err := load()
			if err != nil {
				t.Fatal(err)
			}
			out, _ := buildReg(t, reg, Options{})
			broken, checked := pageLinks(t, out)
			if checked == 0 {
				t.Fatal("no link checked")
			}
			for _, b := range broken {
				t.Error(b)
			}
			t.Logf("%d links, %d lead nowhere", checked, len(broken))
		})
	}
}
