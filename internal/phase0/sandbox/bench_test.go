package sandbox

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/sandbox/sandboxtest"
)

// BenchmarkCodePool grades a 30-problem code pool (the 16 committed
// LiveCodeBench problems with our solutions, cycled to 30; public tests)
// at concurrency 2, as a baseline run would. One op is one pool.
func BenchmarkCodePool(b *testing.B) {
	s := newSandbox(b, Options{Concurrency: 2})
	probs := loadLCB(b)
	solutions := sandboxtest.LCBSolutions()
	tests := 0
	type item struct {
		prog string
		spec *grading.CodeSpec
	}
	var pool []item
	for i := 0; len(pool) < 30; i++ {
		p := probs[i%len(probs)]
		pool = append(pool, item{solutions[p.ID], &p.Spec})
		tests += len(p.Spec.Public)
	}
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for _, it := range pool {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := s.RunTests(context.Background(), it.prog, it.spec)
				if err != nil || !v.Correct() {
					b.Errorf("%v %+v", err, v)
				}
			}()
		}
		wg.Wait()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/pool")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N)/30, "ms/problem")
	b.ReportMetric(float64(tests), "tests/pool")
}

// BenchmarkSandboxOverhead measures what the sandbox adds per program and
// per test, sequentially (concurrency 1), with trivial programs:
//
//	python-startup      a bare `python3 -c pass`, no sandbox: the floor
//	program/stdin       one program with one stdin test (print(input()))
//	program/functional  one program with one functional test
//	test/stdin          each further stdin test of a program (20 tests)
//	test/functional     each further functional test of a program (20 tests)
func BenchmarkSandboxOverhead(b *testing.B) {
	s := newSandbox(b, Options{Concurrency: 1})
	stdinProg := "print(input())"
	funcProg := "class Solution:\n    def f(self, x):\n        return x\n"
	spec := func(tt grading.TestType, n int) *grading.CodeSpec {
		c := &grading.CodeSpec{TestType: tt, FuncName: "f"}
		for i := range n {
			in := strings.Repeat("7", i%5+1)
			c.Public = append(c.Public, grading.TestCase{Input: in + "\n", Output: in})
		}
		return c
	}
	runN := func(b *testing.B, prog string, c *grading.CodeSpec) {
		for range b.N {
			v, err := s.RunTests(context.Background(), prog, c)
			if err != nil || !v.Correct() {
				b.Fatalf("%v %+v", err, v)
			}
		}
	}
	b.Run("python-startup", func(b *testing.B) {
		for range b.N {
			if err := exec.Command(s.python.exe, "-B", "-s", "-c", "pass").Run(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(perOp(b), "ms/program")
	})
	b.Run("program/stdin", func(b *testing.B) {
		runN(b, stdinProg, spec(grading.TestStdin, 1))
		b.ReportMetric(perOp(b), "ms/program")
	})
	b.Run("program/functional", func(b *testing.B) {
		runN(b, funcProg, spec(grading.TestFunctional, 1))
		b.ReportMetric(perOp(b), "ms/program")
	})
	// Per further test: (time for 21 tests - time for 1 test) / 20.
	for _, tt := range []grading.TestType{grading.TestStdin, grading.TestFunctional} {
		prog := stdinProg
		if tt == grading.TestFunctional {
			prog = funcProg
		}
		b.Run("test/"+string(tt), func(b *testing.B) {
			one, many := spec(tt, 1), spec(tt, 21)
			var d1, d21 time.Duration
			for range b.N {
				t0 := time.Now()
				if v, err := s.RunTests(context.Background(), prog, one); err != nil || !v.Correct() {
					b.Fatalf("%v %+v", err, v)
				}
				t1 := time.Now()
				if v, err := s.RunTests(context.Background(), prog, many); err != nil || !v.Correct() {
					b.Fatalf("%v %+v", err, v)
				}
				d1 += t1.Sub(t0)
				d21 += time.Since(t1)
			}
			b.ReportMetric(float64((d21-d1).Microseconds())/1000/20/float64(b.N), "ms/test")
		})
	}
}

func perOp(b *testing.B) float64 {
	return float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N)
}
