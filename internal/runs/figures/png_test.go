package figures

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"testing"
)

// pixelStats returns the variance of the grey level (0–255) over img's
// pixels and the share of pixels that are not white.
func pixelStats(img image.Image) (variance, inked float64) {
	b := img.Bounds()
	var sum, sumSq float64
	var nonWhite int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			grey := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			sum += grey
			sumSq += grey * grey
			if grey < 250 {
				nonWhite++
			}
		}
	}
	n := float64(b.Dx() * b.Dy())
	mean := sum / n
	return sumSq/n - mean*mean, float64(nonWhite) / n
}

// checkPNGs decodes every PNG (drawn at the default DPI), checks its size
// against the SVG's, and requires visible content: a grey-level variance
// and a share of inked pixels well above a blank page's.
func checkPNGs(t *testing.T, figs []Figure) {
	for _, f := range figs {
		t.Run(f.Name, func(t *testing.T) {
			img, err := png.Decode(bytes.NewReader(f.PNG))
			if err != nil {
				t.Fatalf("PNG does not decode: %v", err)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(f.PNG))
			if err != nil {
				t.Fatal(err)
			}
			w, h := svgSize(t, f.SVG)
			if math.Abs(float64(cfg.Width)-w/72*DefaultDPI) > 1 || math.Abs(float64(cfg.Height)-h/72*DefaultDPI) > 1 {
				t.Errorf("PNG is %d×%d px, the SVG %g×%g pt: want %g dpi", cfg.Width, cfg.Height, w, h, float64(DefaultDPI))
			}
			variance, inked := pixelStats(img)
			if variance < 200 || inked < 0.02 {
				t.Errorf("PNG looks blank: grey variance %.1f (want ≥ 200), %.1f%% inked (want ≥ 2%%)", variance, 100*inked)
			}
		})
	}
}

// TestPixelStatsSeesABlankImage makes sure the blankness check can fail.
func TestPixelStatsSeesABlankImage(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	if v, inked := pixelStats(img); v > 1e-6 || inked != 0 {
		t.Errorf("white image: variance %v, inked %v; want 0, 0", v, inked)
	}
}
