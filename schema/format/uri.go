package format

import "strings"

// URIs and URI references (RFC 3986, ASCII only, letters and hexadecimal
// digits in either case), URI templates (RFC 6570) and URLs, as
// ajv-formats reads them.

// uriSyntax is what a URI grammar allows beyond RFC 3986: ajv-formats'
// uri-reference also takes '"' in host names, paths, queries and
// fragments.
type uriSyntax struct {
	quote bool
}

func isUnreserved(c byte) bool {
	return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }

// run reports whether s is made of characters ok allows and of
// percent-encoded octets.
func run(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
			continue
		}
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func (u uriSyntax) pchar(c byte) bool {
	return isUnreserved(c) || isSubDelim(c) || c == ':' || c == '@' || u.quote && c == '"'
}

// path reports whether s is segments of pchar separated by slashes.
func (u uriSyntax) path(s string) bool {
	return run(s, func(c byte) bool { return c == '/' || u.pchar(c) })
}

// tail reports whether s is a query or fragment's content.
func (u uriSyntax) tail(s string) bool {
	return run(s, func(c byte) bool { return c == '/' || c == '?' || u.pchar(c) })
}

// hier reports whether s is the part of a URI after its scheme and
// before its query: "//" or "/" then an authority and an absolute path, or
// an absolute path, or a relative one.
func (u uriSyntax) hier(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '/' {
		for _, slashes := range []string{"//", "/"} {
			rest, ok := strings.CutPrefix(s, slashes)
			if !ok {
				continue
			}
			auth, path := rest, ""
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				auth, path = rest[:i], rest[i:]
			}
			if u.authority(auth) && u.path(path) {
				return true
			}
		}
		// An absolute path: its first segment is not empty.
		return len(s) == 1 || s[1] != '/' && u.path(s[1:])
	}
	return u.path(s)
}

// authority reports whether s is [userinfo@]host[:port].
func (u uriSyntax) authority(s string) bool {
	if info, hostport, ok := strings.Cut(s, "@"); ok {
		if !run(info, func(c byte) bool { return isUnreserved(c) || isSubDelim(c) || c == ':' }) {
			return false
		}
		s = hostport
	}
	port := ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || !isIPLiteral(s[1:end]) {
			return false
		}
		port = s[end+1:]
	} else {
		host := s
		if i := strings.IndexByte(s, ':'); i >= 0 {
			host, port = s[:i], s[i:]
		}
		// A registered name; IPv4 addresses are among them.
		if !run(host, func(c byte) bool { return isUnreserved(c) || isSubDelim(c) || u.quote && c == '"' }) {
			return false
		}
	}
	return port == "" || port[0] == ':' && allDigits(port[1:])
}

// isIPLiteral reports whether s, between brackets, is an IPv6 address
// (its IPv4 part with octets of up to three digits, 0 or 1 first for
// three) or an IPvFuture.
func isIPLiteral(s string) bool {
	if s != "" && (s[0] == 'v' || s[0] == 'V') {
		ver, addr, ok := strings.Cut(s[1:], ".")
		return ok && ver != "" && run(ver, isHex) && !strings.Contains(ver, "%") && addr != "" &&
			!strings.Contains(addr, "%") && run(addr, func(c byte) bool { return isUnreserved(c) || isSubDelim(c) || c == ':' })
	}
	return isIPv6(s, looseOctet)
}

// scheme returns the length of the scheme and its colon at the start of s,
// or 0.
func scheme(s string) int {
	if s == "" || !isAlpha(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && (isAlnum(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i < len(s) && s[i] == ':' {
		return i + 1
	}
	return 0
}

// reference reports whether s is, after a scheme when withScheme,
// hier-part (optional unless withScheme), query and fragment.
func (u uriSyntax) reference(s string, withScheme bool) bool {
	if withScheme {
		n := scheme(s)
		if n == 0 {
			return false
		}
		s = s[n:]
	}
	if before, frag, ok := strings.Cut(s, "#"); ok {
		if !u.tail(frag) {
			return false
		}
		s = before
	}
	if before, query, ok := strings.Cut(s, "?"); ok {
		if !u.tail(query) {
			return false
		}
		s = before
	}
	return s == "" && !withScheme || u.hier(s)
}

func isURI(s string) bool {
	return strings.ContainsAny(s, "/:") && uriSyntax{}.reference(s, true)
}

func isURIReference(s string) bool {
	u := uriSyntax{quote: true}
	return scheme(s) > 0 && u.reference(s, true) || u.reference(s, false)
}

// isURITemplate: literal characters (not controls, space, '"', "'", '<',
// '>', '\', '^', '`', '{', '|', '}'), percent-encoded octets, and
// expressions {op var[:len|*],...}.
func isURITemplate(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 || !isExpression(s[i+1:i+end]) {
				return false
			}
			i += end
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case c <= ' ' || strings.IndexByte("\"'<>\\^`|}", c) >= 0:
			return false
		}
	}
	return true
}

// isExpression reports whether s is the inside of a URI template's
// expression.
func isExpression(s string) bool {
	if s != "" && strings.IndexByte("+#./;?&=,!@|", s[0]) >= 0 {
		s = s[1:]
	}
	for _, spec := range strings.Split(s, ",") {
		name, mod := spec, ""
		if i := strings.IndexAny(spec, ":*"); i >= 0 {
			name, mod = spec[:i], spec[i:]
		}
		if name == "" || !run(name, func(c byte) bool { return isAlnum(c) || c == '_' }) {
			return false
		}
		switch {
		case mod == "", mod == "*":
		case mod[0] == ':' && len(mod) >= 2 && len(mod) <= 5 && mod[1] != '0' && allDigits(mod[1:]):
		default:
			return false
		}
	}
	return true
}
