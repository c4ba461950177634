package grading

import "strings"

// ExtractCode returns the program in content, a response's final content:
// the last fenced code block (``` or ~~~ fences, CommonMark style). A block
// tagged python (python, py, python3 or py3 in any case, also with a file
// name as in "python:sol.py") is preferred, then an untagged block, then a
// block with any other tag. Empty or whitespace-only blocks are ignored. ok
// is false when there is no such block.
//
// A fence that is opened but never closed (a response cut off mid-program) is
// not a block: its text is ignored, and an earlier complete block, if any, is
// used. Indentation of the opening fence is removed from the block's lines, so
// a block inside a list item keeps Python's indentation intact. CRLF line
// endings are normalized to LF.
func ExtractCode(content string) (string, bool) {
	content = strings.ReplaceAll(content, "\r\n", "\n")
	content = strings.ReplaceAll(content, "\r", "\n")
	lines := strings.Split(content, "\n")

	type block struct {
		tag  string
		code string
	}
	var blocks []block
	for i := 0; i < len(lines); i++ {
		indent, char, n, info, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		end := -1
		for j := i + 1; j < len(lines); j++ {
			if closingFence(lines[j], char, n) {
				end = j
				break
			}
		}
		if end < 0 {
			break // unterminated: not a block, and nothing after it is either
		}
		body := make([]string, 0, end-i-1)
		for _, l := range lines[i+1 : end] {
			body = append(body, trimIndent(l, indent))
		}
		code := strings.Join(body, "\n")
		if strings.TrimSpace(code) != "" {
			tag := ""
			if f := strings.Fields(info); len(f) > 0 {
				tag = strings.ToLower(strings.Trim(f[0], "{}."))
				tag, _, _ = strings.Cut(tag, ":") // ```python:solution.py
			}
			blocks = append(blocks, block{tag: tag, code: code + "\n"})
		}
		i = end
	}
	pick := func(match func(tag string) bool) (string, bool) {
		for k := len(blocks) - 1; k >= 0; k-- {
			if match(blocks[k].tag) {
				return blocks[k].code, true
			}
		}
		return "", false
	}
	if code, ok := pick(isPythonTag); ok {
		return code, true
	}
	if code, ok := pick(func(tag string) bool { return tag == "" }); ok {
		return code, true
	}
	return pick(func(string) bool { return true })
}

func isPythonTag(tag string) bool {
	switch tag {
	case "python", "py", "python3", "py3":
		return true
	}
	return false
}

// openingFence parses a line opening a fenced block: up to three spaces of
// indentation (more is tolerated: models indent fences in lists), then at
// least three backticks or tildes, then an info string (for backticks, one
// without backticks).
func openingFence(line string) (indent int, char byte, n int, info string, ok bool) {
	rest := strings.TrimLeft(line, " \t")
	indent = len(line) - len(rest)
	if len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0, 0, "", false
	}
	char = rest[0]
	for n < len(rest) && rest[n] == char {
		n++
	}
	if n < 3 {
		return 0, 0, 0, "", false
	}
	info = strings.TrimSpace(rest[n:])
	if char == '`' && strings.Contains(info, "`") {
		return 0, 0, 0, "", false
	}
	return indent, char, n, info, true
}

// closingFence reports whether line closes a block opened with n chars.
func closingFence(line string, char byte, n int) bool {
	rest := strings.TrimSpace(line)
	if len(rest) < n {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] != char {
			return false
		}
	}
	return true
}

// trimIndent removes up to indent leading spaces or tabs from line.
func trimIndent(line string, indent int) string {
	i := 0
	for i < indent && i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[i:]
}
