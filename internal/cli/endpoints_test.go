package cli

import (
	"strings"
	"testing"
	"time"
)

func TestLoadEndpoints(t *testing.T) {
	path := writeFile(t, "endpoints.json", `{
  "qwen": {"base_url": "http://127.0.0.1:8000/v1", "model": "Qwen/Qwen3-32B", "mode": "extended",
           "family": "qwen", "timeout": "90s", "concurrency": 8, "extra_body": {"top_k": 20}},
  "gpt": {"base_url": "https://api.openai.com/v1", "api_key_env": "OPENAI_API_KEY", "model": "o4-mini",
          "mode": "extended", "family": "openai", "omit_temperature": true,
          "batch": true}
}`)
	eps, err := loadEndpoints(path)
	if err != nil {
		t.Fatal(err)
	}
	q := eps["qwen"]
	if len(eps) != 2 || q.Timeout != 90*time.Second || q.Concurrency != 8 || q.ExtraBody["top_k"] != float64(20) || eps["gpt"].APIKeyEnv != "OPENAI_API_KEY" ||
		!eps["gpt"].Batch || q.Batch {
		t.Errorf("endpoints = %+v", eps)
	}
	bom := writeFile(t, "bom.json", "\ufeff"+`{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard"}}`)
	if eps, err := loadEndpoints(bom); err != nil || eps["x"].Model != "m" {
		t.Errorf("a file that starts with a byte-order mark: %v, %v", eps, err)
	}
	if eps, err := loadEndpoints(""); err != nil || len(eps) != 0 {
		t.Errorf("no file: %v, %v", eps, err)
	}
}

func TestLoadEndpointsErrors(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string
	}{
		{"bad fields", `{
  "ok": {"base_url": "http://h/v1", "model": "m", "mode": "standard"},
  "bad": {"base_url": "nope", "model": "", "mode": "fast"}
}`, []string{":3: bad.base_url", ":3: bad.model", ":3: bad.mode"}},
		{"bad timeout", `{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "timeout": "soon"}}`, []string{":2: x.timeout"}},
		{"unknown key", `{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "base_ulr": "http://h/v1"}}`, []string{"endpoints.json:2: x.base_ulr: unknown key"}},
		{"syntax", "{\"x\": {\"base_url\": \"http://h/v1\",\n  \"model\" \"m\"}}", []string{"endpoints.json:2: invalid JSON"}},
		{"wrong type", "{\"x\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"mode\": \"standard\",\n  \"concurrency\": \"four\"}}", []string{"endpoints.json:2: x.concurrency: must be an integer"}},
		{"trailing data", "{}\n{}", []string{"endpoints.json:2: unexpected data"}},
		// encoding/json keeps the last of two values of one key: a second
		// "x" would silently replace the first endpoint, its problems unseen.
		{"repeated endpoint", "{\"x\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"mode\": \"standard\", \"timeout\": \"2h\"},\n \"x\": {\"base_url\": \"http://h/v1\", \"model\": \"n\", \"mode\": \"standard\"}}",
			[]string{"endpoints.json:2: x: repeated key"}},
		{"repeated field", "{\"x\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"mode\": \"standard\",\n  \"model\": \"n\"}}",
			[]string{"endpoints.json:2: x.model: repeated key"}},
		{"wrong type, one line", `{"a": {"base_url": "http://h/v1", "model": "m", "mode": "standard", "concurrency": 2}, "b": {"base_url": "http://h/v1", "model": "m", "mode": "standard", "concurrency": "four"}}`,
			[]string{"endpoints.json:1: b.concurrency: must be an integer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "endpoints.json", tt.content)
			_, err := loadEndpoints(path)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLoadEndpointsPrice(t *testing.T) {
	path := writeFile(t, "endpoints.json", `{
  "gpt": {"base_url": "https://api.openai.com/v1", "model": "o4-mini", "mode": "extended",
          "price": {"input_per_mtok": 1.25, "output_per_mtok": 10}},
  "cheap": {"base_url": "https://api.openai.com/v1", "model": "o4-mini", "mode": "extended",
          "price": {"input_per_mtok": 2, "output_per_mtok": 8, "batch_factor": 0.25}},
  "local": {"base_url": "http://127.0.0.1:8000/v1", "model": "q", "mode": "standard"}
}`)
	eps, err := loadEndpoints(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := eps["gpt"].Price; p == nil || p.InputPerMTok != 1.25 || p.OutputPerMTok != 10 {
		t.Errorf("gpt price = %+v", p)
	}
	if b := eps["gpt"].Price.Batched(); b.InputPerMTok != 0.625 || b.OutputPerMTok != 5 {
		t.Errorf("gpt batch price = %+v, want half (the default factor)", b)
	}
	if b := eps["cheap"].Price.Batched(); b.InputPerMTok != 0.5 || b.OutputPerMTok != 2 {
		t.Errorf("cheap batch price = %+v, want a quarter (its batch_factor)", b)
	}
	if eps["local"].Price != nil {
		t.Errorf("local has a price: %+v", eps["local"].Price)
	}
}

func TestLoadEndpointsPriceErrors(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string
	}{
		{"negative", `{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "price": {
    "input_per_mtok": -1,
    "output_per_mtok": -0.5}}}`, []string{":3: x.price.input_per_mtok: must be a finite number", ":4: x.price.output_per_mtok"}},
		{"batch factor above 1", `{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "price": {"input_per_mtok": 1, "output_per_mtok": 2, "batch_factor": 1.5}}}`, []string{"x.price.batch_factor: must be in [0, 1]"}},
		{"not a number", `{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "price": {"input_per_mtok": "cheap"}}}`, []string{"input_per_mtok"}},
		{"unknown field", `{"x": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "price": {"per_token": 1}}}`, []string{`endpoints.json:2: x.price.per_token: unknown key`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadEndpoints(writeFile(t, "endpoints.json", tt.content))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
