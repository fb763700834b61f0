package packet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/markdown"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// A document read in windows of whole packets reads every packet as one
// read whole does: each fixture's document, and all of them and generated
// packets in one text, give the same contract read with windows of a
// packet, of a few kilobytes and of the whole text.
func TestWindowsReadAsTheWhole(t *testing.T) {
	var docs []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txtar") {
			return err
		}
		a, err := txtar.ParseFile(p)
		if err != nil {
			return err
		}
		for _, f := range a.Files {
			if f.Name == "input.md" {
				docs = append(docs, string(f.Data))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 20 {
		t.Fatalf("only %d fixture documents", len(docs))
	}
	var all strings.Builder
	for i, d := range docs {
		all.WriteString(d + "\n\n")
		all.WriteString(bench.PacketText(uint64(i+1), 2<<10) + "\n")
	}
	docs = append(docs, all.String())
	defer func(w int) { windowBytes = w }(windowBytes)
	for i, text := range docs {
		doc := markdown.Parse("x.md", text)
		read := func(w int) []*Consistency { return readInWindows(doc, w) }
		whole := read(1 << 40)
		for _, w := range []int{1, 4 << 10} {
			if d := cmp.Diff(whole, read(w)); d != "" {
				t.Errorf("document %d (%d bytes), windows of %d bytes (-whole +windows):\n%s", i, len(text), w, d)
			}
		}
	}
}

// FuzzWindows: any text reads the same whole and in windows of a packet.
func FuzzWindows(f *testing.F) {
	for _, s := range []string{
		"## What I Just Did\n\nx\n\n## Why I Stopped\n\ny\n\n## What I Need From You\n\nReply approve.\n",
		bench.PacketText(1, 2<<10) + "\n" + bench.PacketText(2, 2<<10),
		"## What I Just Did\n```\n## Why I Stopped\n```\n## What Happens Next\n[a](b)\n## What I Just Did\n`x` <b>y</b>\n## Why I Stopped\n> q\n## What I Need From You\n?\n",
	} {
		f.Add(s)
	}
	defer func(w int) { windowBytes = w }(windowBytes)
	f.Fuzz(func(t *testing.T, text string) {
		doc := markdown.Parse("x.md", text)
		read := func(w int) []*Consistency { return readInWindows(doc, w) }
		if d := cmp.Diff(read(1<<40), read(1)); d != "" {
			t.Fatalf("whole and windows of a packet differ (-whole +windows):\n%s", d)
		}
	})
}

// readInWindows is the contract of each packet of doc (the message's
// first) read in windows of w bytes.
func readInWindows(doc *markdown.Document, w int) []*Consistency {
	windowBytes = w
	m := BuildWith(doc, nil)
	out := []*Consistency{m.Message}
	for _, p := range m.Packets {
		out = append(out, p.Consistency)
	}
	return out
}
