package register

import (
	"path"
	"strings"

	"github.com/jrpcld/jrpcld/register/internal/openapi"
)

// writeOpenAPI writes the block's OpenAPI document as the tool chain
// resolves it, to annotated/PATH/openapi.yaml (package openapi, whose Refs
// says where each reference leads); an x-bblocks-ref replaces the $ref
// beside it.
// It returns the problems found, each naming the file and its line; the
// document is written only when there are none.
func (bd *builder) writeOpenAPI(o *blockOut) []error {
	b := o.b
	data, err := b.ReadFile(b.Files.OpenAPI)
	if err != nil {
		return []error{err}
	}
	from, err := b.TreePath(b.Files.OpenAPI)
	if err != nil {
		return []error{err}
	}
	out := path.Join(o.annotated, "openapi.yaml")
	refs := &openapi.Refs{Reg: bd.reg, Layout: bd.layout(),
		Copy: func(tp string) (string, error) { return bd.copySource(o, tp, "yaml") }}
	doc, v, errs := openapi.Resolve(b.Files.OpenAPI, out, data, func(ref string) (string, error) { return refs.Ref(ref, from, out) })
	if len(errs) > 0 {
		return errs
	}
	o.openAPI = doc
	bd.put(out, o.openAPI)
	if strings.HasPrefix(v, "3.1") {
		o.warnf("%s: the OpenAPI 3.0 version of this OpenAPI %s document (openapi-oas30.yaml, which the OGC tool chain tries to make) is not written: jrpcld does not downcompile OpenAPI documents", b.Files.OpenAPI, v)
	}
	return nil
}
