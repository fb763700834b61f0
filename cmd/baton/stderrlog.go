package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// lineHandler writes each log record as one "baton: message" line, for
// people reading a command's standard error: the attributes follow as
// key=value, and a stack, if any, last in parentheses.
type lineHandler struct {
	mu *sync.Mutex
	w  io.Writer
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
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "stack" {
			stack = a.Value.String()
		} else {
			fmt.Fprintf(&b, " %s=%s", a.Key, a.Value)
		}
		return true
	})
	if stack != "" {
		fmt.Fprintf(&b, " (stack:\n%s)", strings.TrimRight(stack, "\n"))
	}
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

// The registry logs records without groups or preset attributes.
func (h lineHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h lineHandler) WithGroup(string) slog.Handler      { return h }
