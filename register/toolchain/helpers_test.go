package toolchain

import (
	"strings"

	ldctx "github.com/jrpcld/jrpcld/context"
)

// hasWarning reports whether one of ws holds every one of parts.
func hasWarning(ws []ldctx.Warning, parts ...string) bool {
	for _, w := range ws {
		s := w.String()
		ok := true
		for _, p := range parts {
			if !strings.Contains(s, p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
