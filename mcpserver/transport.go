package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxDepth bounds how deep a message's arrays and objects nest: the SDK
// refuses to decode deeper (a real message nests a few levels), so a
// deeper line is answered here instead of ending the session.
const MaxDepth = 1000

// noBatchesSince is the first MCP version without JSON-RPC batches
// (2025-06-18 removed them).
const noBatchesSince = "2025-06-18"

// Transport is MCP's stdio transport (newline-delimited JSON-RPC 2.0 over
// a reader and a writer) read one line at a time, so that a line that is
// not a message is answered and the next line read. The SDK's IOTransport
// decodes the input as a stream of JSON values and ends the session at the
// first that fails: one malformed line lost an agent its tools for the
// rest of its session, and a line cut short swallowed the next.
//
// Each line is one message. A line that is not JSON gets a parse error
// (-32700); JSON that is not a request, notification or response (MCP's:
// an id is a string or an integer, never null), a line over MaxLine bytes
// or nested deeper than MaxDepth gets an invalid request (-32600); both
// with a null id, as JSON-RPC 2.0 asks when the id cannot be trusted. A
// response with a null id is the client's own error about a message it
// could not read: it is not answered. A batch (a JSON array) is answered
// element by element in a session that negotiated a version of MCP that
// has batches (before 2025-06-18), and otherwise, or empty, with one
// invalid request.
type Transport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxLine bounds one line; 0 is MaxFrameBytes.
	MaxLine int
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	c := &conn{
		in:       t.Reader,
		out:      t.Writer,
		incoming: make(chan jsonrpc.Message),
		eof:      make(chan struct{}),
		closed:   make(chan struct{}),
	}
	limit := t.MaxLine
	if limit <= 0 {
		limit = MaxFrameBytes
	}
	go c.readLoop(newLineReader(t.Reader, limit))
	return c, nil
}

// conn is one session's connection. A goroutine reads the lines (so that
// Close unblocks Read), answers those that are not messages itself, and
// hands the messages to Read in order.
type conn struct {
	in  io.Closer
	out io.WriteCloser
	wmu sync.Mutex // one line written at a time

	incoming chan jsonrpc.Message
	eof      chan struct{} // closed when reading ends, readErr set
	readErr  error
	closed   chan struct{}
	once     sync.Once

	mu      sync.Mutex
	initID  jsonrpc.ID           // the initialize request answered first
	version string               // the protocol version that answer negotiated
	batches map[jsonrpc.ID]place // the batched requests not yet answered
}

func (c *conn) SessionID() string { return "" }

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		return m, nil
	case <-c.eof:
		return nil, c.readErr
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.noteInitialized(r)
		if all, in := c.answerInBatch(r); in {
			if all == nil {
				return nil
			}
			return c.writeBatch(all)
		}
	}
	data, err := encode(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *conn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.in.Close()
		c.out.Close()
	})
	return nil
}

func (c *conn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// readLoop reads lines until the input ends or an answer cannot be
// written.
func (c *conn) readLoop(lr *lineReader) {
	defer close(c.eof)
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			err = c.reject(jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the line is over %d bytes, the most baton reads as one message: it was skipped", lr.limit))
		}
		if err != nil {
			c.readErr = err
			return
		}
		msgs, err := c.messages(line)
		if err != nil {
			c.readErr = err
			return
		}
		for _, m := range msgs {
			select {
			case c.incoming <- m:
			case <-c.closed:
				c.readErr = io.EOF
				return
			}
		}
	}
}

// messages are the messages of one line, the line's malformed ones (or
// all of it) answered; err is an answer that could not be written.
func (c *conn) messages(line []byte) ([]jsonrpc.Message, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if !json.Valid(line) {
		var v any
		why := json.Unmarshal(line, &v)
		return nil, c.reject(jsonrpc.CodeParseError, fmt.Sprintf("parse error: the line is not JSON (%v): each line must be one JSON-RPC message", why))
	}
	if depth(line) > MaxDepth {
		return nil, c.reject(jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message nests deeper than %d arrays and objects", MaxDepth))
	}
	if line[0] != '[' {
		m, err := decode(line)
		if err != nil {
			return nil, c.reject(jsonrpc.CodeInvalidRequest, err.Error())
		}
		if m == nil {
			return nil, nil
		}
		c.noteInitialize(m)
		return []jsonrpc.Message{m}, nil
	}
	elems := elements(line)
	if len(elems) == 0 {
		return nil, c.reject(jsonrpc.CodeInvalidRequest, "invalid request: an empty batch")
	}
	if v, ok := c.batchesAllowed(); !ok {
		why := "a batch before initialize has agreed the session's version of MCP (there are none since " + noBatchesSince + ")"
		if v != "" {
			why = fmt.Sprintf("MCP %s has no batches (there are none since %s)", v, noBatchesSince)
		}
		return nil, c.reject(jsonrpc.CodeInvalidRequest, "invalid request: "+why+": send each message on a line of its own")
	}
	return c.batch(elems)
}

// reject answers a line that is not a message, with a null id.
func (c *conn) reject(code int64, message string) error {
	data, err := json.Marshal(nullIDError{JSONRPC: "2.0", Error: &jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// nullIDError is an error response whose id is null: JSON-RPC 2.0 wants
// the member there, where the SDK's encoding leaves it out.
type nullIDError struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      *struct{}      `json:"id"`
	Error   *jsonrpc.Error `json:"error"`
}

// encode is msg on the wire, an error response to a request whose id is
// not known with a null id.
func encode(msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok && !r.ID.IsValid() {
		e, ok := r.Error.(*jsonrpc.Error)
		if !ok {
			e = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprint(r.Error)}
		}
		return json.Marshal(nullIDError{JSONRPC: "2.0", Error: e})
	}
	return jsonrpc.EncodeMessage(msg)
}

// decode is the message raw holds, or an error saying why it is none. A
// response whose id is null or missing is the peer's answer to a message
// it could not read: it is dropped (nil, nil), never answered.
func decode(raw []byte) (jsonrpc.Message, error) {
	if raw[0] != '{' {
		return nil, fmt.Errorf("invalid request: a JSON-RPC message is a JSON object, not %s", jsonType(raw))
	}
	obj := members(raw)
	var version string
	if err := json.Unmarshal(obj["jsonrpc"], &version); err != nil || version != "2.0" {
		v := "missing"
		if r, ok := obj["jsonrpc"]; ok {
			v = string(r)
		}
		return nil, fmt.Errorf(`invalid request: "jsonrpc" must be "2.0" (it is %s)`, v)
	}
	id, hasID := obj["id"]
	if hasID && !isNull(id) {
		if err := checkID(id); err != nil {
			return nil, err
		}
	}
	if method, ok := obj["method"]; ok {
		var s string
		if err := json.Unmarshal(method, &s); err != nil || isNull(method) {
			return nil, fmt.Errorf(`invalid request: "method" must be a string, not %s`, jsonType(method))
		}
		if hasID && isNull(id) {
			return nil, errors.New(`invalid request: "id" is null: an MCP request has a string or integer id, a notification none`)
		}
		if p, ok := obj["params"]; ok && !isNull(p) && p[0] != '{' && p[0] != '[' {
			return nil, fmt.Errorf(`invalid request: "params" must be an object, not %s`, jsonType(p))
		}
	} else {
		_, result := obj["result"]
		_, failed := obj["error"]
		switch {
		case !result && !failed:
			return nil, errors.New(`invalid request: no "method" (a request or notification names one; a response has "result" or "error")`)
		case !hasID || isNull(id):
			return nil, nil
		}
	}
	m, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid request: %v", err)
	}
	return m, nil
}

// checkID accepts a string or an integer (the SDK reads numbers as
// float64: past 2^53 it could not answer with the same id).
func checkID(id []byte) error {
	switch jsonType(id) {
	case "a string":
		return nil
	case "a number":
		if n, err := strconv.ParseInt(string(id), 10, 64); err == nil && n <= 1<<53 && n >= -(1<<53) {
			return nil
		}
		return fmt.Errorf(`invalid request: "id" must be a string or an integer (of at most 2^53), not %s`, id)
	}
	return fmt.Errorf(`invalid request: "id" must be a string or an integer, not %s`, jsonType(id))
}

func isNull(raw []byte) bool { return string(raw) == "null" }

// jsonType names the JSON value raw (valid JSON) is.
func jsonType(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// members are the values of the members of obj, a valid JSON object, by
// name, as slices of obj: a name given twice has its last value, as the
// SDK's decoder reads it, and no value is copied (params may be most of a
// line of MaxFrameBytes).
func members(obj []byte) map[string][]byte {
	m := map[string][]byte{}
	for i := skipSpace(obj, 1); i < len(obj) && obj[i] == '"'; {
		end := skipValue(obj, i)
		key := obj[i:end]
		name := string(key[1 : len(key)-1])
		if bytes.IndexByte(key, '\\') >= 0 || !isASCII(key) {
			json.Unmarshal(key, &name) //nolint:errcheck // a valid string, its escapes and bad UTF-8 read as encoding/json reads them
		}
		i = skipSpace(obj, skipSpace(obj, end)+1) // past the colon
		end = skipValue(obj, i)
		m[name] = obj[i:end]
		if i = skipSpace(obj, end); i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return m
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// elements are the elements of arr, a valid JSON array, as slices of it.
func elements(arr []byte) [][]byte {
	var out [][]byte
	for i := skipSpace(arr, 1); i < len(arr) && arr[i] != ']'; {
		end := skipValue(arr, i)
		out = append(out, arr[i:end])
		if i = skipSpace(arr, end); i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
	return out
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue is the end of the value at b[i] (valid JSON).
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
	case '{', '[':
		d, inString := 0, false
		for j := i; j < len(b); j++ {
			switch c := b[j]; {
			case inString && c == '\\':
				j++
			case inString:
				inString = c != '"'
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				d++
			case c == '}' || c == ']':
				if d--; d == 0 {
					return j + 1
				}
			}
		}
	default:
		for j := i; j < len(b); j++ {
			switch b[j] {
			case ' ', '\t', '\r', '\n', ',', '}', ']':
				return j
			}
		}
	}
	return len(b)
}

// depth is how deep the arrays and objects of data (valid JSON) nest,
// counted up to MaxDepth + 1.
func depth(data []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch b {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			if d++; d > deepest {
				if deepest = d; deepest > MaxDepth {
					return deepest
				}
			}
		case b == ']' || b == '}':
			d--
		}
	}
	return deepest
}

// noteInitialize remembers the first initialize request, whose answer
// says the session's protocol version.
func (c *conn) noteInitialize(m jsonrpc.Message) {
	r, ok := m.(*jsonrpc.Request)
	if !ok || r.Method != "initialize" || !r.ID.IsValid() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.initID.IsValid() {
		c.initID = r.ID
	}
}

// noteInitialized reads the protocol version off the answer to the first
// initialize request.
func (c *conn) noteInitialized(r *jsonrpc.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != "" || !c.initID.IsValid() || r.ID != c.initID || r.Error != nil {
		return
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(r.Result, &res) == nil {
		c.version = res.ProtocolVersion
	}
}

// batchesAllowed reports whether the session's version has batches, and
// the version.
func (c *conn) batchesAllowed() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version, c.version != "" && c.version < noBatchesSince
}

// batch is an incoming batch awaiting its answers: one per request, in
// the batch's order, with an element that is no message answered in its
// place.
type batch struct {
	answers []json.RawMessage
	pending int
}

// place is where a request's answer goes in its batch's.
type place struct {
	b *batch
	i int
}

// batch reads a batch's elements; its answer is written once its last
// request is answered (at once if it holds none, and not at all if it
// holds notifications and responses only).
func (c *conn) batch(elems [][]byte) ([]jsonrpc.Message, error) {
	b := &batch{}
	var msgs []jsonrpc.Message
	reject := func(msg string) {
		data, _ := json.Marshal(nullIDError{JSONRPC: "2.0", Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msg}})
		b.answers = append(b.answers, data)
	}
	c.mu.Lock()
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]place{}
	}
	for _, e := range elems {
		m, err := decode(e)
		switch r, _ := m.(*jsonrpc.Request); {
		case err != nil:
			reject(err.Error())
			continue
		case r != nil && r.IsCall():
			if _, taken := c.batches[r.ID]; taken {
				reject(fmt.Sprintf("invalid request: the id %v is already in use", r.ID.Raw()))
				continue
			}
			c.batches[r.ID] = place{b, len(b.answers)}
			b.answers = append(b.answers, nil)
			b.pending++
		}
		if m != nil {
			msgs = append(msgs, m)
		}
	}
	c.mu.Unlock()
	if b.pending == 0 && len(b.answers) > 0 {
		if err := c.writeBatch(b.answers); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// answerInBatch puts r in the answer of the batch its request came in, if
// any; all is that answer once r completes it.
func (c *conn) answerInBatch(r *jsonrpc.Response) (all []json.RawMessage, in bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.batches[r.ID]
	if !ok {
		return nil, false
	}
	delete(c.batches, r.ID)
	data, err := encode(r)
	if err != nil {
		data, _ = json.Marshal(nullIDError{JSONRPC: "2.0", Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}})
	}
	p.b.answers[p.i] = data
	if p.b.pending--; p.b.pending > 0 {
		return nil, true
	}
	return p.b.answers, true
}

func (c *conn) writeBatch(answers []json.RawMessage) error {
	data, err := json.Marshal(answers)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// errLineTooLong is a line over the limit, skipped to its end.
var errLineTooLong = errors.New("line too long")

// lineReader reads lines of at most limit bytes; a longer one is skipped
// to its end without being held.
type lineReader struct {
	r     *bufio.Reader
	limit int
	buf   []byte
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// next is the next line, without its end; valid until the next call. A
// last line without a newline is a line.
func (l *lineReader) next() ([]byte, error) {
	if cap(l.buf) > 1<<20 {
		l.buf = nil // a large line's room is not kept for the small ones
	}
	l.buf = l.buf[:0]
	over := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !over {
			if len(l.buf)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > l.limit {
				over, l.buf = true, l.buf[:0]
			} else {
				// Doubled, not grown by a quarter as append grows a large
				// slice: a line of MaxFrameBytes leaves less garbage.
				if n := len(l.buf) + len(chunk); n > cap(l.buf) {
					l.buf = slices.Grow(l.buf, min(max(n, 2*len(l.buf)), l.limit+1)-len(l.buf))
				}
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil, errors.Is(err, io.EOF) && (len(l.buf) > 0 || over):
			if over {
				return nil, errLineTooLong
			}
			return bytes.TrimSuffix(l.buf, []byte("\n")), nil
		default:
			return nil, err
		}
	}
}
