package convert

import "github.com/jrpcld/jrpcld/internal/jcs"

// voucher reads the params and result of the messages the log reader
// reads typed in its place (rpclog.Voucher), writing their canonical text
// escaped, as the text-formatting pipeline makes rdf:JSON literals.
type voucher struct{ text jcs.Writer }

// Vouch writes the canonical text of the value at text[i] escaped, and
// vouches for the value when jcs.Writer's AppendTextAt writes it, which
// takes only what the reader's check takes as clean: JSON text without
// repeated member names or lone surrogates, here no deeper than maxDepth.
func (v *voucher) Vouch(dst, text []byte, i, depth, maxDepth int) ([]byte, int, bool) {
	v.text.Escaped = true
	return v.text.AppendTextAt(dst, text, i, maxDepth-depth)
}
