package context

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes doc as JSON indented by two spaces, object members in
// sorted order (so "@"-keywords come first), HTML characters unescaped and
// numbers as written: the same document always gives the same bytes.
func WriteJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}
