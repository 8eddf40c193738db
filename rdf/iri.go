package rdf

import "strings"

// ResolveIRI resolves ref against base as RFC 3986, section 5.2.2, says, escaping nothing. With an empty
// base, or a ref that has a scheme, ref comes back unchanged.
func ResolveIRI(base, ref string) string {
	if base == "" || HasScheme(ref) {
		return ref
	}
	b, r := split(base), split(ref)
	t := parts{scheme: b.scheme, fragment: r.fragment}
	switch {
	case r.authority != nil:
		t.authority, t.path, t.query = r.authority, removeDots(r.path), r.query
	case r.path == "":
		t.authority, t.path, t.query = b.authority, b.path, b.query
		if r.query != nil {
			t.query = r.query
		}
	default:
		t.authority, t.query = b.authority, r.query
		switch {
		case strings.HasPrefix(r.path, "/"):
			t.path = removeDots(r.path)
		case b.authority != nil && b.path == "":
			t.path = removeDots("/" + r.path)
		default:
			t.path = removeDots(b.path[:strings.LastIndexByte(b.path, '/')+1] + r.path)
		}
	}
	return t.String()
}

// parts are the components of a URI reference; a nil pointer is an absent component, which differs
// from an empty one ("http://a?" has an empty query).
type parts struct {
	scheme                     string
	authority, query, fragment *string
	path                       string
}

func split(s string) parts {
	var p parts
	if HasScheme(s) {
		i := strings.IndexByte(s, ':')
		p.scheme, s = s[:i], s[i+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		f := s[i+1:]
		p.fragment, s = &f, s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		q := s[i+1:]
		p.query, s = &q, s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		a := s[:i]
		p.authority, s = &a, s[i:]
	}
	p.path = s
	return p
}

func (p parts) String() string {
	var b strings.Builder
	if p.scheme != "" {
		b.WriteString(p.scheme + ":")
	}
	if p.authority != nil {
		b.WriteString("//" + *p.authority)
	}
	b.WriteString(p.path)
	if p.query != nil {
		b.WriteString("?" + *p.query)
	}
	if p.fragment != nil {
		b.WriteString("#" + *p.fragment)
	}
	return b.String()
}

// removeDots removes the "." and ".." segments of a path (RFC 3986, section 5.2.4).
func removeDots(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string // output segments, each with its leading '/' when it had one
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"), strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"), in == "/..":
			in = "/" + in[min(4, len(in)):]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.IndexByte(in[1:], '/') + 1
			if i == 0 {
				i = len(in)
			}
			out = append(out, in[:i])
			in = in[i:]
		}
	}
	return strings.Join(out, "")
}
