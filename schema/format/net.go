package format

import (
	"strings"
	"unicode/utf8"
)

// Addresses, host names, e-mail addresses and URLs, as ajv-formats reads
// them.

// strictOctet reports whether s is 0 to 255 without a leading zero.
func strictOctet(s string) bool {
	switch {
	case len(s) == 1:
		return isDigit(s[0])
	case len(s) == 2:
		return s[0] != '0' && allDigits(s)
	case len(s) == 3:
		return allDigits(s) && (s[0] == '1' || s[0] == '2' && (s[1] < '5' || s[1] == '5' && s[2] <= '5'))
	}
	return false
}

// looseOctet reports whether s is 0 to 255 in up to three digits, with
// leading zeros (as URIs' IPv6 addresses take them in ajv-formats).
func looseOctet(s string) bool {
	switch {
	case len(s) == 1 || len(s) == 2:
		return allDigits(s)
	case len(s) == 3:
		return allDigits(s) && (s[0] <= '1' || s[0] == '2' && (s[1] < '5' || s[1] == '5' && s[2] <= '5'))
	}
	return false
}

// isIPv4 reports whether s is four octets separated by dots.
func isIPv4(s string, octet func(string) bool) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if !octet(p) {
			return false
		}
	}
	return true
}

// isIPv6 reports whether s is an IPv6 address (RFC 4291, section 2.2):
// eight groups of one to four hexadecimal digits, the last two of which may
// be an IPv4 address, or fewer around one "::".
func isIPv6(s string, octet func(string) bool) bool {
	left, right, compressed := strings.Cut(s, "::")
	if !compressed {
		left, right = "", s
	} else if strings.Contains(right, "::") {
		return false
	}
	count := func(part string, last bool) (int, bool) {
		if part == "" {
			return 0, true
		}
		groups := strings.Split(part, ":")
		n := 0
		for i, g := range groups {
			switch {
			case len(g) >= 1 && len(g) <= 4 && run(g, isHex) && !strings.Contains(g, "%"):
				n++
			case last && i == len(groups)-1 && isIPv4(g, octet):
				n += 2
			default:
				return 0, false
			}
		}
		return n, true
	}
	l, ok := count(left, false)
	if !ok {
		return false
	}
	r, ok := count(right, true)
	if !ok {
		return false
	}
	if compressed {
		return l+r <= 7
	}
	return r == 8
}

// isHostname: labels of 1 to 63 letters, digits and hyphens, not starting
// or ending with a hyphen, separated by dots, with an optional dot at the
// end; at most 253 characters besides that dot.
func isHostname(s string) bool {
	name := strings.TrimSuffix(s, ".")
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if len(label) > 63 || !isLabel(label) {
			return false
		}
	}
	return true
}

// isLabel reports whether s is letters, digits and hyphens, starting and
// ending with a letter or digit.
func isLabel(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// isEmail: dot-separated atoms of letters, digits and !#$%&'*+/=?^_`{|}~-,
// an @, then at least two labels (see isLabel, of any length).
func isEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok {
		return false
	}
	for _, atom := range strings.Split(local, ".") {
		if atom == "" {
			return false
		}
		for i := 0; i < len(atom); i++ {
			if c := atom[i]; !isAlnum(c) && strings.IndexByte("!#$%&'*+/=?^_`{|}~-", c) < 0 {
				return false
			}
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !isLabel(l) {
			return false
		}
	}
	return true
}

// isURL: http, https or ftp (in either case), "://", an optional user
// part (anything but white space, up to an @), a public IPv4 address or a
// host name with a top-level domain of letters, an optional port of 2 to 5
// digits, and an optional path of anything but white space. Letters of the
// host name may be any character from U+00A1 to U+FFFF.
func isURL(s string) bool {
	var rest string
	ok := false
	for _, scheme := range []string{"http://", "https://", "ftp://"} {
		if rest, ok = cutFold(s, scheme); ok {
			break
		}
	}
	if !ok {
		return false
	}
	// Where white space first and last appears: the user part and the path
	// hold none.
	first, last := -1, -1
	for i, r := range rest {
		if isSpace(r) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	tail := func(from int) bool {
		// Host, port and path from rest[from:].
		s := rest[from:]
		end := strings.IndexAny(s, ":/")
		if end < 0 {
			end = len(s)
		}
		if host := s[:end]; !isPublicIPv4(host) && !isHostName(host) {
			return false
		}
		i := end
		if i < len(s) && s[i] == ':' {
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j-i-1 < 2 || j-i-1 > 5 {
				return false
			}
			i = j
		}
		return i == len(s) || s[i] == '/' && from+i > last
	}
	if tail(0) {
		return true
	}
	// Or a user part ends at an @: the last one before the next ':' or
	// '/', since the host holds none of them.
	for i := 0; i < len(rest); i++ {
		if rest[i] != '@' {
			continue
		}
		j := i + 1
		for j < len(rest) && rest[j] != '@' && rest[j] != ':' && rest[j] != '/' {
			j++
		}
		if j < len(rest) && rest[j] == '@' {
			i = j - 1
			continue
		}
		if i > 0 && (first < 0 || first > i) && tail(i+1) {
			return true
		}
		i = j
	}
	return false
}

// cutFold returns s after prefix, which is in ASCII lower case, when s
// starts with it in any case, as ECMA-262 folds case (s also matches ſ).
func cutFold(s, prefix string) (string, bool) {
	for _, c := range []byte(prefix) {
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 || r != rune(c) && (!isAlpha(c) || r != rune(c)-32) && !(c == 's' && r == 'ſ') {
			return "", false
		}
		s = s[n:]
	}
	return s, true
}

// isPublicIPv4: 1 to 223, then two of 0 to 255 (one or two digits, or
// three from 100), then 1 to 254, none in 10/8, 127/8, 169.254/16,
// 192.168/16 or 172.16/12.
func isPublicIPv4(s string) bool {
	p := strings.Split(s, ".")
	if len(p) != 4 {
		return false
	}
	first := strictOctet(p[0]) && p[0] != "0" && atoi(p[0]) <= 223
	mid := func(o string) bool {
		return (len(o) == 1 || len(o) == 2) && allDigits(o) || len(o) == 3 && o[0] != '0' && strictOctet(o)
	}
	last := strictOctet(p[3]) && p[3] != "0" && atoi(p[3]) <= 254
	if !first || !mid(p[1]) || !mid(p[2]) || !last {
		return false
	}
	switch {
	case p[0] == "10" || p[0] == "127",
		p[0] == "169" && p[1] == "254", p[0] == "192" && p[1] == "168",
		p[0] == "172" && len(p[1]) == 2 && p[1] >= "16" && p[1] <= "31":
		return false
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = 10*n + int(s[i]-'0')
	}
	return n
}

// isHostName: labels of letters, digits and characters from U+00A1 to
// U+FFFF, joined by single hyphens, separated by dots, the last of two or
// more letters (or such characters).
func isHostName(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for i, l := range labels {
		if l == "" || l[0] == '-' || l[len(l)-1] == '-' || strings.Contains(l, "--") {
			return false
		}
		n := 0
		for _, r := range l {
			n++
			wide := r >= 0xa1 && r <= 0xffff
			switch {
			case i == len(labels)-1:
				if !(r < utf8.RuneSelf && isAlpha(byte(r)) || wide) {
					return false
				}
			case !(r < utf8.RuneSelf && (isAlnum(byte(r)) || r == '-') || wide):
				return false
			}
		}
		if i == len(labels)-1 && n < 2 {
			return false
		}
	}
	return true
}
