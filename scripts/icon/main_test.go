package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestIconCommitted holds editors/vscode/icon.png to what this program
// draws: change the drawing, then run `go run ./scripts/icon`.
func TestIconCommitted(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "editors", "vscode", "icon.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	committed, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	want := draw()
	if committed.Bounds() != want.Bounds() {
		t.Fatalf("icon.png is %v, want %v", committed.Bounds(), want.Bounds())
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if got := color.NRGBAModel.Convert(committed.At(x, y)); got != want.At(x, y) {
				t.Fatalf("icon.png at (%d, %d) is %v, the drawing %v: run go run ./scripts/icon", x, y, got, want.At(x, y))
			}
		}
	}
}

// TestIconShape checks the drawing itself: 128×128 as the Marketplace
// asks, transparent outside the rounded corners, the baton across the
// middle, and the background around it.
func TestIconShape(t *testing.T) {
	img := draw()
	if img.Bounds() != image.Rect(0, 0, 128, 128) {
		t.Fatalf("bounds %v", img.Bounds())
	}
	for _, tc := range []struct {
		x, y int
		want color.NRGBA
	}{
		{0, 0, color.NRGBA{}},     // outside the corner
		{127, 127, color.NRGBA{}}, // outside the corner
		{64, 64, baton},           // the baton's middle
		{20, 64, background},      // beside it
		{64, 110, background},     // below it
	} {
		if got := img.NRGBAAt(tc.x, tc.y); got != tc.want {
			t.Errorf("(%d, %d) is %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
