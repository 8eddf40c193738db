package register

import (
	"regexp"
	"strings"
	"testing"
)

func TestRenderMarkdown(t *testing.T) {
	tests := []struct {
		name, in, want string
		shift          int
	}{
		{"heading shifted", "# JSON-RPC\n\ntext", "<h2>JSON-RPC</h2>\n<p>text</p>\n", 1},
		{"heading closing hashes", "## Status ##", "<h2>Status</h2>\n", 0},
		{"heading capped at h6", "###### deep", "<h6>deep</h6>\n", 3},
		{"not a heading", "#hashtag", "<p>#hashtag</p>\n", 0},
		{"paragraph lines joined", "one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n", 0},
		{"hard break", "one  \ntwo", "<p>one<br>\ntwo</p>\n", 0},
		{"html escaped", `<script>alert("x")</script> & co`, "<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; co</p>\n", 0},
		{"code span", "use `a<b>` here", "<p>use <code>a&lt;b&gt;</code> here</p>\n", 0},
		{"code span with backtick", "`` a`b ``", "<p><code>a`b</code></p>\n", 0},
		{"unclosed backtick", "a ` b", "<p>a ` b</p>\n", 0},
		{"emphasis", "*em* and _em_ and **strong** and __strong__", "<p><em>em</em> and <em>em</em> and <strong>strong</strong> and <strong>strong</strong></p>\n", 0},
		{"strong em", "***both***", "<p><em><strong>both</strong></em></p>\n", 0},
		{"intraword underscore", "snake_case_name", "<p>snake_case_name</p>\n", 0},
		{"lone star", "2 * 3", "<p>2 * 3</p>\n", 0},
		{"strikethrough", "~~gone~~", "<p><del>gone</del></p>\n", 0},
		{"emphasis inside link", "[a *b*](https://x.org/)", `<p><a href="https://x.org/">a <em>b</em></a></p>` + "\n", 0},
		{"link with title", `[t](http://e.com/a_b "T")`, `<p><a href="http://e.com/a_b">t</a></p>` + "\n", 0},
		{"link with parens", "[w](https://en.wikipedia.org/wiki/X_(y))", `<p><a href="https://en.wikipedia.org/wiki/X_(y)">w</a></p>` + "\n", 0},
		{"relative link", "[schema](schema.yaml)", `<p><a href="schema.yaml">schema</a></p>` + "\n", 0},
		{"javascript link dropped", "[x](javascript:alert(1))", "<p>x</p>\n", 0},
		{"attribute escaped", `[x](http://e.com/"onmouseover=")`, `<p><a href="http://e.com/&#34;onmouseover=&#34;">x</a></p>` + "\n", 0},
		{"image as link", "![logo](https://e.com/l.png)", `<p><a href="https://e.com/l.png">image: logo</a></p>` + "\n", 0},
		{"not a link", "[x] (y)", "<p>[x] (y)</p>\n", 0},
		{"autolink", "<https://e.com/x>", `<p><a href="https://e.com/x">https://e.com/x</a></p>` + "\n", 0},
		{"bare url", "see https://e.com/a.", `<p>see <a href="https://e.com/a">https://e.com/a</a>.</p>` + "\n", 0},
		{"backslash escape", `\*not em\*`, "<p>*not em*</p>\n", 0},
		{"bullet list tight", "- a\n- b `c`\n", "<ul>\n<li>a</li>\n<li>b <code>c</code></li>\n</ul>\n", 0},
		{"star list", "* a\n* b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n", 0},
		{"ordered list start", "3. c\n4. d", "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n", 0},
		{"nested list", "- a\n  - b\n  - c\n- d", "<ul>\n<li>a\n<ul>\n<li>b</li>\n<li>c</li>\n</ul></li>\n<li>d</li>\n</ul>\n", 0},
		{"loose list", "- a\n\n- b", "<ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>\n", 0},
		{"lazy continuation", "- a\nb", "<ul>\n<li>a\nb</li>\n</ul>\n", 0},
		{"list after paragraph", "text\n- a", "<p>text</p>\n<ul>\n<li>a</li>\n</ul>\n", 0},
		{"fenced code", "```json\n{\"a\": \"<b>\"}\n```\nafter", "<pre><code class=\"language-json\">{&#34;a&#34;: &#34;&lt;b&gt;&#34;}\n</code></pre>\n<p>after</p>\n", 0},
		{"tilde fence unclosed", "~~~\nx", "<pre><code>x\n</code></pre>\n", 0},
		{"indented code", "    a := 1\n\n    b\nnext", "<pre><code>a := 1\n\nb\n</code></pre>\n<p>next</p>\n", 0},
		{"quote", "> quoted *text*\nlazy", "<blockquote>\n<p>quoted <em>text</em>\nlazy</p>\n</blockquote>\n", 0},
		{"thematic break", "a\n\n---\n\nb", "<p>a</p>\n<hr>\n<p>b</p>\n", 0},
		{"table", "| a | b |\n|---|--:|\n| `x\\|y` | 2 |", "<table>\n<thead><tr><th>a</th><th style=\"text-align:right\">b</th></tr></thead>\n<tbody>\n<tr><td><code>x|y</code></td><td style=\"text-align:right\">2</td></tr>\n</tbody>\n</table>\n", 0},
		{"crlf and empty", "\r\n\r\n", "", 0},
		{"invalid utf-8", "a\xffb", "<p>a\uFFFDb</p>\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderMarkdown(tt.in, tt.shift); got != tt.want {
				t.Errorf("renderMarkdown(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestRenderMarkdownNeverLeaksTags feeds hostile and malformed inputs and
// checks that no tag the renderer does not make reaches the output.
func TestRenderMarkdownNeverLeaksTags(t *testing.T) {
	inputs := []string{
		"<img src=x onerror=alert(1)>",
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
		strings.Repeat("- ", 100) + "x",
		strings.Repeat("> ", 100) + "x",
	}
	allowed := map[string]bool{"p": true, "a": true, "em": true, "strong": true, "del": true, "code": true, "pre": true,
		"ul": true, "ol": true, "li": true, "blockquote": true, "table": true, "thead": true, "tbody": true, "tr": true,
		"th": true, "td": true, "hr": true, "br": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true}
	for _, in := range inputs {
		out := renderMarkdown(in, 0)
		for _, part := range strings.Split(out, "<")[1:] {
			name := strings.TrimPrefix(part, "/")
			if i := strings.IndexAny(name, " >"); i >= 0 {
				name = name[:i]
			}
			if !allowed[name] {
				t.Errorf("renderMarkdown(%q) = %q: tag %q", in, out, name)
			}
		}
		if strings.Contains(out, "javascript:") && strings.Contains(out, `href="javascript`) {
			t.Errorf("renderMarkdown(%q) = %q: javascript link", in, out)
		}
	}
}

// FuzzRenderMarkdown checks that any input renders without a panic and
// with no tag the renderer does not make.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{"# h\n\n- a\n  - b\n\n1. c\n\n> q\n\n```go\nx\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"*a **b** c* _d_ ~~e~~ `f` [g](h) ![i](j) <http://k> http://l.m/n", "\t- x\n    y\n- \n-", "[a](<b c>) [d](e 'f') \\*"} {
		f.Add(s)
	}
	tag := regexp.MustCompile(`<(/?)([a-z0-9]+)`)
	allowed := "p a em strong del code pre ul ol li blockquote table thead tbody tr th td hr br h1 h2 h3 h4 h5 h6"
	f.Fuzz(func(t *testing.T, in string) {
		out := renderMarkdown(in, 1)
		for _, m := range tag.FindAllStringSubmatch(out, -1) {
			if !strings.Contains(" "+allowed+" ", " "+m[2]+" ") {
				t.Fatalf("renderMarkdown(%q) makes tag %q:\n%s", in, m[2], out)
			}
		}
		if strings.Count(out, "<") != len(tag.FindAllString(out, -1)) {
			t.Fatalf("renderMarkdown(%q) leaves a raw '<':\n%s", in, out)
		}
	})
}
