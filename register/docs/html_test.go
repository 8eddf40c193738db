package docs

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// The expected HTML below is written by hand from the CommonMark 0.31 and
// GFM specifications: their serialisation (&quot; for '"', a newline after
// <li> in a loose list, percent-encoding in href, tables one cell a line)
// is what a CommonMark renderer gives. Where the page's rules differ from
// plain CommonMark (raw HTML shown as text, images as links, unsafe links
// without target), the case says so in its name.
func TestRenderMarkdown(t *testing.T) {
	tests := []struct {
		name, in, want string
		shift          int
	}{
		// ATX headings.
		{"heading shifted", "# JSON-RPC\n\ntext", "<h2>JSON-RPC</h2>\n<p>text</p>\n", 1},
		{"heading closing hashes", "## Status ##", "<h2>Status</h2>\n", 0},
		{"heading capped at h6", "###### deep", "<h6>deep</h6>\n", 3},
		{"not a heading", "#hashtag", "<p>#hashtag</p>\n", 0},
		{"heading with inline", "# The `id` *member*", "<h1>The <code>id</code> <em>member</em></h1>\n", 0},

		// Setext headings.
		{"setext h1", "Title\n=====", "<h1>Title</h1>\n", 0},
		{"setext h2", "Title\n---", "<h2>Title</h2>\n", 0},
		{"setext shifted", "Title\n=\n\nPart\n-", "<h2>Title</h2>\n<h3>Part</h3>\n", 1},
		{"setext shifted capped", "Title\n=", "<h6>Title</h6>\n", 9},
		{"setext two lines", "One\ntwo\n===", "<h1>One\ntwo</h1>\n", 0},
		{"setext after paragraph break", "para\n\nTitle\n===\ntext", "<p>para</p>\n<h1>Title</h1>\n<p>text</p>\n", 0},
		{"dashes after blank line are a break", "a\n\n---", "<p>a</p>\n<hr>\n", 0},
		{"setext underline with spaces inside is text", "a\n= =", "<p>a\n= =</p>\n", 0},

		// Paragraphs and breaks.
		{"paragraph lines joined", "one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n", 0},
		{"hard break", "one  \ntwo", "<p>one<br>\ntwo</p>\n", 0},
		{"backslash hard break", "one\\\ntwo", "<p>one<br>\ntwo</p>\n", 0},
		{"thematic break", "a\n\n---\n\nb", "<p>a</p>\n<hr>\n<p>b</p>\n", 0},
		{"star break interrupts paragraph", "a\n***\nb", "<p>a</p>\n<hr>\n<p>b</p>\n", 0},

		// Reference links.
		{"reference full", "[the spec][cm]\n\n[cm]: https://spec.commonmark.org/", `<p><a href="https://spec.commonmark.org/">the spec</a></p>` + "\n", 0},
		{"reference collapsed", "[cm][]\n\n[cm]: https://e.com/", `<p><a href="https://e.com/">cm</a></p>` + "\n", 0},
		{"reference shortcut", "see [cm].\n\n[cm]: https://e.com/", `<p>see <a href="https://e.com/">cm</a>.</p>` + "\n", 0},
		{"reference label case folded", "[x][CM]\n\n[cm]: /u", `<p><a href="/u">x</a></p>` + "\n", 0},
		{"reference defined before use", "[cm]: /u 'Title'\n\n[cm]", `<p><a href="/u" title="Title">cm</a></p>` + "\n", 0},
		{"reference definition alone renders nothing", "[cm]: /u", "", 0},
		{"first definition wins", "[a]: /one\n[a]: /two\n\n[a]", `<p><a href="/one">a</a></p>` + "\n", 0},
		{"undefined reference is text", "[x][nope]", "<p>[x][nope]</p>\n", 0},
		{"reference image as link", "![logo][l]\n\n[l]: https://e.com/l.png", `<p><a href="https://e.com/l.png">image: logo</a></p>` + "\n", 0},
		{"reference to javascript loses target", "[x]\n\n[x]: javascript:alert(1)", "<p>x</p>\n", 0},

		// Lists.
		{"bullet list tight", "- a\n- b `c`\n", "<ul>\n<li>a</li>\n<li>b <code>c</code></li>\n</ul>\n", 0},
		{"star list", "* a\n* b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n", 0},
		{"changing bullet starts a new list", "- a\n+ b", "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n", 0},
		{"ordered list start", "3. c\n4. d", "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n", 0},
		{"ordered with parens", "1) x\n2) y", "<ol>\n<li>x</li>\n<li>y</li>\n</ol>\n", 0},
		{"nested list", "- a\n  - b\n  - c\n- d", "<ul>\n<li>a\n<ul>\n<li>b</li>\n<li>c</li>\n</ul>\n</li>\n<li>d</li>\n</ul>\n", 0},
		{"nested three levels", "- a\n  - b\n    - c", "<ul>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n</li>\n</ul>\n", 0},
		{"ordered inside bullet", "- a\n  1. x\n  2. y", "<ul>\n<li>a\n<ol>\n<li>x</li>\n<li>y</li>\n</ol>\n</li>\n</ul>\n", 0},
		{"bullet inside ordered needs content indent", "1. a\n   - b", "<ol>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ol>\n", 0},
		{"under-indented is a sibling", "1. a\n - b", "<ol>\n<li>a</li>\n</ol>\n<ul>\n<li>b</li>\n</ul>\n", 0},
		{"loose list", "- a\n\n- b", "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n", 0},
		{"loose item with two paragraphs", "- a\n\n  b", "<ul>\n<li>\n<p>a</p>\n<p>b</p>\n</li>\n</ul>\n", 0},
		{"lazy continuation", "- a\nb", "<ul>\n<li>a\nb</li>\n</ul>\n", 0},
		{"list after paragraph", "text\n- a", "<p>text</p>\n<ul>\n<li>a</li>\n</ul>\n", 0},
		{"ordered not 1 does not interrupt paragraph", "text\n2. a", "<p>text\n2. a</p>\n", 0},
		{"fence in list item", "- x\n\n  ```\n  code\n  ```", "<ul>\n<li>\n<p>x</p>\n<pre><code>code\n</code></pre>\n</li>\n</ul>\n", 0},

		// Code spans.
		{"code span", "use `a<b>` here", "<p>use <code>a&lt;b&gt;</code> here</p>\n", 0},
		{"code span with backtick", "`` a`b ``", "<p><code>a`b</code></p>\n", 0},
		{"code span keeps backslash", "`a\\`b`", "<p><code>a\\</code>b`</p>\n", 0},
		{"code span line ending is a space", "`a\nb`", "<p><code>a b</code></p>\n", 0},
		{"code span only spaces kept", "`  `", "<p><code>  </code></p>\n", 0},
		{"code span beats emphasis", "*a `*` b*", "<p><em>a <code>*</code> b</em></p>\n", 0},
		{"unclosed backtick", "a ` b", "<p>a ` b</p>\n", 0},
		{"unmatched backtick run lengths", "```a``", "<p>```a``</p>\n", 0},

		// Fenced and indented code.
		{"fenced code", "```json\n{\"a\": \"<b>\"}\n```\nafter", "<pre><code class=\"language-json\">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}\n</code></pre>\n<p>after</p>\n", 0},
		{"tilde fence unclosed", "~~~\nx", "<pre><code>x\n</code></pre>\n", 0},
		{"fence info first word", "~~~ go extra\nx\n~~~", "<pre><code class=\"language-go\">x\n</code></pre>\n", 0},
		{"shorter fence does not close", "````\n```\n````", "<pre><code>```\n</code></pre>\n", 0},
		{"tilde fence holds backticks", "~~~\n```\n~~~", "<pre><code>```\n</code></pre>\n", 0},
		{"indented fence content dedented", "  ```\n  a\n    b\n  ```", "<pre><code>a\n  b\n</code></pre>\n", 0},
		{"no markdown in fence", "```\n# not *h*\n```", "<pre><code># not *h*\n</code></pre>\n", 0},
		{"empty fence", "```\n```", "<pre><code></code></pre>\n", 0},
		{"indented code", "    a := 1\n\n    b\nnext", "<pre><code>a := 1\n\nb\n</code></pre>\n<p>next</p>\n", 0},
		{"indented code with tab", "\tx", "<pre><code>x\n</code></pre>\n", 0},

		// Emphasis.
		{"emphasis", "*em* and _em_ and **strong** and __strong__", "<p><em>em</em> and <em>em</em> and <strong>strong</strong> and <strong>strong</strong></p>\n", 0},
		{"strong em", "***both***", "<p><em><strong>both</strong></em></p>\n", 0},
		{"intraword underscore", "snake_case_name", "<p>snake_case_name</p>\n", 0},
		{"intraword star", "foo*bar*", "<p>foo<em>bar</em></p>\n", 0},
		{"lone star", "2 * 3", "<p>2 * 3</p>\n", 0},
		{"unbalanced run", "**foo*", "<p>*<em>foo</em></p>\n", 0},
		{"strong inside em", "*foo**bar**baz*", "<p><em>foo<strong>bar</strong>baz</em></p>\n", 0},
		{"space after opener", "* a*", "<ul>\n<li>a*</li>\n</ul>\n", 0},
		{"not left-flanking", "a * b*", "<p>a * b*</p>\n", 0},
		{"strikethrough", "~~gone~~", "<p><del>gone</del></p>\n", 0},
		{"strikethrough single tilde (GFM)", "~gone~", "<p><del>gone</del></p>\n", 0},

		// Links and autolinks.
		{"emphasis inside link", "[a *b*](https://x.org/)", `<p><a href="https://x.org/">a <em>b</em></a></p>` + "\n", 0},
		{"link with title", `[t](http://e.com/a_b "T")`, `<p><a href="http://e.com/a_b" title="T">t</a></p>` + "\n", 0},
		{"link with parens", "[w](https://en.wikipedia.org/wiki/X_(y))", `<p><a href="https://en.wikipedia.org/wiki/X_(y)">w</a></p>` + "\n", 0},
		{"link in angle brackets with space", "[a](<b c>)", `<p><a href="b%20c">a</a></p>` + "\n", 0},
		{"link destination escapes", `[a](/u\*v&amp;w)`, `<p><a href="/u*v&amp;w">a</a></p>` + "\n", 0},
		{"relative link", "[schema](schema.yaml)", `<p><a href="schema.yaml">schema</a></p>` + "\n", 0},
		{"fragment link", "[top](#top)", `<p><a href="#top">top</a></p>` + "\n", 0},
		{"mailto link", "[me](mailto:a@e.com)", `<p><a href="mailto:a@e.com">me</a></p>` + "\n", 0},
		{"attribute escaped", `[x](http://e.com/"onmouseover=")`, `<p><a href="http://e.com/%22onmouseover=%22">x</a></p>` + "\n", 0},
		{"not a link", "[x] (y)", "<p>[x] (y)</p>\n", 0},
		{"autolink", "<https://e.com/x>", `<p><a href="https://e.com/x">https://e.com/x</a></p>` + "\n", 0},
		{"email autolink", "<a@e.com>", `<p><a href="mailto:a@e.com">a@e.com</a></p>` + "\n", 0},
		{"bare url", "see https://e.com/a.", `<p>see <a href="https://e.com/a">https://e.com/a</a>.</p>` + "\n", 0},
		{"bare www", "at www.e.com/x now", `<p>at <a href="http://www.e.com/x">www.e.com/x</a> now</p>` + "\n", 0},
		{"bare url inside link text", "[see https://a.com/](https://b.com/)", `<p><a href="https://b.com/">see https://a.com/</a></p>` + "\n", 0},
		{"backslash escape", `\*not em\*`, "<p>*not em*</p>\n", 0},
		{"entities resolved then escaped", "&copy; &lt;b&gt; &#106; &amp;", "<p>\u00a9 &lt;b&gt; j &amp;</p>\n", 0},

		// Offline: images become links, never <img>.
		{"image as link", "![logo](https://e.com/l.png)", `<p><a href="https://e.com/l.png">image: logo</a></p>` + "\n", 0},
		{"image description as plain text", "![a *b* `c`](i.png)", `<p><a href="i.png">image: a b c</a></p>` + "\n", 0},
		{"image in link (badge) is the link's text", "[![build](b.svg)](https://ci.e.com/)", `<p><a href="https://ci.e.com/">image: build</a></p>` + "\n", 0},
		{"data image loses target", "![x](data:image/png;base64,AAAA)", "<p>image: x</p>\n", 0},

		// Unsafe schemes lose their target, keep their text.
		{"javascript link dropped", "[x](javascript:alert(1))", "<p>x</p>\n", 0},
		{"javascript by entity dropped", "[x](&#106;avascript:alert(1))", "<p>x</p>\n", 0},
		{"javascript upper case dropped", "[x](JaVaScRiPt:alert(1))", "<p>x</p>\n", 0},
		{"javascript in angle brackets dropped", "[x](<javascript:alert(1)>)", "<p>x</p>\n", 0},
		{"vbscript dropped", "[x](vbscript:msgbox)", "<p>x</p>\n", 0},
		{"javascript autolink dropped", "<javascript:alert(1)>", "<p>javascript:alert(1)</p>\n", 0},
		{"file link dropped", "[f](file:///etc/passwd)", "<p>f</p>\n", 0},
		{"unsafe link keeps inner markup", "[*x*](javascript:1)", "<p><em>x</em></p>\n", 0},

		// Raw HTML is shown as text (CommonMark would pass it through).
		{"html escaped", `<script>alert("x")</script> & co`, "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</p>\n", 0},
		{"inline html escaped", `a <b class="x">b</b>`, "<p>a &lt;b class=&quot;x&quot;&gt;b&lt;/b&gt;</p>\n", 0},
		{"html comment escaped", "<!-- c -->", "<p>&lt;!-- c --&gt;</p>\n", 0},
		{"html block is raw text up to blank line", "<div>\n*x*\n\ny", "<p>&lt;div&gt;\n*x*</p>\n<p>y</p>\n", 0},
		{"script block runs past blank line", "<script>\na\n\nb</script>\nc", "<p>&lt;script&gt;\na\n\nb&lt;/script&gt;</p>\n<p>c</p>\n", 0},
		{"processing instruction", "<?php x ?>", "<p>&lt;?php x ?&gt;</p>\n", 0},
		{"declaration", "<!DOCTYPE html>", "<p>&lt;!DOCTYPE html&gt;</p>\n", 0},
		{"cdata", "<![CDATA[x]]>", "<p>&lt;![CDATA[x]]&gt;</p>\n", 0},
		{"html in quote", "> <div>", "<blockquote>\n<p>&lt;div&gt;</p>\n</blockquote>\n", 0},
		{"escaped angle bracket", `\<b>`, "<p>&lt;b&gt;</p>\n", 0},

		// Block quotes and tables.
		{"quote", "> quoted *text*\nlazy", "<blockquote>\n<p>quoted <em>text</em>\nlazy</p>\n</blockquote>\n", 0},
		{"nested quote", "> a\n>> b", "<blockquote>\n<p>a</p>\n<blockquote>\n<p>b</p>\n</blockquote>\n</blockquote>\n", 0},
		{"table", "| a | b |\n|---|--:|\n| `x\\|y` | 2 |", "<table>\n<thead>\n<tr>\n<th>a</th>\n<th style=\"text-align:right\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><code>x|y</code></td>\n<td style=\"text-align:right\">2</td>\n</tr>\n</tbody>\n</table>\n", 0},
		{"table alignments and short row", "a|b|c\n:-|:-:|-\n1|2", "<table>\n<thead>\n<tr>\n<th style=\"text-align:left\">a</th>\n<th style=\"text-align:center\">b</th>\n<th>c</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style=\"text-align:left\">1</td>\n<td style=\"text-align:center\">2</td>\n<td></td>\n</tr>\n</tbody>\n</table>\n", 0},
		{"table html escaped", "| a |\n| - |\n| <b> |", "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>&lt;b&gt;</td>\n</tr>\n</tbody>\n</table>\n", 0},
		{"header and delimiter must match", "| a | b |\n| - |", "<p>| a | b |\n| - |</p>\n", 0},

		// Input hygiene.
		{"crlf and empty", "\r\n\r\n", "", 0},
		{"crlf lines", "a\r\nb\r\n===", "<h1>a\nb</h1>\n", 0},
		{"invalid utf-8", "a\xffb", "<p>a\uFFFDb</p>\n", 0},
		{"nul", "a\x00b", "<p>a\uFFFDb</p>\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HTML(tt.in, tt.shift)
			if got != tt.want {
				t.Errorf("HTML(%q, %d)\n got %q\nwant %q", tt.in, tt.shift, got, tt.want)
			}
			if err := checkMarkup(got); err != nil {
				t.Errorf("HTML(%q, %d) = %q: %v", tt.in, tt.shift, got, err)
			}
		})
	}
}

// TestRenderMarkdownNeverLeaksTags feeds hostile and malformed inputs and
// checks that only markup the renderer makes reaches the output, well
// formed, with no link to an unsafe scheme and nothing a browser would load.
func TestRenderMarkdownNeverLeaksTags(t *testing.T) {
	inputs := []string{
		"<img src=x onerror=alert(1)>",
		"<img src=x onerror=alert(1)>\n\ntext",
		"a <img src=x> b",
		"[<b>x</b>](http://e.com)",
		"`<i>` <i>",
		"- <div>\n  - <span>",
		"| <a> | b |\n|-|-|\n| <c> | d |",
		"> <iframe>",
		"**<u>**",
		"[x](<javascript:alert(1)>)",
		"![<svg onload=1>](x)",
		"[[[[[[",
		"*_*_*_~~",
		"```\n<x>",
		"1. \n2.",
		"<style>@import url(x)</style>",
		"<link rel=stylesheet href=x>",
		"<!-- <script> -->",
		"<textarea>\n\n<b>\n</textarea>",
		"<a href=\"javascript:alert(1)\">x</a>",
		"[x](java\tscript:alert(1))",
		"[x](&#x6A;avascript&colon;alert(1))",
		"[x](&#0;javascript:alert(1))",
		"[x]: <javascript:alert(1)> \"t\"\n\n[x] ![x]",
		"![a](data:image/svg+xml;base64,PHN2Zz4=)",
		"[![a](b)](c) [![a](javascript:1)](d) [![a](e)](javascript:1)",
		"[a [b](c)](d)",
		"<http://a.b/<script>>",
		"www.e.com/<script>",
		"http://e.com/\"><script>",
		"[x](http://e.com/\"><script>)",
		"[x](y \"\\\"><script>\")",
		"```\"><script>\nx\n```",
		"# <h1>\n\n<h1>\n===",
		strings.Repeat("- ", 100) + "x",
		strings.Repeat("> ", 100) + "x",
		strings.Repeat("[", 100) + "x" + strings.Repeat("](y)", 100),
		strings.Repeat("*", 100) + "x" + strings.Repeat("*", 99),
	}
	for _, in := range inputs {
		for _, shift := range []int{0, 2} {
			out := HTML(in, shift)
			if err := checkMarkup(out); err != nil {
				t.Errorf("HTML(%q, %d) = %q: %v", in, shift, out, err)
			}
		}
	}
}

// TestRenderMarkdownConcurrent renders from several goroutines at once
// (the build renders pages in parallel) and expects what one goroutine
// gets; run with -race it also checks the shared renderer is only read.
func TestRenderMarkdownConcurrent(t *testing.T) {
	inputs := []string{"Title\n===\n\n[a][r] ![i](j)\n\n[r]: /u", "- a\n  - b\n\n| x |\n|---|\n| y |", "<b>x</b> ~~y~~ https://e.com/"}
	var want []string
	for _, in := range inputs {
		want = append(want, HTML(in, 1))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(inputs))
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, in := range inputs {
				if got := HTML(in, 1); got != want[i] {
					errs <- fmt.Sprintf("HTML(%q) = %q concurrently, %q alone", in, got, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestSafeURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://e.com/", "https://e.com/"},
		{" HTTP://e.com ", "HTTP://e.com"},
		{"mailto:a@e.com", "mailto:a@e.com"},
		{"ftp://e.com/f", "ftp://e.com/f"},
		{"schema.yaml", "schema.yaml"},
		{"../a/b.html#x:y", "../a/b.html#x:y"},
		{"/a:b", "/a:b"},
		{"?q=a:b", "?q=a:b"},
		{"javascript:alert(1)", ""},
		{"JAVASCRIPT:x", ""},
		{"data:text/html,x", ""},
		{"vbscript:x", ""},
		{"file:///etc/passwd", ""},
		{"java\tscript:x", ""},
		{"\x01javascript:x", ""},
	}
	for _, tt := range tests {
		if got := SafeURL(tt.in); got != tt.want {
			t.Errorf("SafeURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The markup HTML may make: each element with the attributes it
// may carry. br and hr are void.
var (
	markupAttrs = map[string][]string{
		"p": nil, "em": nil, "strong": nil, "del": nil, "code": {"class"}, "pre": nil,
		"ul": nil, "ol": {"start"}, "li": nil, "blockquote": nil, "hr": nil, "br": nil,
		"table": nil, "thead": nil, "tbody": nil, "tr": nil, "th": {"style"}, "td": {"style"},
		"h1": nil, "h2": nil, "h3": nil, "h4": nil, "h5": nil, "h6": nil, "a": {"href", "title"},
	}
	markupTag  = regexp.MustCompile(`^<(/?)([a-z0-9]+)((?: [a-z]+="[^"<>]*")*)>`)
	markupAttr = regexp.MustCompile(` ([a-z]+)="([^"]*)"`)
	markupRef  = regexp.MustCompile(`^&(?:amp|lt|gt|quot);`)
	attrValue  = map[string]*regexp.Regexp{
		"class": regexp.MustCompile(`^language-[^ ]+$`),
		"start": regexp.MustCompile(`^[0-9]{1,9}$`),
		"style": regexp.MustCompile(`^text-align:(?:left|center|right)$`),
		"href":  regexp.MustCompile(`^[^\x00-\x20\x7f]*$`),
		"title": regexp.MustCompile(`^`),
	}
)

// checkMarkup checks HTML that HTML made for what the page needs:
// valid UTF-8; only the elements and attributes above, properly nested and
// closed, no link inside a link; every '<' and '>' part of a tag and every
// '&' a character reference; every href relative or http, https, mailto or
// ftp. It is written apart from the renderer, so as to check it.
func checkMarkup(out string) error {
	if !utf8.ValidString(out) {
		return fmt.Errorf("not UTF-8")
	}
	var open []string
	for i := 0; i < len(out); {
		switch out[i] {
		case '>':
			return fmt.Errorf("raw '>' at %d", i)
		case '&':
			if !markupRef.MatchString(out[i:]) {
				return fmt.Errorf("bare '&' at %d", i)
			}
			i++
			continue
		case '<':
		default:
			i++
			continue
		}
		m := markupTag.FindStringSubmatch(out[i:])
		if m == nil {
			return fmt.Errorf("raw '<' at %d", i)
		}
		i += len(m[0])
		name := m[2]
		allowed, ok := markupAttrs[name]
		if !ok {
			return fmt.Errorf("element %q", name)
		}
		if m[1] == "/" {
			if m[3] != "" || len(open) == 0 || open[len(open)-1] != name {
				return fmt.Errorf("</%s> closes %v", name, open)
			}
			open = open[:len(open)-1]
			continue
		}
		for _, a := range markupAttr.FindAllStringSubmatch(m[3], -1) {
			if !strings.Contains(" "+strings.Join(allowed, " ")+" ", " "+a[1]+" ") {
				return fmt.Errorf("attribute %s on <%s>", a[1], name)
			}
			if err := checkRefs(a[2]); err != nil {
				return fmt.Errorf("attribute %s: %v", a[1], err)
			}
			if !attrValue[a[1]].MatchString(a[2]) {
				return fmt.Errorf("attribute %s=%q", a[1], a[2])
			}
			if a[1] == "href" {
				if s := scheme(a[2]); s != "" && s != "http" && s != "https" && s != "mailto" && s != "ftp" {
					return fmt.Errorf("link to %q", a[2])
				}
			}
		}
		if name == "br" || name == "hr" {
			continue
		}
		for _, o := range open {
			if o == name && (name == "a" || name == "p") {
				return fmt.Errorf("<%s> inside <%s>", name, name)
			}
		}
		open = append(open, name)
	}
	if len(open) > 0 {
		return fmt.Errorf("unclosed %v", open)
	}
	return nil
}

func checkRefs(s string) error {
	for i := strings.IndexByte(s, '&'); i >= 0; i = strings.IndexByte(s, '&') {
		if !markupRef.MatchString(s[i:]) {
			return fmt.Errorf("bare '&' in %q", s)
		}
		s = s[i+1:]
	}
	return nil
}

// scheme returns the lower-cased scheme of an href as written in HTML, or
// "" for a relative one.
func scheme(href string) string {
	href = strings.ReplaceAll(href, "&amp;", "&")
	i := strings.IndexAny(href, ":/?#")
	if i < 0 || href[i] != ':' {
		return ""
	}
	return strings.ToLower(href[:i])
}

// FuzzRenderMarkdown checks that any input renders without a panic into
// markup that checkMarkup accepts.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{"# h\n\n- a\n  - b\n\n1. c\n\n> q\n\n```go\nx\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"*a **b** c* _d_ ~~e~~ `f` [g](h) ![i](j) <http://k> http://l.m/n", "\t- x\n    y\n- \n-", "[a](<b c>) [d](e 'f') \\*",
		"T\n=\n\nU\n-\n\n[x][r] [r][] [r] ![i][r]\n\n[r]: /u \"t\"", "<div>\n<b>\n\n<!-- c --> <i>x</i> &copy; &#0;",
		"[![a](b)](c) [a](javascript:b) <javascript:c> www.d.e a@b.cd",
		// Nested at and past the limit, in each way, and <script> in it.
		strings.Repeat("> ", 512) + "<script>x", strings.Repeat(">", 513) + "<script>x", strings.Repeat("- 1. ", 257) + "\n\t- x",
		strings.Repeat("\t", 128) + "* x\n" + strings.Repeat("\t", 129) + "* <b>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := HTML(in, 1)
		if err := checkMarkup(out); err != nil {
			t.Fatalf("HTML(%q) = %q: %v", in, out, err)
		}
	})
}

// TestRenderMarkdownDepth: Markdown whose blockquotes and lists nest past
// 512 is shown as written, escaped, under a note naming the line; up to
// 512 it is rendered. goldmark took 16 s on a blockquote 100,000 deep and
// 33 s on a list of 1,600 lines, each indented two columns more.
func TestRenderMarkdownDepth(t *testing.T) {
	// A list whose item on line k is indented 2(k-1) columns: nested k
	// deep, it counts 2k-1.
	indented := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name, src string
		line      int    // of the note; 0: rendered
		tag       string // when rendered, what it holds
		tags      int    // and how many
	}{
		{"blockquotes of 512", strings.Repeat(">", 512) + " x\n", 0, "<blockquote>", 512},
		{"blockquotes with spaces, 512", strings.Repeat("> ", 512) + "x\n", 0, "<blockquote>", 512},
		{"lists of 512", strings.Repeat("- ", 200) + strings.Repeat("1. ", 312) + "x\n", 0, "<li>", 512},
		{"indented list of 20", indented(20), 0, "<ul>", 20},
		{"blockquotes of 513", "text\n\n" + strings.Repeat("> ", 513) + "x\n", 3, "", 0},
		{"blockquotes of 100,000", strings.Repeat(">", 100_000) + " x\n", 1, "", 0},
		{"lists of 513", strings.Repeat("1. ", 200) + strings.Repeat("* ", 313) + "x\n", 1, "", 0},
		{"indented list of 257", indented(257), 257, "", 0},
		{"indented list of 1,600", indented(1600), 257, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := HTML(c.src, 0)
			if err := checkMarkup(out); err != nil {
				t.Fatal(err)
			}
			note := fmt.Sprintf("<p><strong>Shown as written: line %d nests blockquotes and lists more than 512 deep.</strong></p>\n<pre>", c.line)
			switch {
			case c.line > 0 && !strings.HasPrefix(out, note):
				t.Errorf("%.200s..., want the note of line %d", out, c.line)
			case c.line > 0 && !strings.Contains(out, strings.ReplaceAll(c.src, ">", "&gt;")):
				t.Errorf("the text is not shown as written")
			case c.line == 0 && strings.Count(out, c.tag) != c.tags:
				t.Errorf("%d %s, want %d", strings.Count(out, c.tag), c.tag, c.tags)
			}
		})
	}
}

// TestRenderMarkdownLinks: a LinkFunc decides where each link, image and
// autolink leads, is given the destination with its escapes resolved, and
// cannot bring an unsafe scheme onto the page.
func TestRenderMarkdownLinks(t *testing.T) {
	var asked []string
	resolve := func(dest string) (string, bool) {
		asked = append(asked, dest)
		switch dest {
		case "examples.yaml":
			return "../_sources/x/examples.yaml", true
		case "bblocks://x.other":
			return "x.other.html", true
		case "fig 1.png":
			return "../_sources/x/fig 1.png", true
		case "evil":
			return "javascript:alert(1)", true
		case "https://example.org/a&b", "mailto:me@example.org":
			return dest, true
		}
		return "", false
	}
	tests := []struct {
		name, in, want string
	}{
		{"relative file", "[examples](examples.yaml)", `<p><a href="../_sources/x/examples.yaml">examples</a></p>` + "\n"},
		{"bblocks URI", "[other](bblocks://x.other)", `<p><a href="x.other.html">other</a></p>` + "\n"},
		{"nowhere: the text alone", "see [validation](validation) *now*", "<p>see validation <em>now</em></p>\n"},
		{"escapes resolved before asking", `[e](examples\.yaml)`, `<p><a href="../_sources/x/examples.yaml">e</a></p>` + "\n"},
		{"image", "![a figure](<fig 1.png>)", `<p><a href="../_sources/x/fig%201.png">image: a figure</a></p>` + "\n"},
		{"unsafe answer shown as text", "[click](evil)", "<p>click</p>\n"},
		{"autolinks", "<https://example.org/a&b> and me@example.org", `<p><a href="https://example.org/a&amp;b">https://example.org/a&amp;b</a> and <a href="mailto:me@example.org">me@example.org</a></p>` + "\n"},
		{"an image in a link that leads nowhere keeps its link", "[![fig](<fig 1.png>)](nowhere)", `<p><a href="../_sources/x/fig%201.png">image: fig</a></p>` + "\n"},
		{"an image in a link: the link only", "[![fig](<fig 1.png>)](examples.yaml)", `<p><a href="../_sources/x/examples.yaml">image: fig</a></p>` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := HTMLLinks(tc.in, 0, resolve); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	if !strings.Contains(strings.Join(asked, "\n"), "examples.yaml") {
		t.Errorf("the LinkFunc was asked %q", asked)
	}
	if got := HTMLLinks("[a](b.md)", 0, nil); got != `<p><a href="b.md">a</a></p>`+"\n" {
		t.Errorf("without a LinkFunc: %q", got)
	}
}
