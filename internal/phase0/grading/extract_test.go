package grading

import "testing"

func TestExtractCode(t *testing.T) {
	cases := []struct {
		name    string
		content string
		want    string
		ok      bool
	}{
		{
			name:    "single python block with prose",
			content: "We count passengers older than 60.\n\n```python\nclass Solution:\n    def countSeniors(self, details):\n        return sum(int(d[11:13]) > 60 for d in details)\n```\n\nThis runs in O(n).",
			want:    "class Solution:\n    def countSeniors(self, details):\n        return sum(int(d[11:13]) > 60 for d in details)\n",
			ok:      true,
		},
		{
			name:    "final python block wins over an earlier draft",
			content: "First attempt:\n```python\nprint(1)\n```\nThat is wrong; corrected:\n```python\nprint(2)\n```\n",
			want:    "print(2)\n",
			ok:      true,
		},
		{
			name:    "python block preferred over a later example-output block",
			content: "```python\nn = int(input())\nprint(n * 2)\n```\nFor input 3 it prints:\n```\n6\n```\n",
			want:    "n = int(input())\nprint(n * 2)\n",
			ok:      true,
		},
		{
			name:    "py tag and capitalized Python tag",
			content: "```py\nprint('a')\n```\n```Python\nprint('b')\n```",
			want:    "print('b')\n",
			ok:      true,
		},
		{
			name:    "untagged block when no python tag",
			content: "Here is the code:\n```\nimport sys\nprint(sys.stdin.read())\n```",
			want:    "import sys\nprint(sys.stdin.read())\n",
			ok:      true,
		},
		{
			name:    "untagged block preferred over later text-tagged block",
			content: "```\nprint(input())\n```\nSample:\n```text\nhello\n```",
			want:    "print(input())\n",
			ok:      true,
		},
		{
			name:    "other language tag as last resort",
			content: "```python3-ish\nprint(5)\n```",
			want:    "print(5)\n",
			ok:      true,
		},
		{
			name:    "tilde fences",
			content: "~~~python\nx = '```'\nprint(x)\n~~~\n",
			want:    "x = '```'\nprint(x)\n",
			ok:      true,
		},
		{
			name:    "CRLF line endings",
			content: "Solution:\r\n```python\r\nfor _ in range(int(input())):\r\n    print('YES')\r\n```\r\n",
			want:    "for _ in range(int(input())):\n    print('YES')\n",
			ok:      true,
		},
		{
			name:    "indented fence inside a list item",
			content: "1. Code:\n\n   ```python\n   def f():\n       return 1\n   print(f())\n   ```\n",
			want:    "def f():\n    return 1\nprint(f())\n",
			ok:      true,
		},
		{
			name:    "longer fence holds a shorter one",
			content: "````python\ns = \"\"\"\n```\n\"\"\"\nprint(s)\n````",
			want:    "s = \"\"\"\n```\n\"\"\"\nprint(s)\n",
			ok:      true,
		},
		{
			name:    "unterminated final fence falls back to the earlier complete block",
			content: "```python\nprint('draft')\n```\nImproved version:\n```python\nimport sys\ndef main(",
			want:    "print('draft')\n",
			ok:      true,
		},
		{
			name:    "only an unterminated fence",
			content: "```python\nprint('cut off'",
			ok:      false,
		},
		{
			name:    "no block at all",
			content: "The answer is to sort the array and take the median, giving 42.",
			ok:      false,
		},
		{
			name:    "inline code is not a block",
			content: "Use `print(x)` and ``sorted()`` here.",
			ok:      false,
		},
		{
			name:    "empty block ignored",
			content: "```python\nprint(7)\n```\n```python\n\n```",
			want:    "print(7)\n",
			ok:      true,
		},
		{
			name:    "info string with attributes",
			content: "```python title=\"sol.py\"\nprint(8)\n```",
			want:    "print(8)\n",
			ok:      true,
		},
		{
			name:    "python tag with a file name beats a later untagged block",
			content: "```python:solution.py\nprint(10)\n```\nOutput:\n```\n10\n```",
			want:    "print(10)\n",
			ok:      true,
		},
		{
			name:    "closing fence with trailing spaces",
			content: "```python\nprint(9)\n```   \nDone.",
			want:    "print(9)\n",
			ok:      true,
		},
		{
			name:    "empty content",
			content: "",
			ok:      false,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ExtractCode(c.content)
			if ok != c.ok || got != c.want {
				t.Errorf("ExtractCode = %q, %v; want %q, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
