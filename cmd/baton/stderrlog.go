package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// lineHandler writes each log record as one "baton: message" line, for
// people reading a command's standard error: the attributes follow as
// key=value, and a stack, if any, last in parentheses.
type lineHandler struct {
	mu    *sync.Mutex
	w     io.Writer
	attrs []slog.Attr // from WithAttrs, before the record's own
}

func newLineLogger(w io.Writer) *slog.Logger {
	return slog.New(lineHandler{mu: &sync.Mutex{}, w: w})
}

func (lineHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h lineHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString("baton: ")
	b.WriteString(r.Message)
	var stack string
	add := func(a slog.Attr) bool {
		if a.Key == "stack" {
			stack = a.Value.String()
		} else {
			fmt.Fprintf(&b, " %s=%s", a.Key, a.Value)
		}
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	if stack != "" {
		fmt.Fprintf(&b, " (stack:\n%s)", strings.TrimRight(stack, "\n"))
	}
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h lineHandler) WithAttrs(as []slog.Attr) slog.Handler {
	h.attrs = append(slices.Clip(h.attrs), as...)
	return h
}

// WithGroup is ignored: a line has no room for nesting, and baton logs
// no groups.
func (h lineHandler) WithGroup(string) slog.Handler { return h }
