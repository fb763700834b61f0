package session

import (
	"encoding/binary"
	"encoding/json"
	"unicode/utf8"
)

// This file is a small validating JSON scanner. It decides, as json.Valid
// does, whether a line is JSON, and pulls out only the members the session
// rules read; everything else (tool output, file contents) is skipped
// without being decoded. encoding/json into maps would spend most of a cold
// read building values nobody looks at.

// maxDepth is encoding/json's nesting limit; deeper input is not valid.
const maxDepth = 10000

// fieldState says what a member held.
type fieldState uint8

const (
	absent fieldState = iota
	isNull
	isString
	isObject
	isOther // a number, boolean or array (or an object where a string was wanted)
)

// strField is a member read where a string is expected.
type strField struct {
	st fieldState
	v  string // when st == isString
}

// str returns the value when the member is a string.
func (f strField) str() (string, bool) { return f.v, f.st == isString }

// argsField is a tool call's arguments member: its state and, when it is an
// object, its path, file_path and filePath members.
type argsField struct {
	st    fieldState
	paths [3]strField
}

// callFields are the members of a tool_call payload or a toolCall block.
type callFields struct {
	typ   strField     // a block's "type"
	names [3]strField  // payload: name, toolName, tool; block: name, toolName
	args  [3]argsField // payload: args, arguments, input; block: arguments, args, input
}

// rawEntry is one line as the scanner read it.
type rawEntry struct {
	typ, cwd, id                    strField // header members
	version                         []byte   // the header's version as written (into the line), nil when absent
	kind, turnID, parent, timestamp strField
	role, path, operation, target   strField
	firstKept, interviewID, endedAt strField
	payload                         fieldState
	call                            callFields   // payload as a tool_call
	contentIsArray                  bool         // payload.content is an array
	blocks                          []callFields // payload.content's object blocks
	decisionsIsArray                bool
	decisions                       []rawDecision
	customType                      strField // a custom entry's
	data                            rawHandoffData
	parentSession                   strField // a forked session's header: the parent's current.jsonl
}

// rawHandoffData is what a handoffSeed or handoffNote entry's data says.
type rawHandoffData struct {
	from, to, goal strField // fromSessionId (seed), toSessionId (note), goal
}

type rawDecision struct {
	key, value, label, status, decidedAt  strField
	sourceQuestion, correction, rationale strField
}

// scanner walks one line.
type scanner struct {
	b     []byte
	i     int
	depth int
}

// stopByte marks the bytes a string scan must look at: '"', '\\' and the
// control characters JSON forbids inside strings.
var stopByte = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// swarStop reports whether any byte of x is '"', '\\' or below 0x20.
func swarStop(x uint64) bool {
	q := x ^ (lo8 * '"')
	s := x ^ (lo8 * '\\')
	return ((q-lo8)&^q|(s-lo8)&^s|(x-lo8*0x20)&^x)&hi8 != 0
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// str scans the string starting at s.i (which holds '"'). It returns the
// bounds of its contents and whether it holds an escape.
func (s *scanner) str() (start, end int, esc, ok bool) {
	b := s.b
	i := s.i + 1
	start = i
	for {
		for i+8 <= len(b) && !swarStop(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && !stopByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return 0, 0, false, false
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return start, i, esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return 0, 0, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return 0, 0, false, false
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return 0, 0, false, false
					}
				}
				i += 6
			default:
				return 0, 0, false, false
			}
		default: // a control character
			return 0, 0, false, false
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// text decodes the string contents b[start:end] as encoding/json would
// (escapes resolved, invalid UTF-8 replaced by U+FFFD).
func (s *scanner) text(start, end int, esc bool) string {
	raw := s.b[start:end]
	if !esc && utf8.Valid(raw) {
		return string(raw)
	}
	var v string
	if json.Unmarshal(s.b[start-1:end+1], &v) != nil {
		return string(raw) // not reached: the scanner validated it
	}
	return v
}

// lit scans the literal word at s.i.
func (s *scanner) lit(word string) bool {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// number scans a JSON number at s.i.
func (s *scanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return true
}

// skip scans any value at s.i.
func (s *scanner) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, _, _, ok := s.str()
		return ok
	case c == '{':
		return s.object(func([]byte) bool { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}

// object scans the object at s.i (which holds '{'), calling member for each
// key with s.i at the start of its value; member must scan the value.
// A key holding an escape is passed decoded.
func (s *scanner) object(member func(key []byte) bool) bool {
	s.depth++
	if s.depth > maxDepth {
		return false
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		s.depth--
		return true
	}
	for {
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return false
		}
		start, end, esc, ok := s.str()
		if !ok {
			return false
		}
		key := s.b[start:end]
		if esc {
			key = []byte(s.text(start, end, true))
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		if !member(key) {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case '}':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// array scans the array at s.i (which holds '['), calling elem with s.i at
// the start of each element; elem must scan it.
func (s *scanner) array(elem func() bool) bool {
	s.depth++
	if s.depth > maxDepth {
		return false
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case ']':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// kindAt says what kind of value starts at s.i, without scanning it.
func (s *scanner) kindAt() fieldState {
	if s.i >= len(s.b) {
		return isOther
	}
	switch s.b[s.i] {
	case '"':
		return isString
	case '{':
		return isObject
	case 'n':
		return isNull
	}
	return isOther
}

// strValue scans a value read where a string is expected.
func (s *scanner) strValue(f *strField) bool {
	switch s.kindAt() {
	case isString:
		start, end, esc, ok := s.str()
		if !ok {
			return false
		}
		*f = strField{st: isString, v: s.text(start, end, esc)}
		return true
	case isNull:
		*f = strField{st: isNull}
		return s.lit("null")
	}
	*f = strField{st: isOther}
	return s.skip()
}

// argsValue scans a tool call's arguments.
func (s *scanner) argsValue(a *argsField) bool {
	*a = argsField{st: s.kindAt()}
	switch a.st {
	case isObject:
		return s.object(func(key []byte) bool {
			switch string(key) {
			case "path":
				return s.strValue(&a.paths[0])
			case "file_path":
				return s.strValue(&a.paths[1])
			case "filePath":
				return s.strValue(&a.paths[2])
			}
			return s.skip()
		})
	case isNull:
		return s.lit("null")
	}
	a.st = isOther
	return s.skip()
}

// block scans one element of an assistant's payload.content.
func (s *scanner) block(c *callFields) bool {
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return s.strValue(&c.typ)
		case "name":
			return s.strValue(&c.names[0])
		case "toolName":
			return s.strValue(&c.names[1])
		case "arguments":
			return s.argsValue(&c.args[0])
		case "args":
			return s.argsValue(&c.args[1])
		case "input":
			return s.argsValue(&c.args[2])
		}
		return s.skip()
	})
}

// payloadValue scans a message's payload.
func (s *scanner) payloadValue(e *rawEntry) bool {
	e.payload = s.kindAt()
	e.call = callFields{}
	e.contentIsArray = false
	e.blocks = e.blocks[:0]
	if e.payload != isObject {
		if e.payload == isString {
			e.payload = isOther
		}
		return s.skip()
	}
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "name":
			return s.strValue(&e.call.names[0])
		case "toolName":
			return s.strValue(&e.call.names[1])
		case "tool":
			return s.strValue(&e.call.names[2])
		case "args":
			return s.argsValue(&e.call.args[0])
		case "arguments":
			return s.argsValue(&e.call.args[1])
		case "input":
			return s.argsValue(&e.call.args[2])
		case "content":
			e.blocks = e.blocks[:0]
			e.contentIsArray = s.i < len(s.b) && s.b[s.i] == '['
			if !e.contentIsArray {
				return s.skip()
			}
			return s.array(func() bool {
				if s.kindAt() != isObject {
					return s.skip()
				}
				e.blocks = append(e.blocks, callFields{})
				return s.block(&e.blocks[len(e.blocks)-1])
			})
		}
		return s.skip()
	})
}

// decisionsValue scans a decisionLedger's decisions.
func (s *scanner) decisionsValue(e *rawEntry) bool {
	e.decisions = e.decisions[:0]
	e.decisionsIsArray = s.i < len(s.b) && s.b[s.i] == '['
	if !e.decisionsIsArray {
		return s.skip()
	}
	return s.array(func() bool {
		if s.kindAt() != isObject {
			return s.skip()
		}
		e.decisions = append(e.decisions, rawDecision{})
		d := &e.decisions[len(e.decisions)-1]
		return s.object(func(key []byte) bool {
			switch string(key) {
			case "key":
				return s.strValue(&d.key)
			case "value":
				return s.strValue(&d.value)
			case "label":
				return s.strValue(&d.label)
			case "status":
				return s.strValue(&d.status)
			case "decidedAt":
				return s.strValue(&d.decidedAt)
			case "source_question":
				return s.strValue(&d.sourceQuestion)
			case "correction":
				return s.strValue(&d.correction)
			case "rationale":
				return s.strValue(&d.rationale)
			}
			return s.skip()
		})
	})
}

// dataValue scans a custom entry's data for what a handoffSeed or
// handoffNote holds; the seed's document is skipped.
func (s *scanner) dataValue(d *rawHandoffData) bool {
	*d = rawHandoffData{}
	if s.kindAt() != isObject {
		return s.skip()
	}
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "fromSessionId":
			return s.strValue(&d.from)
		case "toSessionId":
			return s.strValue(&d.to)
		case "goal":
			return s.strValue(&d.goal)
		}
		return s.skip()
	})
}

// scanLine reads one line into e (reset first; its slices are reused). It
// reports whether the line is a JSON object; any other line, valid JSON or
// not, is not an entry.
func scanLine(line []byte, e *rawEntry) bool {
	blocks, decisions := e.blocks[:0], e.decisions[:0]
	*e = rawEntry{blocks: blocks, decisions: decisions}
	s := scanner{b: line}
	s.ws()
	if s.kindAt() != isObject {
		return false
	}
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return s.strValue(&e.typ)
		case "cwd":
			return s.strValue(&e.cwd)
		case "id":
			return s.strValue(&e.id)
		case "version":
			start := s.i
			ok := s.skip()
			e.version = s.b[start:s.i]
			return ok
		case "kind":
			return s.strValue(&e.kind)
		case "turnId":
			return s.strValue(&e.turnID)
		case "parentTurnId":
			return s.strValue(&e.parent)
		case "timestamp":
			return s.strValue(&e.timestamp)
		case "role":
			return s.strValue(&e.role)
		case "path":
			return s.strValue(&e.path)
		case "operation":
			return s.strValue(&e.operation)
		case "targetTurnId":
			return s.strValue(&e.target)
		case "firstKeptTurnId":
			return s.strValue(&e.firstKept)
		case "interviewId":
			return s.strValue(&e.interviewID)
		case "endedAt":
			return s.strValue(&e.endedAt)
		case "payload":
			return s.payloadValue(e)
		case "decisions":
			return s.decisionsValue(e)
		case "customType":
			return s.strValue(&e.customType)
		case "data":
			return s.dataValue(&e.data)
		case "parentSession":
			return s.strValue(&e.parentSession)
		}
		return s.skip()
	})
	if !ok {
		return false
	}
	s.ws()
	return s.i == len(s.b)
}
