package results

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/jrpcld/jrpcld/rdf"
)

// Read reads a whole result in format f.
func Read(r io.Reader, f Format) (*Table, error) {
	switch f {
	case JSON:
		return readJSON(r)
	case XML:
		return readXML(r)
	case CSV:
		return readCSV(r)
	case TSV:
		return readTSV(r)
	}
	return nil, &FormatError{Name: f.String()}
}

type jsonTerm struct {
	Type     string  `json:"type"`
	Value    *string `json:"value"`
	Lang     string  `json:"xml:lang"`
	Datatype string  `json:"datatype"`
}

func readJSON(r io.Reader) (*Table, error) {
	var doc struct {
		Head struct {
			Vars []string `json:"vars"`
		} `json:"head"`
		Boolean *bool `json:"boolean"`
		Results *struct {
			Bindings []map[string]jsonTerm `json:"bindings"`
		} `json:"results"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, &ReadError{Format: JSON, Msg: err.Error()}
	}
	t := &Table{Vars: doc.Head.Vars, Boolean: doc.Boolean}
	switch {
	case doc.Boolean != nil && doc.Results != nil:
		return nil, &ReadError{Format: JSON, Msg: `both "boolean" and "results"`}
	case doc.Boolean != nil:
		return t, nil
	case doc.Results == nil:
		return nil, &ReadError{Format: JSON, Msg: `neither "boolean" nor "results"`}
	}
	for i, b := range doc.Results.Bindings {
		row := make([]rdf.Term, len(t.Vars))
		for name, jt := range b {
			j := slices.Index(t.Vars, name)
			if j < 0 {
				return nil, &ReadError{Format: JSON, Row: i + 1, Msg: "binding of " + name + ", not a variable of the head"}
			}
			if jt.Value == nil {
				return nil, &ReadError{Format: JSON, Row: i + 1, Msg: "binding of " + name + " has no value"}
			}
			v := *jt.Value
			switch jt.Type {
			case "uri":
				row[j] = rdf.NewIRI(v)
			case "bnode":
				row[j] = rdf.NewBlank(v)
			case "literal", "typed-literal":
				row[j] = literal(v, jt.Lang, jt.Datatype)
			default:
				return nil, &ReadError{Format: JSON, Row: i + 1, Msg: "binding of " + name + " has type " + jt.Type}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

func literal(v, lang, dt string) rdf.Term {
	if lang != "" {
		return rdf.NewLangLiteral(v, lang)
	}
	return rdf.NewLiteral(v, dt)
}

func readXML(r io.Reader) (*Table, error) {
	d := xml.NewDecoder(r)
	t := &Table{}
	var row []rdf.Term
	var binding = -1
	var lang, dt string
	var text strings.Builder
	fail := func(msg string) (*Table, error) {
		line, _ := d.InputPos()
		return nil, &ReadError{Format: XML, Line: line, Msg: msg}
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(err.Error())
		}
		switch e := tok.(type) {
		case xml.StartElement:
			attr := func(name string) string {
				for _, a := range e.Attr {
					if a.Name.Local == name {
						return a.Value
					}
				}
				return ""
			}
			switch e.Name.Local {
			case "variable":
				t.Vars = append(t.Vars, attr("name"))
			case "result":
				row = make([]rdf.Term, len(t.Vars))
			case "binding":
				if binding = slices.Index(t.Vars, attr("name")); binding < 0 || binding >= len(row) {
					return fail("binding of " + attr("name") + ", not a variable of the head")
				}
			case "uri", "bnode", "literal":
				lang, dt = attr("lang"), attr("datatype")
				text.Reset()
			case "boolean":
				text.Reset()
			}
		case xml.CharData:
			text.Write(e)
		case xml.EndElement:
			if e.Name.Local == "uri" || e.Name.Local == "bnode" || e.Name.Local == "literal" {
				if binding < 0 || row == nil {
					return fail("a value outside a binding")
				}
			}
			switch e.Name.Local {
			case "uri":
				row[binding] = rdf.NewIRI(text.String())
			case "bnode":
				row[binding] = rdf.NewBlank(text.String())
			case "literal":
				row[binding] = literal(text.String(), lang, dt)
			case "result":
				t.Rows = append(t.Rows, row)
				row, binding = nil, -1
			case "binding":
				binding = -1
			case "boolean":
				b, ok := map[string]bool{"true": true, "false": false}[strings.TrimSpace(text.String())]
				if !ok {
					return fail("boolean " + text.String())
				}
				t.Boolean = &b
			}
		}
	}
	return t, nil
}

func readCSV(r io.Reader) (*Table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 0
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, &ReadError{Format: CSV, Msg: err.Error()}
	}
	if len(recs) == 0 {
		return nil, &ReadError{Format: CSV, Msg: "no header line"}
	}
	t := &Table{Vars: recs[0]}
	for _, rec := range recs[1:] {
		row := make([]rdf.Term, len(rec))
		for i, f := range rec {
			switch {
			case f == "":
			case strings.HasPrefix(f, "_:"):
				row[i] = rdf.NewBlank(f[2:])
			case rdf.HasScheme(f):
				row[i] = rdf.NewIRI(f)
			default:
				row[i] = rdf.NewLiteral(f, rdf.XSDString)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

func readTSV(r io.Reader) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<26)
	t := &Table{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		fields := strings.Split(text, "\t")
		if line == 1 {
			for _, f := range fields {
				v, ok := strings.CutPrefix(f, "?")
				if !ok {
					v, ok = strings.CutPrefix(f, "$")
				}
				if !ok || v == "" {
					return nil, &ReadError{Format: TSV, Line: 1, Msg: "header field " + f + " is not a variable"}
				}
				t.Vars = append(t.Vars, v)
			}
			continue
		}
		if len(fields) != len(t.Vars) {
			return nil, &ReadError{Format: TSV, Line: line, Msg: "a row of " + itoa(len(fields)) + " fields for " + itoa(len(t.Vars)) + " variables"}
		}
		row := make([]rdf.Term, len(fields))
		for i, f := range fields {
			if f == "" {
				continue
			}
			term, err := parseTerm(f)
			if err != nil {
				return nil, &ReadError{Format: TSV, Line: line, Msg: err.Error()}
			}
			row[i] = term
		}
		t.Rows = append(t.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, &ReadError{Format: TSV, Line: line, Msg: err.Error()}
	}
	if line == 0 {
		return nil, &ReadError{Format: TSV, Msg: "no header line"}
	}
	return t, nil
}

// parseTerm reads one term in Turtle syntax, with Turtle's own reader.
func parseTerm(f string) (rdf.Term, error) {
	if label, ok := strings.CutPrefix(f, "_:"); ok {
		return rdf.NewBlank(label), nil
	}
	qs, _, err := rdf.Parse([]byte("<x:s> <x:p> "+f+" ."), rdf.Turtle, "")
	if err != nil || len(qs) != 1 || bytes.ContainsAny([]byte(f), "\n") {
		return rdf.Term{}, errors.New("not an RDF term in Turtle syntax: " + f)
	}
	return qs[0].O, nil
}
