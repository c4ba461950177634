package figures

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	xfont "golang.org/x/image/font"
	plotfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// svgText is one <text> element of an SVG written by vgsvg: its string,
// its anchor (x, y as written; y grows downwards) and its font.
type svgText struct {
	text   string
	x, y   float64
	size   float64
	bold   bool
	family string
}

// centreX is the horizontal centre of the text, measured with the font
// the SVG names (vgsvg writes the left end of the text as x).
func (s svgText) centreX() float64 {
	f := plotfont.Font{Typeface: "Liberation", Variant: "Sans"}
	if s.bold {
		f.Weight = xfont.WeightBold
	}
	face := plotfont.DefaultCache.Lookup(f, vg.Length(s.size))
	return s.x + float64(face.Width(s.text))/2
}

// parseSVGTexts returns every <text> element of doc in document order.
func parseSVGTexts(t *testing.T, doc []byte) []svgText {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var out []svgText
	var cur *svgText
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("parsing SVG: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local != "text" {
				continue
			}
			cur = &svgText{}
			for _, a := range el.Attr {
				switch a.Name.Local {
				case "x":
					cur.x = parseFloat(t, a.Value)
				case "y":
					cur.y = parseFloat(t, a.Value)
				case "style":
					for _, decl := range strings.Split(a.Value, ";") {
						k, v, _ := strings.Cut(strings.TrimSpace(decl), ":")
						switch k {
						case "font-size":
							cur.size = parseFloat(t, strings.TrimSuffix(v, "px"))
						case "font-weight":
							cur.bold = v == "bold"
						case "font-family":
							cur.family = v
						}
					}
				}
			}
		case xml.CharData:
			if cur != nil {
				cur.text += string(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" && cur != nil {
				out = append(out, *cur)
				cur = nil
			}
		}
	}
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		t.Fatalf("SVG number %q: %v", s, err)
	}
	return v
}

// TestParseSVGTexts checks the parser on a hand-written vgsvg fragment.
func TestParseSVGTexts(t *testing.T) {
	doc := `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg"><g>
<text x="10.5" y="-20" transform="scale(1, -1)"
	style="font-family:Liberation Sans;font-variant:normal;font-weight:bold;font-style:normal;font-size:7.5px;fill:#FFFFFF">-1.250*</text>
<text x="3" y="-4" transform="scale(1, -1)" style="font-size:11px">a &amp; b</text>
</g></svg>`
	got := parseSVGTexts(t, []byte(doc))
	want := []svgText{
		{text: "-1.250*", x: 10.5, y: -20, size: 7.5, bold: true, family: "Liberation Sans"},
		{text: "a & b", x: 3, y: -4, size: 11},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d texts, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("text %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// svgSize reads the width and height, in points, of the root <svg>
// element of a document written by vgsvg (width="…pt").
func svgSize(t *testing.T, doc []byte) (w, h float64) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("no <svg> element: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "svg" {
			for _, a := range el.Attr {
				switch a.Name.Local {
				case "width":
					w = parseFloat(t, strings.TrimSuffix(a.Value, "pt"))
				case "height":
					h = parseFloat(t, strings.TrimSuffix(a.Value, "pt"))
				}
			}
			return w, h
		}
	}
}
