package grading

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
)

// aimePool builds 30 realistic graded items from the real AIME 2024
// problems: each response restates the problem, works through the real
// AoPS solution text (intermediate numbers, \frac, align blocks, boxed
// sub-results) padded to at least 3 KB, and ends with the answer in one
// of the usual formats. With thinking, each response first has ~16 KB of
// leaked <think>…</think> text.
func aimePool(tb testing.TB, thinking bool) (specs []Spec, problems, contents []string) {
	recs := readAIME2024(tb)
	for i, r := range recs {
		var b strings.Builder
		if thinking {
			b.WriteString("<think>\n")
			for b.Len() < 16<<10 {
				fmt.Fprintf(&b, "Hmm, let me reconsider. Maybe the count is %d? Then m + n would be %d... no, \\boxed{%d} is wrong, recheck case %d.\n", i*7+b.Len()%97, i+b.Len()%13, b.Len()%1000, b.Len()%11)
			}
			b.WriteString("</think>\n\n")
		}
		start := b.Len()
		b.WriteString(aimeReasoning(r.Problem, i))
		for b.Len()-start < 3<<10 {
			b.WriteString(r.Solution)
			b.WriteString("\n\nLet me double-check this computation another way.\n\n")
		}
		n := strings.TrimLeft(r.Answer, "0")
		fmt.Fprintf(&b, "\n\n"+aimeFinishes[i%len(aimeFinishes)], n)
		specs = append(specs, aime(r.Answer))
		problems = append(problems, r.Problem)
		contents = append(contents, b.String())
	}
	return specs, problems, contents
}

// BenchmarkGradeAIMEPool grades a 30-item AIME pool through the Grader;
// one op is the whole pool (target: at most 1 ms).
func BenchmarkGradeAIMEPool(b *testing.B) {
	benchPool(b, false)
}

// BenchmarkGradeAIMEPoolStripThinking adds StripThinking on responses
// with ~16 KB of leaked thinking each, as the caller does before grading.
func BenchmarkGradeAIMEPoolStripThinking(b *testing.B) {
	benchPool(b, true)
}

func benchPool(b *testing.B, thinking bool) {
	specs, problems, contents := aimePool(b, thinking)
	g := New(nil, nil)
	ctx := context.Background()
	bytes := 0
	for _, c := range contents {
		bytes += len(c)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range specs {
			content := contents[i]
			if thinking {
				content = StripThinking(content)
			}
			v, err := g.Grade(ctx, specs[i], problems[i], content)
			if err != nil || !v.Correct() {
				b.Fatalf("item %d: %+v, %v", i, v, err)
			}
		}
	}
}

// TestAIMEPoolGradesCorrect keeps the benchmark's pool honest: every item
// is correct, and the responses are a few KB long.
func TestAIMEPoolGradesCorrect(t *testing.T) {
	for _, thinking := range []bool{false, true} {
		specs, problems, contents := aimePool(t, thinking)
		if len(specs) != 30 {
			t.Fatalf("%d items", len(specs))
		}
		for i := range specs {
			if len(contents[i]) < 3<<10 || thinking && len(contents[i]) < 19<<10 {
				t.Errorf("item %d is %d bytes", i, len(contents[i]))
			}
			content := contents[i]
			if thinking {
				content = StripThinking(content)
			}
			v, err := New(nil, nil).Grade(context.Background(), specs[i], problems[i], content)
			if err != nil || !v.Correct() {
				t.Errorf("item %d (thinking %v): %+v, %v", i, thinking, v, err)
			}
		}
	}
}

// BenchmarkGradeChoicePool grades 30 multiple-choice responses to real
// MMLU questions (~2 KB each: the options restated, each discussed, the
// letter stated at the end in one of the usual forms); one op is the pool.
func BenchmarkGradeChoicePool(b *testing.B) {
	specs, contents := choicePool(b)
	g := New(nil, nil)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range specs {
			if v, err := g.Grade(ctx, specs[i], "", contents[i]); err != nil || !v.Correct() {
				b.Fatalf("item %d: %+v, %v", i, v, err)
			}
		}
	}
}

var choiceFinishes = []string{
	"The answer is %c.", "**Answer: %c**", "Answer: (%c)", "$\\boxed{%c}$", "### Final Answer\n\n**%c**",
	"Therefore, the correct option is %c.", "\n%c", "Explanation: see above.\nAnswer: %c\nConfidence: 80%%",
}

func choicePool(tb testing.TB) ([]Spec, []string) {
	f, err := os.ReadFile(benchdata.Path(tb, "mmlu/mmlu_math.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	var specs []Spec
	var contents []string
	for i, line := range strings.SplitN(string(f), "\n", 31)[:30] {
		var r struct {
			Question string   `json:"question"`
			Choices  []string `json:"choices"`
			Answer   int      `json:"answer"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			tb.Fatal(err)
		}
		letter := byte('A' + r.Answer)
		var b strings.Builder
		fmt.Fprintf(&b, "We need to answer: %s\n\nThe options are:\n", r.Question)
		for k, c := range r.Choices {
			fmt.Fprintf(&b, "(%c) %s\n", 'A'+k, c)
		}
		for b.Len() < 2<<10 {
			for k, c := range r.Choices {
				if byte('A'+k) == letter {
					fmt.Fprintf(&b, "\nOption %c, %s, is consistent with every condition we derived above, and a direct check confirms it.\n", 'A'+k, c)
				} else {
					fmt.Fprintf(&b, "\nOption %c, %s, fails: substituting it back gives a contradiction with the second condition.\n", 'A'+k, c)
				}
			}
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, choiceFinishes[i%len(choiceFinishes)], letter)
		specs = append(specs, Spec{Kind: KindChoice, Answer: string(letter), Choices: r.Choices})
		contents = append(contents, b.String())
	}
	return specs, contents
}

func TestChoicePoolGradesCorrect(t *testing.T) {
	specs, contents := choicePool(t)
	for i := range specs {
		if v := GradeChoice(specs[i], contents[i]); !v.Correct() {
			t.Errorf("item %d: %+v\n%s", i, v, contents[i][len(contents[i])-200:])
		}
	}
}
