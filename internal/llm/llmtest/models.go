package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// WithModels makes the server serve only the named models: a request for
// any other gets ModelNotFound, as providers answer an unknown model.
// Without it every model name is served.
func WithModels(names ...string) Option {
	return func(s *Server) {
		s.models = map[string]bool{}
		for _, n := range names {
			s.models[n] = true
		}
	}
}

// ModelNotFound is OpenAI's 404 for a model that does not exist (vLLM and
// most compatible servers answer the same status, with their own words).
func ModelNotFound(model string) Reply {
	return openAIError(http.StatusNotFound, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model), "invalid_request_error", "model_not_found")
}

// unknownModel returns the model a request body names when the server was
// started WithModels and does not serve it.
func (s *Server) unknownModel(body []byte) (string, bool) {
	if s.models == nil {
		return "", false
	}
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)
	return req.Model, !s.models[req.Model]
}
