package repair

import "testing"

func TestStripThink(t *testing.T) {
	tests := []struct {
		in, out string
		blocks  int
	}{
		{"plain", "plain", 0},
		{"a <b> c", "a <b> c", 0},
		{"<think>x</think>y", "y", 1},
		{"a<think>x</think>b<think>y</think>c", "abc", 2},
		{"<Think>x</THINK>y", "y", 1},
		{"<thinking>x</thinking>y", "y", 1},
		{"<think>x</thinking>y", "y", 1},
		{"<think>x<think>y</think>z", "z", 1},
		{"reasoning</think>answer", "answer", 1},
		{"a<think>b</think>c</think>d", "d", 2},
		{"answer<think>unterminated", "answer", 1},
		{"<think>", "", 1},
		{"</think>", "", 1},
		{"<thin", "<thin", 0},
		{"<", "<", 0},
	}
	for _, tt := range tests {
		out, blocks, removed := stripThink(tt.in)
		if out != tt.out || blocks != tt.blocks || removed != len(tt.in)-len(tt.out) {
			t.Errorf("stripThink(%q) = %q, %d, %d; want %q, %d, %d", tt.in, out, blocks, removed, tt.out, tt.blocks, len(tt.in)-len(tt.out))
		}
	}
}

func TestSurroundings(t *testing.T) {
	tests := []struct {
		before, after   string
		fence           bool
		nBefore, nAfter int
	}{
		{"", "", false, 0, 0},
		{" \n", "\n ", false, 0, 0},
		{"```json\n", "\n```", true, 0, 0},
		{"```json ", " ```", true, 0, 0},
		{"```\n", "\n```\n", true, 0, 0},
		{"Here:\n```json\n", "\n```\nDone.", true, 5, 5},
		{"```json\n", "", true, 0, 0},
		{"Plan: ", "", false, 5, 0},
		{"```json x`\n", "", false, 10, 0},
		{"``\n", "", false, 2, 0},
		{"```json\n", "\n``` more", true, 0, 8},
	}
	for _, tt := range tests {
		s := tt.before + "{}" + tt.after
		fence, b, a := surroundings(s, len(tt.before), len(tt.before)+2)
		if fence != tt.fence || b != tt.nBefore || a != tt.nAfter {
			t.Errorf("surroundings(%q) = %v, %d, %d; want %v, %d, %d", s, fence, b, a, tt.fence, tt.nBefore, tt.nAfter)
		}
	}
}
