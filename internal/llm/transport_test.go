package llm

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

func TestPatchBody(t *testing.T) {
	tests := []struct {
		name string
		in   string
		p    bodyPatch
		want string
	}{{
		name: "default_added_when_absent",
		in:   `{"model":"m"}`,
		p:    bodyPatch{defaults: map[string]any{"temperature": 0.0}},
		want: `{"model":"m","temperature":0}`,
	}, {
		name: "default_kept_when_present",
		in:   `{"temperature":0.30000000000000004}`,
		p:    bodyPatch{defaults: map[string]any{"temperature": 0.0}},
		want: `{"temperature":0.30000000000000004}`,
	}, {
		name: "merge_objects_recursively_and_replace_leaves",
		in:   `{"a":{"x":1,"y":{"z":2}},"b":[1],"c":"old"}`,
		p: bodyPatch{merge: map[string]any{
			"a": map[string]any{"y": map[string]any{"w": 3}},
			"b": []any{2},
			"c": map[string]any{"new": true},
		}},
		want: `{"a":{"x":1,"y":{"w":3,"z":2}},"b":[2],"c":{"new":true}}`,
	}, {
		name: "numbers_and_html_verbatim",
		in:   `{"n":1e400,"big":12345678901234567890,"s":"<a & b>"}`,
		want: `{"big":12345678901234567890,"n":1e400,"s":"<a & b>"}`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := patchBody([]byte(tc.in), tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("patchBody = %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := patchBody([]byte(`[1]`), bodyPatch{}); err == nil {
		t.Error("a non-object body must be an error")
	}
}

func TestMergeDoesNotModifySource(t *testing.T) {
	extra := map[string]any{"chat_template_kwargs": map[string]any{"thinking_budget": 1}}
	for range 2 {
		body := map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": true}}
		mergeInto(body, extra)
	}
	if inner := extra["chat_template_kwargs"].(map[string]any); len(inner) != 1 {
		t.Errorf("ExtraBody was modified: %v", inner)
	}
}

// TestTransportPassThrough: requests that do not come from an attempt
// are neither patched nor buffered.
func TestTransportPassThrough(t *testing.T) {
	srv := llmtest.NewServer(t)
	hc := wrapHTTPClient(nil, 2)
	resp, err := hc.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := srv.Requests()[0].Body; !bytes.Equal(got, []byte(`{"model":"m"}`)) {
		t.Errorf("body = %s, want it untouched", got)
	}
}

func TestWithHTTPClientIsWrapped(t *testing.T) {
	srv := llmtest.NewServer(t)
	var seen int
	base := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen++
		return http.DefaultTransport.RoundTrip(r)
	})}
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithHTTPClient(base))
	if _, err := c.Complete(t.Context(), userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	if seen != 1 {
		t.Errorf("the given client's transport saw %d requests", seen)
	}
	if !bytes.Contains(srv.Requests()[0].Body, []byte(`"temperature":0`)) {
		t.Error("the given client bypassed the gateway's transport")
	}
	if _, ok := base.Transport.(*transport); ok {
		t.Error("WithHTTPClient modified the caller's client")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestReadAllIsIOReadAll(t *testing.T) {
	for _, text := range []string{"", "x", strings.Repeat("body ", 1000)} {
		for _, size := range []int64{-1, 0, 1, int64(len(text)), int64(len(text)) + 7, int64(len(text)) / 2} {
			got, err := readAll(iotest.OneByteReader(strings.NewReader(text)), size)
			if err != nil || string(got) != text {
				t.Errorf("readAll(%d bytes, size %d) = %d bytes, %v", len(text), size, len(got), err)
			}
		}
	}
}
