package htmlreport

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"strconv"
	"strings"
)

// inlineSVG returns the <svg> element of doc for inlining into the page,
// labelled for screen readers with title, and its width in CSS pixels (0
// when the root gives none in pt or px). doc must be well-formed XML
// whose root is <svg>, without script, style, foreignObject or other
// embedding elements, without event-handler attributes, and without references
// outside the document: an href must be a fragment ("#…") or a data:image
// URL, and no style may call url(). Anything else is an error, so that a
// figure can never make the page run code or fetch anything.
func inlineSVG(doc []byte, title string) (template.HTML, float64, error) {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	start := int64(-1) // where the root <svg> begins
	var width float64
	for {
		offset := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", 0, fmt.Errorf("SVG is not well-formed: %w", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if start < 0 {
			if el.Name.Local != "svg" {
				return "", 0, fmt.Errorf("SVG root is <%s>, want <svg>", el.Name.Local)
			}
			start = offset
			width = cssPixels(el.Attr)
		}
		switch strings.ToLower(el.Name.Local) {
		case "script", "style", "foreignobject", "iframe", "object", "embed", "use", "a":
			return "", 0, fmt.Errorf("SVG has a <%s> element", el.Name.Local)
		}
		for _, a := range el.Attr {
			name, value := strings.ToLower(a.Name.Local), strings.TrimSpace(a.Value)
			switch {
			case strings.HasPrefix(name, "on"):
				return "", 0, fmt.Errorf("SVG has an event handler %s", a.Name.Local)
			case name == "href" && !strings.HasPrefix(value, "#") && !strings.HasPrefix(value, "data:image/"):
				return "", 0, fmt.Errorf("SVG refers to %.40q", value)
			case name == "style" && strings.Contains(strings.ToLower(value), "url("):
				return "", 0, fmt.Errorf("SVG style calls url()")
			}
		}
	}
	if start < 0 {
		return "", 0, errors.New("SVG has no <svg> element")
	}
	// The root element and what follows it, never what precedes it (an
	// XML declaration, comments).
	body := strings.TrimSpace(string(doc[start:]))
	labelled := `<svg role="img" aria-label="` + html.EscapeString(title) + `"` + strings.TrimPrefix(body, "<svg")
	return template.HTML(labelled), width, nil
}

// cssPixels reads the width attribute of an <svg> element as CSS pixels
// (1pt = 4/3 px); 0 when it is missing or in another unit.
func cssPixels(attrs []xml.Attr) float64 {
	for _, a := range attrs {
		if a.Name.Local != "width" {
			continue
		}
		v := strings.TrimSpace(a.Value)
		scale := 1.0
		switch {
		case strings.HasSuffix(v, "pt"):
			v, scale = strings.TrimSuffix(v, "pt"), 4.0/3
		case strings.HasSuffix(v, "px"):
			v = strings.TrimSuffix(v, "px")
		}
		w, err := strconv.ParseFloat(v, 64)
		if err != nil || w <= 0 {
			return 0
		}
		return w * scale
	}
	return 0
}
