package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// htmlBlocks is goldmark's HTML block parser, except that a line opening a
// tag that is neither a CommonMark block tag nor script, pre, style or
// textarea (every XMD component: <UserCheckpoint …/>, <If …>) is recognised
// here, not by goldmark's seven regular expressions, which it tries one
// after the other on every such line: they were a third of a workflow's
// parse. For those lines only the seventh kind of HTML block can start, and
// only when the line is one complete open tag (openTagLine); everything
// else goes to goldmark. The tree is goldmark's (TestParseHTMLBlocksMatchGoldmark,
// FuzzParseTree).
type htmlBlocks struct{ parser.BlockParser }

func (b htmlBlocks) Open(parent ast.Node, reader gtext.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	known, complete := openTagLine(line)
	if !known {
		return b.BlockParser.Open(parent, reader, pc)
	}
	// A seventh-kind block cannot interrupt a paragraph.
	if !complete || ast.IsParagraph(pc.LastOpenedBlock().Node) {
		return nil, parser.NoChildren
	}
	node := ast.NewHTMLBlock(ast.HTMLBlockType7)
	reader.AdvanceToEOL()
	node.Lines().Append(segment)
	return node, parser.NoChildren
}

// blockParsers are goldmark's, with its HTML block, list and paragraph
// parsers wrapped (tightLists, paragraphs).
func blockParsers() []util.PrioritizedValue {
	ps := parser.DefaultBlockParsers()
	html, list, para := parser.NewHTMLBlockParser(), parser.NewListParser(), parser.NewParagraphParser()
	for i, p := range ps {
		switch p.Value {
		case html:
			ps[i].Value = htmlBlocks{html}
		case list:
			ps[i].Value = tightLists{list}
		case para:
			ps[i].Value = paragraphs{para}
		}
	}
	return ps
}

// openTagLine reads a line that may open an HTML block. known reports
// whether it is one htmlBlocks answers for: up to three spaces, "<", a tag
// name that is not a block tag goldmark's other kinds start with. complete
// reports whether the line is then exactly one open tag, as CommonMark's
// seventh kind of HTML block requires:
//
//	[ ]{0,3} < name attribute* [ ]* (> | />) [ ]* line-break? end
//	attribute = ws+ attr-name (ws* = ws* value)?    ws = [\r\n \t]
//	value     = [^"'=<>`\x00-\x20]+ | '[^']*' | "[^"]*"
//
// Each part is matched as far as it goes: no shorter match of a name or
// an unquoted value can be followed by what the grammar allows after it
// and the longer one not.
func openTagLine(line []byte) (known, complete bool) {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if i+1 >= len(line) || line[i] != '<' || !isASCIILetter(line[i+1]) {
		return false, false
	}
	i++
	start := i
	for i < len(line) && (isASCIILetter(line[i]) || isDigit(line[i]) || line[i] == '-') {
		i++
	}
	if goldmarkBlockTag(line[start:i]) {
		return false, false
	}
	// Attributes: each starts with white space and a name.
	for {
		ws := i
		for i < len(line) && isTagSpace(line[i]) {
			i++
		}
		if i == ws || i >= len(line) || !isAttrNameStart(line[i]) {
			// Not an attribute: the white space, spaces only, ends the tag.
			for k := ws; k < i; k++ {
				if line[k] != ' ' {
					return true, false
				}
			}
			break
		}
		for i < len(line) && isAttrNameByte(line[i]) {
			i++
		}
		j := i
		for j < len(line) && isTagSpace(line[j]) {
			j++
		}
		if j >= len(line) || line[j] != '=' {
			continue // no value; the white space belongs to what follows
		}
		j++
		for j < len(line) && isTagSpace(line[j]) {
			j++
		}
		if j >= len(line) {
			return true, false
		}
		switch q := line[j]; q {
		case '"', '\'':
			k := j + 1
			for k < len(line) && line[k] != q {
				k++
			}
			if k >= len(line) {
				return true, false
			}
			i = k + 1
		default:
			k := j
			for k < len(line) && isUnquotedValueByte(line[k]) {
				k++
			}
			if k == j {
				return true, false
			}
			i = k
		}
	}
	switch {
	case i < len(line) && line[i] == '>':
		i++
	case i+1 < len(line) && line[i] == '/' && line[i+1] == '>':
		i += 2
	default:
		return true, false
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	rest := line[i:]
	return true, len(rest) == 0 || string(rest) == "\n" || string(rest) == "\r\n"
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isTagSpace(c byte) bool    { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isAttrNameStart(c byte) bool {
	return isASCIILetter(c) || c == '_' || c == ':'
}
func isAttrNameByte(c byte) bool {
	return isAttrNameStart(c) || isDigit(c) || c == '.' || c == '-'
}
func isUnquotedValueByte(c byte) bool {
	return c > 0x20 && c != '"' && c != '\'' && c != '=' && c != '<' && c != '>' && c != '`'
}

// goldmarkBlockTag reports whether name, in any case, is one of the tags
// goldmark's other kinds of HTML block start with: the first kind's four
// and CommonMark's block tags (goldmark's list, v1.8.7).
func goldmarkBlockTag(name []byte) bool {
	if len(name) > len("blockquote") {
		return false
	}
	var lower [len("blockquote")]byte
	for i, c := range name {
		lower[i] = c | 0x20 // letters only matter: digits and '-' keep their bit
	}
	_, ok := blockTags[string(lower[:len(name)])]
	return ok
}

var blockTags = map[string]struct{}{
	"script": {}, "pre": {}, "style": {}, "textarea": {},
	"address": {}, "article": {}, "aside": {}, "base": {}, "basefont": {}, "blockquote": {}, "body": {},
	"caption": {}, "center": {}, "col": {}, "colgroup": {}, "dd": {}, "details": {}, "dialog": {}, "dir": {},
	"div": {}, "dl": {}, "dt": {}, "fieldset": {}, "figcaption": {}, "figure": {}, "footer": {}, "form": {},
	"frame": {}, "frameset": {}, "h1": {}, "h2": {}, "h3": {}, "h4": {}, "h5": {}, "h6": {}, "head": {},
	"header": {}, "hr": {}, "html": {}, "iframe": {}, "legend": {}, "li": {}, "link": {}, "main": {},
	"menu": {}, "menuitem": {}, "meta": {}, "nav": {}, "noframes": {}, "ol": {}, "optgroup": {},
	"option": {}, "p": {}, "param": {}, "search": {}, "section": {}, "summary": {}, "table": {}, "tbody": {},
	"td": {}, "tfoot": {}, "th": {}, "thead": {}, "title": {}, "tr": {}, "track": {}, "ul": {},
}
