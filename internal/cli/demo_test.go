package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// TestDemoWithAnLLM runs the demo with a model endpoint (the test server):
// every solver, standard and extended, gets its llm plans from an endpoint
// of its own mode, and a second run asks nothing again.
func TestDemoWithAnLLM(t *testing.T) {
	var mu sync.Mutex
	modes := map[string]int{}
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		var body struct {
			ChatTemplateKwargs struct {
				EnableThinking bool `json:"enable_thinking"`
			} `json:"chat_template_kwargs"`
		}
		_ = json.Unmarshal(r.Body, &body)
		mu.Lock()
		defer mu.Unlock()
		if body.ChatTemplateKwargs.EnableThinking {
			modes[llm.ModeExtended]++
		} else {
			modes[llm.ModeStandard]++
		}
		return llmtest.OpenAI(llmtest.Completion{Content: `{"plan": [{"id": "p1", "tokens": 500}]}`, CompletionTokens: 20})
	}))
	dir := t.TempDir()
	env, out, logs := testEnv(map[string]string{demoBaseURL: srv.URL(), demoModel: "Qwen/Qwen3-8B", demoFamily: "qwen"})
	if err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", dir}, env); err != nil {
		t.Fatalf("demo: %v\n%s", err, logs)
	}
	calls := srv.Count()
	mu.Lock()
	std, ext := modes[llm.ModeStandard], modes[llm.ModeExtended]
	mu.Unlock()
	if calls == 0 || std == 0 || std != ext {
		t.Fatalf("%d model calls, %d standard and %d extended; want as many of each", calls, std, ext)
	}
	if !strings.Contains(out.String(), "| llm (default) |") {
		t.Errorf("the summary has no llm row:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "report", "cells.csv")); err != nil {
		t.Error(err)
	}
	if err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", dir}, env); err != nil {
		t.Fatal(err)
	}
	if srv.Count() != calls {
		t.Errorf("the second demo run asked the model %d more times", srv.Count()-calls)
	}
}
