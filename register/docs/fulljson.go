package docs

import (
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
)

// fullJSON returns block b's full JSON documentation
// (generateddocs/json-full/PATH/index.json), which the OGC viewer reads:
// its member of register.json without the documentation links, then its
// description, its examples with each snippet as written and what the
// build made of it, the examples' prefixes, and the annotated schema as
// YAML text.
func (r *Register) fullJSON(b *Block, from string) object {
	full := r.entry(b, from, true)
	if b.Description != "" {
		full = full.set("description", b.Description)
	}
	if exs := b.Source.Examples; exs != nil {
		examples := []object{}
		for i, ex := range exs.Examples {
			e := object{{"title", ex.Title}}
			if ex.Content != "" {
				e = append(e, member{"content", ex.Content})
			}
			if ex.BaseURI != "" {
				e = append(e, member{"base-uri", ex.BaseURI})
			}
			if i < len(b.Snippets) {
				if snippets := r.snippets(b, b.Snippets[i], from); len(snippets) > 0 {
					e = append(e, member{"snippets", snippets})
				}
			}
			if p := exs.PrefixesOf(ex); len(p) > 0 {
				e = append(e, member{"prefixes", p})
			}
			examples = append(examples, e)
		}
		full = full.set("examples", examples)
		if len(exs.Prefixes) > 0 {
			full = full.set("examplePrefixes", exs.Prefixes)
		}
	}
	var annotated any
	if b.Schema != nil {
		annotated = string(b.Schema)
	}
	full = full.set("annotatedSchema", annotated)
	if r.GitRepository != "" {
		full = full.set("gitRepository", r.GitRepository)
		full = full.set("gitPath", path.Join(bblock.SourcesDir, b.Source.Path))
	}
	return full
}

// snippets returns the snippets of an example as the full JSON
// documentation lists them: each with its language, schema-ref, the URL of
// its source file (ref), its URL in the build, the results of the
// transforms that ran on it, its size and its code.
func (r *Register) snippets(b *Block, list []Snippet, from string) []object {
	var out []object
	for _, s := range list {
		sn := object{{"language", s.Language}}
		if d := s.Declared; d != nil {
			if d.SchemaRef != "" {
				sn = append(sn, member{"schema-ref", d.SchemaRef})
			}
			if d.Ref != "" {
				ref := path.Join(bblock.SourcesDir, b.Source.Path, path.Dir(b.Source.Files.Examples), d.Ref)
				sn = append(sn, member{"ref", r.Layout.SourceLink(from, ref)})
			}
		}
		if s.Code == nil {
			out = append(out, sn)
			continue
		}
		sn = append(sn, member{"url", r.Layout.Link(from, path.Join(b.Tests, s.File))})
		if len(s.Transforms) > 0 {
			tr := make(object, 0, len(s.Transforms))
			for _, t := range s.Transforms {
				e := object{{"success", t.Success}}
				if t.Stderr != "" {
					e = append(e, member{"stderr", t.Stderr})
				}
				if t.File != "" {
					e = append(e, member{"sizeBytes", t.Size}, member{"url", r.Layout.Link(from, t.File)})
				}
				if len(t.Profiles) > 0 {
					pv := make(object, 0, len(t.Profiles))
					for _, p := range t.Profiles {
						v := object{{"result", p.Passed}, {"report", r.Layout.Link(from, p.Report)}}
						if len(p.Uplifted) > 0 {
							up := make(object, 0, len(p.Uplifted))
							for _, f := range p.Uplifted {
								up = append(up, member{strings.TrimPrefix(path.Ext(f), "."), r.Layout.Link(from, f)})
							}
							v = append(v, member{"upliftedFiles", up})
						}
						pv = pv.set(p.ID, v)
					}
					e = append(e, member{"profilesValidation", pv})
				}
				tr = tr.set(t.ID, e)
			}
			sn = append(sn, member{"transformResults", tr})
		}
		sn = append(sn, member{"sizeBytes", len(s.Code)}, member{"code", string(s.Code)})
		out = append(out, sn)
	}
	return out
}
