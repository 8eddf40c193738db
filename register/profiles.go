package register

// Transform outputs checked against the profiles their transform declares
// (outputs.profiles), as the tool chain does (bblocks-postprocess,
// transform.py apply_transforms and validate.py validate_transform_output):
// each output a transform wrote is checked as a resource of each profile
// block (its schema, context, semantic uplift and SHACL files), below
// tests/PATH/transforms/PROFILE/, with one _report.json per profile.

import (
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/register/report"
	"github.com/jrpcld/jrpcld/register/transform"
)

// profileCheck is one transform output to check against its profiles.
type profileCheck struct {
	o        *blockOut
	key      [2]int // example and snippet of the result
	n        int    // index of the result in o.tr.results[key]
	profiles []string
	code     []byte
}

// profileResult is the verdict on a transform output against one profile,
// as the documentation's profilesValidation gives it.
type profileResult struct {
	id       string
	passed   bool
	report   string   // the profile's _report.json, below the output folder
	uplifted []string // the uplifted files (.jsonld, .ttl), below the output folder
}

// checkProfiles checks every transform output waiting in bd.profileChecks.
// A profile the register does not have is skipped with a warning, as the
// tool chain skips a profile it cannot find; one of an import is not
// checked (jrpcld checks against the blocks it builds), with a warning.
func (bd *builder) checkProfiles() {
	type group struct {
		o, po *blockOut
		dir   string
		items []*report.Item
	}
	var groups []*group
	byDir := map[string]*group{}
	for _, pc := range bd.profileChecks {
		o := pc.o
		res := &o.tr.results[pc.key][pc.n]
		for _, ref := range pc.profiles {
			id := strings.TrimPrefix(ref, bblock.BlockRefPrefix)
			po := bd.built[id]
			if po == nil {
				why := "the register has no such building block"
				if _, ok := bd.reg.Imports.Block(id); ok {
					why = "it is a block of an imported register, and jrpcld checks transform outputs against the blocks of the register it builds only"
				}
				o.warnf("%s: transform %q: the output %s is not validated against profile %s: %s", transform.File, res.id, path.Base(res.file), id, why)
				continue
			}
			dir := path.Join(o.tests, "transforms", id)
			g := byDir[dir]
			if g == nil {
				g = &group{o: o, po: po, dir: dir}
				byDir[dir] = g
				groups = append(groups, g)
			}
			g.items = append(g.items, bd.checkProfile(o, po, dir, res, pc.code, id))
		}
	}
	for _, g := range groups {
		rep := &report.Block{ID: g.po.b.ID, Name: g.po.b.Meta.Name, Generated: bd.generated(), BaseURL: bd.rootURL(), Items: g.items}
		data, err := rep.JSON()
		if err != nil {
			g.o.warnf("%s: the report on the outputs checked against profile %s: %v", transform.File, g.po.b.ID, err)
			continue
		}
		bd.put(path.Join(g.dir, "_report.json"), data)
	}
}

// checkProfile checks one transform output against profile po, as a
// resource of po written below dir, and records the verdict on res.
func (bd *builder) checkProfile(o, po *blockOut, dir string, res *transformResult, code []byte, id string) *report.Item {
	name := path.Base(res.file)
	ext := strings.TrimPrefix(path.Ext(name), ".")
	mime := transform.MediaTypeOfExtension(ext)
	base := name // an extension the tool chain does not know stays part of the name
	if mime != "" {
		base = strings.TrimSuffix(name, "."+ext)
	}
	it := &item{Title: res.id, Base: base, File: name, Language: mime,
		rep: report.NewItem(report.Source{Type: report.TransformOutput, Filename: bd.repoPath(res.file), Language: mime, TransformID: res.id})}
	// The profile's checks, writing below dir; what they warn about is
	// said on the block whose transform made the output.
	v := *po
	v.ctx = bd.processed(po)
	v.tests = dir
	v.res.Warnings = nil
	bd.check(&v, it, code, true, checkInput{sch: po.sch, schErr: po.schErr, sn: bblock.Snippet{Language: mime}, using: name})
	if it.Dropped {
		// No check of the profile takes it: an item with no entry, as the
		// tool chain's validators then leave it.
		it.Dropped = false
		it.rep.Finish()
		bd.put(path.Join(dir, it.rep.TextName(it.Base)), it.rep.Text(po.b.ID, po.b.Meta.Name, bd.generated()))
	}
	for _, w := range v.res.Warnings {
		o.warnf("transform %q, profile %s: %s", res.id, id, w)
	}
	pr := profileResult{id: id, passed: it.Passed(), report: path.Join(dir, "_report.json")}
	if it.JSONLD != nil {
		pr.uplifted = append(pr.uplifted, path.Join(dir, it.Base+".jsonld"))
	}
	if it.Turtle != nil {
		pr.uplifted = append(pr.uplifted, path.Join(dir, it.Base+".ttl"))
	}
	res.profiles = append(res.profiles, pr)
	return it.rep
}
