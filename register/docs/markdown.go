package docs

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// fence returns a Markdown code fence longer than any run of backticks in
// code.
func fence(code string) string {
	n, run := 3, 0
	for _, c := range code {
		if c == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

// markdown returns the block's generated Markdown documentation.
func (r *Register) markdown(bo *Block) []byte {
	b := bo.Source
	from := MarkdownPath(b)
	var w strings.Builder
	fmt.Fprintf(&w, "# %s (%s)\n\n", b.Meta.Name, b.ID)
	if b.Meta.Abstract != "" {
		fmt.Fprintf(&w, "%s\n\n", strings.TrimSpace(b.Meta.Abstract))
	} else if b.Meta.Description != "" {
		fmt.Fprintf(&w, "%s\n\n", strings.TrimSpace(b.Meta.Description))
	}
	fmt.Fprintf(&w, "- Status: %s\n- Version: %s\n- Item class: %s\n", b.Meta.Status, b.Meta.Version, b.Meta.ItemClass)
	if len(b.Deps) > 0 {
		fmt.Fprintf(&w, "- Depends on: %s\n", strings.Join(b.Deps, ", "))
	}
	verdict := "passed"
	if !bo.Passed {
		verdict = "failed"
	}
	c := bo.Counts
	fmt.Fprintf(&w, "- Validation: %s (%d of %d examples, %d of %d tests)\n\n", verdict,
		c.ExamplesPassed, c.ExamplesPassed+c.ExamplesFailed, c.TestsPassed, c.TestsPassed+c.TestsFailed)
	if bo.Description != "" {
		fmt.Fprintf(&w, "## Description\n\n%s\n\n", strings.TrimSpace(shiftHeadings(bo.Description, 2)))
	}
	if len(bo.Outputs) > 0 {
		w.WriteString("## Examples\n\n")
		for _, ex := range bo.Outputs {
			fmt.Fprintf(&w, "### %s\n\n", ex.Title)
			if c := strings.TrimSpace(ex.Content); c != "" {
				fmt.Fprintf(&w, "%s\n\n", shiftHeadings(c, 4))
			}
			for _, s := range ex.Files {
				code := strings.TrimRight(string(s.Code), "\n")
				f := fence(code)
				fmt.Fprintf(&w, "#### %s\n\n%s%s\n%s\n%s\n\n", s.Language, f, s.Language, code, f)
			}
		}
	}
	link := func(file string) string { return r.Layout.Link(from, path.Join(bo.Annotated, file)) }
	if bo.Schema != nil {
		fmt.Fprintf(&w, "## Schema\n\n")
		code := strings.TrimRight(string(bo.Schema), "\n")
		f := fence(code)
		fmt.Fprintf(&w, "%syaml\n%s\n%s\n\n", f, code, f)
		fmt.Fprintf(&w, "Links to the schema:\n\n- YAML version: [schema.yaml](%s)\n- JSON version: [schema.json](%s)\n\n",
			link("schema.yaml"), link("schema.json"))
	}
	if bo.Context != nil {
		fmt.Fprintf(&w, "## JSON-LD Context\n\n")
		code := strings.TrimRight(string(bo.Context), "\n")
		f := fence(code)
		fmt.Fprintf(&w, "%sjsonld\n%s\n%s\n\n", f, code, f)
		fmt.Fprintf(&w, "You can find the full JSON-LD context here: [context.jsonld](%s)\n\n", link("context.jsonld"))
	}
	if len(b.Meta.Sources) > 0 {
		w.WriteString("## Sources\n\n")
		for _, s := range b.Meta.Sources {
			if s.Link != "" {
				fmt.Fprintf(&w, "- [%s](%s)\n", s.Title, s.Link)
			} else {
				fmt.Fprintf(&w, "- %s\n", s.Title)
			}
		}
		w.WriteString("\n")
	}
	return []byte(strings.TrimRight(w.String(), "\n") + "\n")
}

// ATX headings and code fence openings, as shiftHeadings sees them.
var (
	headingRE = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ ]+(.*?))?(?:[ ]+#+)?[ ]*$`)
	fenceRE   = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})[ ]*([^`]*)$")
)

// shiftHeadings moves the ATX headings of Markdown text (outside code
// fences) down so that the top level becomes level top.
func shiftHeadings(md string, top int) string {
	lines := strings.Split(md, "\n")
	inFence := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			if inFence == "" {
				inFence = m[2][:1]
			} else if strings.HasPrefix(t, inFence) {
				inFence = ""
			}
			continue
		}
		if inFence != "" || !headingRE.MatchString(l) {
			continue
		}
		n := len(t) - len(strings.TrimLeft(t, "#"))
		level := min(n+top-1, 6)
		lines[i] = strings.Repeat("#", level) + t[n:]
	}
	return strings.Join(lines, "\n")
}
