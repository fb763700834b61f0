// Command icon draws the VS Code extension's icon, editors/vscode/icon.png:
// a relay baton, banded, across a rounded square, 128×128 as the
// Marketplace asks. It is drawn here, from shapes, so that the project
// carries no artwork it did not make.
//
//	go run ./scripts/icon [-o editors/vscode/icon.png]
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
)

const size = 128

// samples is the supersampling grid per pixel side, for smooth edges.
const samples = 4

var (
	background = color.NRGBA{0x1d, 0x35, 0x57, 0xff} // deep blue
	baton      = color.NRGBA{0xf4, 0xa2, 0x3c, 0xff} // orange
	band       = color.NRGBA{0xfa, 0xf3, 0xe8, 0xff} // off-white
)

func main() {
	out := flag.String("o", "editors/vscode/icon.png", "the PNG to write")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintf(os.Stderr, "icon: %v\n", err)
		os.Exit(1)
	}
}

func write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, draw()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// draw renders the icon: each pixel averages samples×samples points, each
// point taking the colour of the topmost shape that covers it.
func draw() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var r, g, b, a float64
			for sy := 0; sy < samples; sy++ {
				for sx := 0; sx < samples; sx++ {
					px := float64(x) + (float64(sx)+0.5)/samples
					py := float64(y) + (float64(sy)+0.5)/samples
					if c, ok := shade(px, py); ok {
						r += float64(c.R)
						g += float64(c.G)
						b += float64(c.B)
						a++
					}
				}
			}
			if a == 0 {
				continue
			}
			// Colour averaged over the covered samples; coverage is alpha.
			img.SetNRGBA(x, y, color.NRGBA{
				R: uint8(math.Round(r / a)), G: uint8(math.Round(g / a)), B: uint8(math.Round(b / a)),
				A: uint8(math.Round(255 * a / (samples * samples))),
			})
		}
	}
	return img
}

// shade is the colour at (x, y), and false outside the icon.
func shade(x, y float64) (color.NRGBA, bool) {
	if roundedSquare(x, y, 4, 124, 22) > 0 {
		return color.NRGBA{}, false
	}
	// The baton: a capsule from lower left to upper right.
	ax, ay, bx, by := 34.0, 94.0, 94.0, 34.0
	const radius = 13.0
	t, d := segment(x, y, ax, ay, bx, by)
	if d <= radius {
		// Two bands across it, a fifth of the way in from each end.
		if math.Abs(t-0.22) < 0.06 || math.Abs(t-0.78) < 0.06 {
			return band, true
		}
		return baton, true
	}
	return background, true
}

// roundedSquare is the signed distance from (x, y) to the square [lo, hi]²
// with corners of radius r: negative inside.
func roundedSquare(x, y, lo, hi, r float64) float64 {
	c := (lo + hi) / 2
	h := (hi-lo)/2 - r
	dx := math.Max(math.Abs(x-c)-h, 0)
	dy := math.Max(math.Abs(y-c)-h, 0)
	return math.Hypot(dx, dy) - r
}

// segment returns where along the segment from a to b the point nearest
// (x, y) lies (0 at a, 1 at b) and the distance to it.
func segment(x, y, ax, ay, bx, by float64) (t, d float64) {
	vx, vy := bx-ax, by-ay
	t = ((x-ax)*vx + (y-ay)*vy) / (vx*vx + vy*vy)
	t = math.Max(0, math.Min(1, t))
	return t, math.Hypot(x-(ax+t*vx), y-(ay+t*vy))
}
