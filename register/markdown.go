package register

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// renderMarkdown renders the Markdown that building-block descriptions and
// examples use as HTML: ATX headings (shifted down by shift levels, so that
// a description's "#" sits below the page's own heading), paragraphs,
// bullet and numbered lists (nested by indentation), block quotes, fenced and
// indented code blocks, pipe tables, thematic breaks; inline code spans,
// links, autolinks, emphasis, strong emphasis, strikethrough and backslash
// escapes. Everything else, raw HTML included, is shown as text: every
// character of the input is HTML-escaped, and links with a scheme other
// than http, https, mailto or ftp lose their target. Images are shown as
// links, so that a page never loads anything from the network.
func renderMarkdown(src string, shift int) string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\t", "    ")
	var b strings.Builder
	renderBlocks(&b, strings.Split(src, "\n"), shift, false, 0)
	return b.String()
}

// maxNesting bounds how deep lists and block quotes nest; deeper ones are
// shown as text, which keeps hostile input from costing time.
const maxNesting = 32

var (
	headingRE = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ ]+(.*?))?(?:[ ]+#+)?[ ]*$`)
	fenceRE   = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})[ ]*([^`]*)$")
	hrRE      = regexp.MustCompile(`^ {0,3}(?:(?:\*[ ]*){3,}|(?:-[ ]*){3,}|(?:_[ ]*){3,})$`)
	bulletRE  = regexp.MustCompile(`^( {0,3})([-*+])( +|$)`)
	orderedRE = regexp.MustCompile(`^( {0,3})(\d{1,9})([.)])( +|$)`)
	quoteRE   = regexp.MustCompile(`^ {0,3}> ?`)
	tableSep  = regexp.MustCompile(`^ {0,3}\|?[ ]*:?-+:?[ ]*(?:\|[ ]*:?-+:?[ ]*)*\|?[ ]*$`)
)

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// indentOf returns the number of leading spaces of line.
func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// listMarker recognises the start of a list item: its kind ("-", "*", "+"
// or "1." style ordered), its start number, and the column its content
// begins at.
func listMarker(line string) (kind string, start int, content int, ok bool) {
	if m := bulletRE.FindStringSubmatch(line); m != nil {
		if hrRE.MatchString(line) {
			return "", 0, 0, false
		}
		pad := len(m[3])
		if pad == 0 || pad > 4 {
			pad = 1
		}
		return m[2], 0, len(m[1]) + 1 + pad, true
	}
	if m := orderedRE.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		pad := len(m[4])
		if pad == 0 || pad > 4 {
			pad = 1
		}
		return "1" + m[3], n, len(m[1]) + len(m[2]) + 1 + pad, true
	}
	return "", 0, 0, false
}

// startsBlock reports whether line interrupts a paragraph.
func startsBlock(line string) bool {
	if headingRE.MatchString(line) || fenceRE.MatchString(line) || hrRE.MatchString(line) || quoteRE.MatchString(line) {
		return true
	}
	if _, _, _, ok := listMarker(line); ok {
		rest := strings.TrimSpace(line)
		return len(rest) > 2 // an empty item does not interrupt a paragraph
	}
	return false
}

// renderBlocks renders lines as a sequence of blocks. tight leaves the
// paragraphs of a tight list item without <p>.
func renderBlocks(b *strings.Builder, lines []string, shift int, tight bool, depth int) {
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case isBlank(line):
			i++
		case fenceRE.MatchString(line):
			i = renderFence(b, lines, i)
		case indentOf(line) >= 4:
			i = renderIndentedCode(b, lines, i)
		case headingRE.MatchString(line):
			m := headingRE.FindStringSubmatch(line)
			level := len(m[1]) + shift
			if level > 6 {
				level = 6
			}
			tag := "h" + strconv.Itoa(level)
			b.WriteString("<" + tag + ">" + renderInline(strings.TrimSpace(m[2])) + "</" + tag + ">\n")
			i++
		case hrRE.MatchString(line):
			b.WriteString("<hr>\n")
			i++
		case depth >= maxNesting:
			i = renderParagraph(b, lines, i, tight)
		case quoteRE.MatchString(line):
			var inner []string
			for i < len(lines) && !isBlank(lines[i]) {
				if loc := quoteRE.FindStringIndex(lines[i]); loc != nil {
					inner = append(inner, lines[i][loc[1]:])
				} else {
					inner = append(inner, lines[i]) // lazy continuation
				}
				i++
			}
			b.WriteString("<blockquote>\n")
			renderBlocks(b, inner, shift, false, depth+1)
			b.WriteString("</blockquote>\n")
		case isTableStart(lines, i):
			i = renderTable(b, lines, i)
		default:
			if _, _, _, ok := listMarker(line); ok {
				i = renderList(b, lines, i, shift, depth)
				continue
			}
			i = renderParagraph(b, lines, i, tight)
		}
	}
}

func renderFence(b *strings.Builder, lines []string, i int) int {
	m := fenceRE.FindStringSubmatch(lines[i])
	indent, fence, info := len(m[1]), m[2], strings.TrimSpace(m[3])
	var code []string
	i++
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if indentOf(lines[i]) < 4 && strings.HasPrefix(t, fence[:1]) && strings.Trim(t, fence[:1]) == "" && len(t) >= len(fence) {
			i++
			break
		}
		l := lines[i]
		if n := min(indentOf(l), indent); n > 0 {
			l = l[n:]
		}
		code = append(code, l)
	}
	lang := ""
	if f := strings.Fields(info); len(f) > 0 {
		lang = f[0]
	}
	writeCode(b, lang, strings.Join(code, "\n"))
	return i
}

func renderIndentedCode(b *strings.Builder, lines []string, i int) int {
	var code []string
	for ; i < len(lines); i++ {
		if isBlank(lines[i]) {
			code = append(code, "")
			continue
		}
		if indentOf(lines[i]) < 4 {
			break
		}
		code = append(code, lines[i][4:])
	}
	for len(code) > 0 && code[len(code)-1] == "" {
		code = code[:len(code)-1]
	}
	writeCode(b, "", strings.Join(code, "\n"))
	return i
}

func writeCode(b *strings.Builder, lang, code string) {
	b.WriteString("<pre><code")
	if lang != "" {
		b.WriteString(` class="language-` + html.EscapeString(lang) + `"`)
	}
	b.WriteString(">")
	b.WriteString(html.EscapeString(code))
	if code != "" {
		b.WriteString("\n")
	}
	b.WriteString("</code></pre>\n")
}

func renderParagraph(b *strings.Builder, lines []string, i int, tight bool) int {
	var para []string
	for ; i < len(lines); i++ {
		l := lines[i]
		if isBlank(l) || (len(para) > 0 && (startsBlock(l) || isTableStart(lines, i))) {
			break
		}
		para = append(para, l)
	}
	var text strings.Builder
	for k, l := range para {
		hard := strings.HasSuffix(l, "  ") || strings.HasSuffix(strings.TrimRight(l, " "), `\`) && !strings.HasSuffix(strings.TrimRight(l, " "), `\\`)
		l = strings.TrimSpace(l)
		if k < len(para)-1 {
			if hard {
				l = strings.TrimSuffix(l, `\`)
				text.WriteString(renderInline(l) + "<br>\n")
				continue
			}
			text.WriteString(renderInline(l) + "\n")
			continue
		}
		text.WriteString(renderInline(l))
	}
	if tight {
		b.WriteString(text.String() + "\n")
	} else {
		b.WriteString("<p>" + text.String() + "</p>\n")
	}
	return i
}

// renderList renders the list that starts at lines[i] and returns the index
// of the first line after it.
func renderList(b *strings.Builder, lines []string, i int, shift, depth int) int {
	kind, start, _, _ := listMarker(lines[i])
	base := indentOf(lines[i])
	var items [][]string
	loose := false
	for i < len(lines) {
		k, _, content, ok := listMarker(lines[i])
		if !ok || k != kind || indentOf(lines[i]) > base+1 {
			break
		}
		item := []string{strings.Repeat(" ", content) + lines[i][min(content, len(lines[i])):]}
		i++
		sawBlank := false
		for i < len(lines) {
			l := lines[i]
			if isBlank(l) {
				sawBlank = true
				item = append(item, "")
				i++
				continue
			}
			if indentOf(l) >= content {
				if sawBlank {
					loose = true
				}
				sawBlank = false
				item = append(item, l)
				i++
				continue
			}
			if sawBlank {
				break
			}
			if _, _, _, ok := listMarker(l); ok || startsBlock(l) {
				break
			}
			item = append(item, strings.Repeat(" ", content)+strings.TrimLeft(l, " ")) // lazy continuation
			i++
		}
		// Trailing blank lines end the item; between items they make the list loose.
		for len(item) > 0 && item[len(item)-1] == "" {
			item = item[:len(item)-1]
			if i < len(lines) {
				if k, _, _, ok := listMarker(lines[i]); ok && k == kind && indentOf(lines[i]) <= base+1 {
					loose = true
				}
			}
		}
		for j := range item {
			if len(item[j]) >= content {
				item[j] = item[j][content:]
			} else {
				item[j] = strings.TrimLeft(item[j], " ")
			}
		}
		items = append(items, item)
	}
	tag := "ul"
	open := "<ul>"
	if kind != "-" && kind != "*" && kind != "+" {
		tag = "ol"
		open = "<ol>"
		if start != 1 {
			open = `<ol start="` + strconv.Itoa(start) + `">`
		}
	}
	b.WriteString(open + "\n")
	for _, item := range items {
		b.WriteString("<li>")
		var inner strings.Builder
		renderBlocks(&inner, item, shift, !loose, depth+1)
		b.WriteString(strings.TrimSuffix(inner.String(), "\n"))
		b.WriteString("</li>\n")
	}
	b.WriteString("</" + tag + ">\n")
	return i
}

func isTableStart(lines []string, i int) bool {
	return i+1 < len(lines) && strings.Contains(lines[i], "|") && tableSep.MatchString(lines[i+1]) &&
		strings.Contains(lines[i+1], "-") && len(splitRow(lines[i])) == len(splitRow(lines[i+1]))
}

// splitRow splits a table row into its cells; "\|" stays inside a cell, as
// does a "|" inside a code span.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cur strings.Builder
	inCode := false
	for k := 0; k < len(line); k++ {
		c := line[k]
		switch {
		case c == '\\' && k+1 < len(line) && line[k+1] == '|':
			cur.WriteByte('|')
			k++
		case c == '`':
			inCode = !inCode
			cur.WriteByte(c)
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func renderTable(b *strings.Builder, lines []string, i int) int {
	head := splitRow(lines[i])
	var aligns []string
	for _, c := range splitRow(lines[i+1]) {
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			aligns = append(aligns, "center")
		case strings.HasSuffix(c, ":"):
			aligns = append(aligns, "right")
		case strings.HasPrefix(c, ":"):
			aligns = append(aligns, "left")
		default:
			aligns = append(aligns, "")
		}
	}
	cell := func(tag string, k int, text string) {
		b.WriteString("<" + tag)
		if aligns[k] != "" {
			b.WriteString(` style="text-align:` + aligns[k] + `"`)
		}
		b.WriteString(">" + renderInline(text) + "</" + tag + ">")
	}
	b.WriteString("<table>\n<thead><tr>")
	for k, h := range head {
		cell("th", k, h)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for i += 2; i < len(lines) && !isBlank(lines[i]) && strings.Contains(lines[i], "|"); i++ {
		row := splitRow(lines[i])
		b.WriteString("<tr>")
		for k := range head {
			text := ""
			if k < len(row) {
				text = row[k]
			}
			cell("td", k, text)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	return i
}

// renderInline renders the inline content of one block.
func renderInline(s string) string {
	var b strings.Builder
	inline(&b, s)
	return b.String()
}

var (
	autolinkRE = regexp.MustCompile(`^<((?:https?|mailto|ftp):[^<>\s]*)>`)
	bareURLRE  = regexp.MustCompile(`^https?://[^\s<>]*[^\s<>.,;:!?'")\]*_]`)
)

func isPunct(c byte) bool {
	return c < 0x80 && unicode.IsPunct(rune(c)) || strings.IndexByte("$+<=>^`|~", c) >= 0
}

func inline(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			b.WriteString(html.EscapeString(s[i+1 : i+2]))
			i += 2
		case c == '`':
			n := runLen(s, i, '`')
			if end := findRun(s, i+n, '`', n); end >= 0 {
				code := strings.ReplaceAll(s[i+n:end], "\n", " ")
				if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				b.WriteString("<code>" + html.EscapeString(code) + "</code>")
				i = end + n
			} else {
				b.WriteString(s[i : i+n])
				i += n
			}
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			if text, dest, end, ok := parseLink(s, i+1); ok {
				writeLink(b, dest, "image: "+text, true)
				i = end
			} else {
				b.WriteString("!")
				i++
			}
		case c == '[':
			if text, dest, end, ok := parseLink(s, i); ok {
				writeLink(b, dest, text, false)
				i = end
			} else {
				b.WriteString("[")
				i++
			}
		case c == '<':
			if m := autolinkRE.FindStringSubmatch(s[i:]); m != nil {
				writeURL(b, m[1], html.EscapeString(m[1]))
				i += len(m[0])
			} else {
				b.WriteString("&lt;")
				i++
			}
		case c == 'h' && (i == 0 || !isWordByte(s[i-1])) && bareURLRE.MatchString(s[i:]):
			u := bareURLRE.FindString(s[i:])
			writeURL(b, u, html.EscapeString(u))
			i += len(u)
		case c == '*' || c == '_' || c == '~':
			i = emphasis(b, s, i)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString("\uFFFD")
			} else {
				b.WriteString(html.EscapeString(s[i : i+size]))
			}
			i += size
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// findRun returns the index of the next run of exactly n bytes c at or after
// from, or -1.
func findRun(s string, from int, c byte, n int) int {
	for j := from; j < len(s); {
		if s[j] != c {
			j++
			continue
		}
		m := runLen(s, j, c)
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// parseLink reads "[text](dest "title")" starting at the "[" at s[i].
func parseLink(s string, i int) (text, dest string, end int, ok bool) {
	depth := 0
	j := i
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '`':
			n := runLen(s, j, '`')
			if e := findRun(s, j+n, '`', n); e >= 0 {
				j = e + n - 1
			} else {
				j += n - 1
			}
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(s) || j+1 >= len(s) || s[j+1] != '(' {
		return "", "", 0, false
	}
	text = s[i+1 : j]
	k := j + 2
	for k < len(s) && s[k] == ' ' {
		k++
	}
	var d strings.Builder
	if k < len(s) && s[k] == '<' {
		e := strings.IndexByte(s[k:], '>')
		if e < 0 {
			return "", "", 0, false
		}
		d.WriteString(s[k+1 : k+e])
		k += e + 1
	} else {
		parens := 0
		for ; k < len(s); k++ {
			c := s[k]
			if c == ' ' || c == '\n' {
				break
			}
			if c == '(' {
				parens++
			}
			if c == ')' {
				if parens == 0 {
					break
				}
				parens--
			}
			if c == '\\' && k+1 < len(s) && isPunct(s[k+1]) {
				k++
				c = s[k]
			}
			d.WriteByte(c)
		}
	}
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k < len(s) && (s[k] == '"' || s[k] == '\'') { // a title: read and drop it
		q := s[k]
		e := strings.IndexByte(s[k+1:], q)
		if e < 0 {
			return "", "", 0, false
		}
		k += e + 2
		for k < len(s) && s[k] == ' ' {
			k++
		}
	}
	if k >= len(s) || s[k] != ')' {
		return "", "", 0, false
	}
	return text, d.String(), k + 1, true
}

// safeURL returns u when its scheme is harmless (or it has none), else "".
func safeURL(u string) string {
	u = strings.TrimSpace(u)
	colon := strings.IndexByte(u, ':')
	if colon < 0 || strings.ContainsAny(u[:colon], "/?#") {
		return u // relative
	}
	switch strings.ToLower(u[:colon]) {
	case "http", "https", "mailto", "ftp":
		return u
	}
	return ""
}

func writeURL(b *strings.Builder, u, inner string) {
	if safe := safeURL(u); safe != "" {
		b.WriteString(`<a href="` + html.EscapeString(safe) + `">` + inner + "</a>")
		return
	}
	b.WriteString(inner)
}

func writeLink(b *strings.Builder, dest, text string, image bool) {
	var inner strings.Builder
	if image {
		inner.WriteString(html.EscapeString(text))
	} else {
		inline(&inner, text)
	}
	writeURL(b, dest, inner.String())
}

// emphasis handles a run of '*', '_' or '~' at s[i]: emphasis, strong
// emphasis or strikethrough when a matching closing run follows, the
// characters themselves otherwise.
func emphasis(b *strings.Builder, s string, i int) int {
	c := s[i]
	n := runLen(s, i, c)
	literal := func() int {
		b.WriteString(s[i : i+n])
		return i + n
	}
	if c == '~' && n != 2 || n > 3 {
		return literal()
	}
	// An opener is followed by a non-space; '_' must not sit inside a word.
	if i+n >= len(s) || s[i+n] == ' ' || s[i+n] == '\n' || c == '_' && i > 0 && isWordByte(s[i-1]) {
		return literal()
	}
	for j := i + n; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '`':
			m := runLen(s, j, '`')
			if e := findRun(s, j+m, '`', m); e >= 0 {
				j = e + m - 1
			}
			continue
		}
		if s[j] != c {
			continue
		}
		m := runLen(s, j, c)
		closes := m == n && s[j-1] != ' ' && s[j-1] != '\n' &&
			!(c == '_' && j+m < len(s) && isWordByte(s[j+m]))
		if !closes {
			j += m - 1
			continue
		}
		var inner strings.Builder
		inline(&inner, s[i+n:j])
		switch {
		case c == '~':
			b.WriteString("<del>" + inner.String() + "</del>")
		case n == 1:
			b.WriteString("<em>" + inner.String() + "</em>")
		case n == 2:
			b.WriteString("<strong>" + inner.String() + "</strong>")
		default:
			b.WriteString("<em><strong>" + inner.String() + "</strong></em>")
		}
		return j + m
	}
	return literal()
}
