package docs

import (
	"path"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/ojson"
)

// fullJSON returns block b's full JSON documentation
// (generateddocs/json-full/PATH/index.json), which the OGC viewer reads:
// its member of register.json without the documentation links, then its
// description, its examples with each snippet as written and what the
// build made of it, the examples' prefixes, and the annotated schema as
// YAML text.
func (r *Register) fullJSON(b *Block, from string) ojson.Members {
	full := r.entry(b, from, true)
	if b.Description != "" {
		full = full.Set("description", b.Description)
	}
	if exs := b.Source.Examples; exs != nil {
		examples := []ojson.Members{}
		for i, ex := range exs.Examples {
			e := ojson.Members{ojson.M("title", ex.Title)}
			if ex.Content != "" {
				e = append(e, ojson.M("content", ex.Content))
			}
			if ex.BaseURI != "" {
				e = append(e, ojson.M("base-uri", ex.BaseURI))
			}
			e = appendDeclared(e, ex.Members, "title", "content", "base-uri", "snippets", "prefixes")
			if i < len(b.Snippets) {
				// An example whose snippets were all skipped (a json-path
				// that selects nothing) lists none, as in the tool chain.
				if snippets := r.snippets(b, b.Snippets[i], from); len(snippets) > 0 || len(ex.Snippets) > 0 {
					e = append(e, ojson.M("snippets", append([]ojson.Members{}, snippets...)))
				}
			}
			if p := exs.PrefixesOf(ex); len(p) > 0 {
				e = append(e, ojson.M("prefixes", p))
			}
			examples = append(examples, e)
		}
		full = full.Set("examples", examples)
		if len(exs.Prefixes) > 0 {
			full = full.Set("examplePrefixes", exs.Prefixes)
		}
	}
	var annotated any
	if b.Schema != nil {
		annotated = string(b.Schema)
	}
	full = full.Set("annotatedSchema", annotated)
	if r.GitRepository != "" {
		full = full.Set("gitRepository", r.GitRepository)
		full = full.Set("gitPath", path.Join(bblock.SourcesDir, b.Source.Path))
	}
	return full
}

// appendDeclared appends to o the members of an example or snippet as
// examples.yaml writes them (json-path, doc-uplift-formats,
// base-output-filename...), which the tool chain copies into the
// documentation, but for those named in done.
func appendDeclared(o ojson.Members, members []bblock.Member, done ...string) ojson.Members {
	for _, m := range members {
		if !slices.Contains(done, m.Key) {
			o = append(o, ojson.M(m.Key, m.Value))
		}
	}
	return o
}

// snippets returns the snippets of an example as the full JSON
// documentation lists them: each with its language, schema-ref, the URL of
// its source file (ref), its URL in the build, the results of the
// transforms that ran on it, its size and its code.
func (r *Register) snippets(b *Block, list []Snippet, from string) []ojson.Members {
	var out []ojson.Members
	for _, s := range list {
		sn := ojson.Members{ojson.M("language", s.Language)}
		if d := s.Declared; d != nil {
			if d.SchemaRef != "" {
				sn = append(sn, ojson.M("schema-ref", d.SchemaRef))
			}
			if d.Ref != "" {
				ref := path.Join(bblock.SourcesDir, b.Source.Path, path.Dir(b.Source.Files.Examples), d.Ref)
				sn = append(sn, ojson.M("ref", r.Layout.SourceLink(from, ref)))
			}
			sn = appendDeclared(sn, d.Members, "language", "code", "ref", "schema-ref")
		}
		if s.Code == nil {
			out = append(out, sn)
			continue
		}
		sn = append(sn, ojson.M("url", r.Layout.Link(from, path.Join(b.Tests, s.File))))
		if len(s.Transforms) > 0 {
			tr := make(ojson.Members, 0, len(s.Transforms))
			for _, t := range s.Transforms {
				e := ojson.Members{ojson.M("success", t.Success)}
				if t.Stderr != "" {
					e = append(e, ojson.M("stderr", t.Stderr))
				}
				if t.File != "" {
					e = append(e, ojson.M("sizeBytes", t.Size), ojson.M("url", r.Layout.Link(from, t.File)))
				}
				if len(t.Profiles) > 0 {
					pv := make(ojson.Members, 0, len(t.Profiles))
					for _, p := range t.Profiles {
						v := ojson.Members{ojson.M("result", p.Passed), ojson.M("report", r.Layout.Link(from, p.Report))}
						if len(p.Uplifted) > 0 {
							up := make(ojson.Members, 0, len(p.Uplifted))
							for _, f := range p.Uplifted {
								up = append(up, ojson.M(strings.TrimPrefix(path.Ext(f), "."), r.Layout.Link(from, f)))
							}
							v = append(v, ojson.M("upliftedFiles", up))
						}
						pv = pv.Set(p.ID, v)
					}
					e = append(e, ojson.M("profilesValidation", pv))
				}
				tr = tr.Set(t.ID, e)
			}
			sn = append(sn, ojson.M("transformResults", tr))
		}
		sn = append(sn, ojson.M("sizeBytes", len(s.Code)), ojson.M("code", string(s.Code)))
		out = append(out, sn)
	}
	return out
}
