package figures

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// render draws s twice, as SVG and as PNG at dpi dots per inch: one
// drawing, two back ends. gonum reports some drawing errors by panicking;
// render returns them as errors.
func render(s sheet, dpi int) (svg, png []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing failed: %v", r)
		}
	}()
	w, h := s.size()

	sc := vgsvg.New(w, h)
	s.draw(draw.New(sc))
	var sb bytes.Buffer
	if _, err := sc.WriteTo(&sb); err != nil {
		return nil, nil, fmt.Errorf("writing SVG: %w", err)
	}

	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(white))
	s.draw(draw.New(ic))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&pb); err != nil {
		return nil, nil, fmt.Errorf("writing PNG: %w", err)
	}
	return sb.Bytes(), pb.Bytes(), nil
}
