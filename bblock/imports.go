package bblock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultImport is the URL the tool chain means by the import "default":
// the main OGC building-block register.
const DefaultImport = "https://opengeospatial.github.io/bblocks/register.json"

// ImportMap maps an import of bblocks-config.yaml (its URL as written, or
// "default") to a folder that holds a local copy of that register as built:
// register.json (or build/register.json) and the files it links to, as
// "jrpcld build -o DIR" writes them or as the tool chain publishes them.
type ImportMap struct {
	URL string
	Dir string
	// RegisterURL, when not empty, is the URL of the register.json the
	// copy was made from ("jrpcld fetch" keeps a copy by that URL): a
	// built register lists the import by it.
	RegisterURL string
}

// ParseImportMap parses a command-line "URL=DIR".
func ParseImportMap(s string) (ImportMap, error) {
	u, dir, ok := strings.Cut(s, "=")
	if !ok || u == "" || dir == "" {
		return ImportMap{}, fmt.Errorf("--import %q: want URL=DIR (the import as bblocks-config.yaml names it, and the folder of a local copy of that register)", s)
	}
	return ImportMap{URL: u, Dir: dir}, nil
}

// Imports are the imported registers that local copies stand for. The
// zero value, and nil, have none.
type Imports struct {
	regs []*importedRegister
	urls []*urlMapping // URL mappings (--map, url-mappings), in the order given
}

// ImportedBlock is a block of an imported register, as its register.json
// describes it.
type ImportedBlock struct {
	ID        string
	Name      string
	ItemClass string // its itemClass, or ""
	Schema    string // URL of its annotated schema (YAML), or ""
	LdContext string // URL of its context, or ""
	// OpenAPIDocument is the URL of its resolved OpenAPI document, or "".
	OpenAPIDocument string
	// SourceSchema and SourceOpenAPIDocument are the URLs of its source
	// files, or "".
	SourceSchema, SourceOpenAPIDocument string
	DependsOn                           []string // ids
	Import                              string   // the import it came through, as named
	// ShaclShapes are the SHACL files that apply to the block's
	// resources, by the block that declares them, as its register.json
	// lists them (shaclShapes, or the older shaclRules).
	ShaclShapes map[string][]string
	// IsProfileOf lists the ids of the blocks it is a profile of.
	IsProfileOf []string
	// SemanticUplift is its semanticUplift member (the steps of its
	// semantic-uplift.yaml, code inline), nil when absent.
	SemanticUplift json.RawMessage
}

// importedRegister is one loaded local copy.
type importedRegister struct {
	name    string   // the import as named ("default" or a URL)
	regURL  string   // the URL of the register.json the copy is of, when known
	dir     string   // the local folder
	prefix  []string // URL prefixes the folder stands for, each ending in '/'
	regFile string   // the register.json read
	blocks  map[string]*ImportedBlock
	fsys    fs.FS  // the local folder, read through DirFS
	regName string // regFile's name in fsys
}

// LoadImports reads the register.json of each mapped import. A folder
// without one, or a register.json that is not a register, is an error that
// names the folder.
func LoadImports(maps []ImportMap) (*Imports, error) {
	im := &Imports{}
	for _, m := range maps {
		r, err := loadImported(m)
		if err != nil {
			return nil, err
		}
		im.regs = append(im.regs, r)
	}
	return im, nil
}

func loadImported(m ImportMap) (*importedRegister, error) {
	u := m.URL
	if u == "default" {
		u = DefaultImport
	}
	pu, err := url.Parse(u)
	if err != nil || !pu.IsAbs() {
		return nil, fmt.Errorf("--import %s=%s: %q is not an absolute URL (or \"default\")", m.URL, m.Dir, m.URL)
	}
	r := &importedRegister{name: m.URL, dir: m.Dir, regURL: m.RegisterURL, blocks: map[string]*ImportedBlock{}, fsys: DirFS(m.Dir)}
	base := u
	if strings.HasSuffix(base, ".json") {
		base = base[:strings.LastIndexByte(base, '/')+1]
	} else if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	r.prefix = append(r.prefix, base)
	var data []byte
	for _, name := range []string{"register.json", "build/register.json"} {
		if data, err = fs.ReadFile(r.fsys, name); err == nil {
			r.regFile = filepath.Join(m.Dir, filepath.FromSlash(name))
			r.regName = name
			break
		}
		if errors.Is(err, ErrLeavesTree) {
			return nil, fmt.Errorf("--import %s=%s: %w", m.URL, m.Dir, err)
		}
	}
	if r.regFile == "" {
		return nil, fmt.Errorf("--import %s=%s: no register.json (nor build/register.json) in %s", m.URL, m.Dir, m.Dir)
	}
	var doc struct {
		BaseURL string            `json:"baseURL"`
		Blocks  []json.RawMessage `json:"bblocks"`
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil || doc.Blocks == nil {
		if err2 := json.Unmarshal(data, &list); err2 != nil {
			return nil, fmt.Errorf("--import %s=%s: %s is not a building-block register", m.URL, m.Dir, r.regFile)
		}
		doc.Blocks = list
	}
	if doc.BaseURL != "" {
		b := doc.BaseURL
		if !strings.HasSuffix(b, "/") {
			b += "/"
		}
		r.prefix = append(r.prefix, b)
	}
	for i, raw := range doc.Blocks {
		var b struct {
			ID           string          `json:"itemIdentifier"`
			Name         string          `json:"name"`
			ItemClass    string          `json:"itemClass"`
			Schema       json.RawMessage `json:"schema"`
			SourceSchema string          `json:"sourceSchema"`
			LdContext    string          `json:"ldContext"`
			OpenAPI      json.RawMessage `json:"openAPIDocument"`
			SourceAPI    string          `json:"sourceOpenAPIDocument"`
			DependsOn    []string        `json:"dependsOn"`
			Shapes       json.RawMessage `json:"shaclShapes"`
			Rules        json.RawMessage `json:"shaclRules"`
			ProfileOf    json.RawMessage `json:"isProfileOf"`
			Uplift       json.RawMessage `json:"semanticUplift"`
		}
		if err := json.Unmarshal(raw, &b); err != nil || b.ID == "" {
			return nil, fmt.Errorf("--import %s=%s: %s: block %d has no itemIdentifier", m.URL, m.Dir, r.regFile, i+1)
		}
		ib := &ImportedBlock{ID: b.ID, Name: b.Name, ItemClass: b.ItemClass, LdContext: b.LdContext, Import: m.URL}
		for _, raw := range []json.RawMessage{b.Shapes, b.Rules} {
			var byBlock map[string][]string
			var list []string
			if json.Unmarshal(raw, &byBlock) == nil && len(byBlock) > 0 {
				ib.ShaclShapes = byBlock
				break
			}
			if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
				ib.ShaclShapes = map[string][]string{b.ID: list}
				break
			}
		}
		for _, files := range ib.ShaclShapes {
			for i, f := range files {
				files[i] = r.absolute(f) // a register built without a base URL links relatively
			}
		}
		for _, d := range b.DependsOn {
			ib.DependsOn = append(ib.DependsOn, strings.TrimPrefix(d, BlockRefPrefix))
		}
		for _, p := range stringOrList(b.ProfileOf) {
			ib.IsProfileOf = append(ib.IsProfileOf, strings.TrimPrefix(p, BlockRefPrefix))
		}
		if len(b.Uplift) > 0 && string(b.Uplift) != "null" {
			ib.SemanticUplift = b.Uplift
		}
		var byType map[string]string
		var one string
		if json.Unmarshal(b.Schema, &byType) == nil {
			ib.Schema = byType["application/yaml"]
			if ib.Schema == "" {
				ib.Schema = byType["application/json"]
			}
		} else if json.Unmarshal(b.Schema, &one) == nil {
			ib.Schema = one
		}
		// openAPIDocument is a URL; the tool chain reads a list or an
		// object of them too, and takes the first.
		var api string
		var apis []string
		var apiByType map[string]string
		if json.Unmarshal(b.OpenAPI, &api) == nil {
			ib.OpenAPIDocument = api
		} else if json.Unmarshal(b.OpenAPI, &apis) == nil && len(apis) > 0 {
			ib.OpenAPIDocument = apis[0]
		} else if json.Unmarshal(b.OpenAPI, &apiByType) == nil && len(apiByType) > 0 {
			ib.OpenAPIDocument = apiByType["application/yaml"]
			if ib.OpenAPIDocument == "" {
				ib.OpenAPIDocument = apiByType[slices.Sorted(maps.Keys(apiByType))[0]]
			}
		}
		ib.Schema = r.absolute(ib.Schema)
		ib.LdContext = r.absolute(ib.LdContext)
		ib.OpenAPIDocument = r.absolute(ib.OpenAPIDocument)
		ib.SourceSchema = r.absolute(b.SourceSchema)
		ib.SourceOpenAPIDocument = r.absolute(b.SourceAPI)
		r.blocks[ib.ID] = ib
	}
	return r, nil
}

// absolute resolves a link of register.json, which may be relative to it.
func (r *importedRegister) absolute(link string) string {
	if link == "" {
		return ""
	}
	lu, err := url.Parse(link)
	if err != nil || lu.IsAbs() {
		return link
	}
	bu, err := url.Parse(r.prefix[0])
	if err != nil {
		return link
	}
	return bu.ResolveReference(lu).String()
}

// Block returns the imported block id.
func (im *Imports) Block(id string) (*ImportedBlock, bool) {
	if im == nil {
		return nil, false
	}
	for _, r := range im.regs {
		if b, ok := r.blocks[id]; ok {
			return b, true
		}
	}
	return nil, false
}

// Maps returns the import mappings the copies were loaded from, in the
// order given: what a command needs to be given to see the same imports.
func (im *Imports) Maps() []ImportMap {
	var maps []ImportMap
	if im != nil {
		for _, r := range im.regs {
			maps = append(maps, ImportMap{URL: r.name, Dir: r.dir})
		}
	}
	return maps
}

// IDs returns the ids of the imported blocks.
func (im *Imports) IDs() []string {
	var ids []string
	if im != nil {
		for _, r := range im.regs {
			for id := range r.blocks {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// BlockOfURL returns the id of the imported block whose schema is at u.
func (im *Imports) BlockOfURL(u string) (string, bool) {
	if im == nil {
		return "", false
	}
	for _, r := range im.regs {
		for _, b := range r.blocks {
			if b.Schema == u || strings.TrimSuffix(b.Schema, ".yaml")+".json" == u {
				return b.ID, true
			}
		}
	}
	return "", false
}

// BlockOfDocument returns the id of the imported block one of whose
// documents is at u, as the tool chain finds the block a reference leads
// to: its annotated schema (YAML or JSON), its source schema, its OpenAPI
// document or the source of that.
func (im *Imports) BlockOfDocument(u string) (string, bool) {
	if id, ok := im.BlockOfURL(u); ok {
		return id, true
	}
	if im == nil || u == "" {
		return "", false
	}
	for _, r := range im.regs {
		for _, b := range r.blocks {
			if u == b.SourceSchema || u == b.OpenAPIDocument || u == b.SourceOpenAPIDocument {
				return b.ID, true
			}
		}
	}
	return "", false
}

// ReadURL reads the local file that URL u stands for: the file a URL
// mapping (--map, url-mappings) maps it to, or else the file of a mapped
// import. A URL nothing maps is an error wrapping ErrNotImported.
func (im *Imports) ReadURL(u string) ([]byte, error) {
	if data, ok, err := im.readMapped(u); ok {
		return data, err
	}
	if im != nil {
		for _, r := range im.regs {
			for _, p := range r.prefix {
				rest, ok := strings.CutPrefix(u, p)
				if !ok {
					continue
				}
				rest, _, _ = strings.Cut(rest, "#")
				rest, _, _ = strings.Cut(rest, "?")
				if rest, err := url.PathUnescape(rest); err == nil && rest != "" {
					clean := path.Clean(rest)
					if clean == ".." || strings.HasPrefix(clean, "../") || path.IsAbs(clean) {
						return nil, fmt.Errorf("%s leaves the copy of import %s", u, r.name)
					}
					for _, name := range []string{clean, "build/" + clean} {
						data, err := fs.ReadFile(r.fsys, name)
						if err == nil {
							return data, nil
						}
						if errors.Is(err, ErrLeavesTree) {
							return nil, fmt.Errorf("%s: import %s is mapped to %s: %w", u, r.name, r.dir, err)
						}
					}
					return nil, fmt.Errorf("%s: import %s is mapped to %s, which has no %s", u, r.name, r.dir, clean)
				}
			}
		}
	}
	return nil, fmt.Errorf("%s: %w", u, ErrNotImported)
}

// withImport returns the imports with the local copy m added.
func (im *Imports) withImport(m ImportMap) (*Imports, error) {
	r, err := loadImported(m)
	if err != nil {
		return nil, err
	}
	out := im.clone()
	out.regs = append(slices.Clip(out.regs), r)
	return out, nil
}

// Names returns the imports that have a local copy, as named.
func (im *Imports) Names() []string {
	if im == nil {
		return nil
	}
	var out []string
	for _, r := range im.regs {
		out = append(out, r.name)
	}
	return out
}

// RegisterURL returns the URL of the register.json of import name ("default"
// or a URL, as bblocks-config.yaml names it), as the tool chain lists it in
// a built register's imports: the URL itself when it names a .json file;
// else, for an import with a local copy, the register.json that copy holds
// (URL/register.json, or URL/build/register.json for a copy laid out as a
// published repository); else URL/build/register.json, where the tool
// chain's builds publish it.
func (im *Imports) RegisterURL(name string) string {
	u := name
	if u == "default" {
		u = DefaultImport
	}
	if strings.HasSuffix(u, ".json") {
		return u
	}
	base := strings.TrimSuffix(u, "/") + "/"
	if im != nil {
		for _, r := range im.regs {
			if r.name == name && r.regURL != "" {
				return r.regURL
			}
			if r.name == name && filepath.Dir(r.regFile) == filepath.Clean(r.dir) {
				return base + "register.json"
			}
		}
	}
	return base + "build/register.json"
}

// RegisterFile returns the content of the register.json of the local copy
// of import name, and whether it has one.
func (im *Imports) RegisterFile(name string) ([]byte, bool) {
	if im == nil {
		return nil, false
	}
	for _, r := range im.regs {
		if r.name == name {
			data, err := fs.ReadFile(r.fsys, r.regName)
			return data, err == nil
		}
	}
	return nil, false
}

// ImportHint says what gives a local copy of import name ("default" or a
// URL, as bblocks-config.yaml names it): fetching its register.json into
// jrpcld's cache, or mapping it to a folder.
func ImportHint(name string) string {
	return fmt.Sprintf("its register is fetched into jrpcld's cache with \"jrpcld fetch %s\" or mapped to a local copy with --import %s=DIR", (*Imports)(nil).RegisterURL(name), name)
}

// stringOrList reads a JSON string or list of strings; anything else is none.
func stringOrList(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var list []string
	json.Unmarshal(raw, &list)
	return list
}
