package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/jsonloc"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
)

// endpointFile is one entry of an endpoints file: a JSON object mapping
// endpoint names to these settings.
type endpointFile struct {
	BaseURL         string         `json:"base_url"`
	APIKeyEnv       string         `json:"api_key_env"`
	Model           string         `json:"model"`
	Mode            string         `json:"mode"`
	Family          string         `json:"family"`
	ReasoningEffort string         `json:"reasoning_effort"`
	MaxOutputTokens int            `json:"max_output_tokens"`
	MaxTokensField  string         `json:"max_tokens_field"`
	Temperature     float64        `json:"temperature"`
	OmitTemperature bool           `json:"omit_temperature"`
	Timeout         string         `json:"timeout"`
	Concurrency     int            `json:"concurrency"`
	MaxAttempts     int            `json:"max_attempts"`
	ExtraBody       map[string]any `json:"extra_body"`

	// Batch says the provider offers the OpenAI Batch API (llm.Endpoint.Batch).
	Batch bool `json:"batch"`

	// Price is what the provider charges (dollars per million tokens);
	// quotes and spend caps read it.
	Price *priceFile `json:"price"`
}

// priceFile is an endpoint's "price" object.
type priceFile struct {
	InputPerMTok  float64  `json:"input_per_mtok"`
	OutputPerMTok float64  `json:"output_per_mtok"`
	BatchFactor   *float64 `json:"batch_factor"`
}

// llmSources are the endpoints file and the response cache plannerConfig
// reads, and how to name them in its errors.
type llmSources struct {
	endpoints, cache string
	// where names a setting, "endpoints" or "llm_cache", as the user gave
	// it: a flag of triage serve, or a config's key with its file and line.
	where func(setting string) string
	// flags says they are triage serve's flags: an endpoints file that
	// cannot be used is a usage error.
	flags bool
	// readCache says the cache is only read (a quote): it is opened with
	// llm.OpenCacheToRead.
	readCache bool
}

// configSources are cfg's endpoints file and response cache.
func configSources(cfg *orchestrator.Config) llmSources {
	return llmSources{endpoints: cfg.Path(cfg.Endpoints), cache: cfg.Path(cfg.LLMCache), where: cfg.Where}
}

// flagSources are triage serve's --endpoints and --llm-cache.
func flagSources(endpoints, cache string) llmSources {
	names := map[string]string{"endpoints": "--endpoints", "llm_cache": "--llm-cache"}
	return llmSources{endpoints: endpoints, cache: cache, where: func(s string) string { return names[s] }, flags: true}
}

// endpointsFile loads the endpoints file (loadEndpoints), a file it cannot
// read named by its setting.
func (src llmSources) endpointsFile() (map[string]llm.Endpoint, error) {
	eps, err := loadEndpoints(src.endpoints)
	if pathErr := (*fs.PathError)(nil); errors.As(err, &pathErr) {
		err = fmt.Errorf("%s: %w", src.where("endpoints"), err)
	}
	if err != nil && src.flags {
		err = fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return eps, err
}

// endpointKeys and priceKeys are the keys an endpoint and its price may
// have.
var (
	endpointKeys = jsonKeys(endpointFile{})
	priceKeys    = jsonKeys(priceFile{})
)

// jsonKeys returns the JSON keys of a struct's fields.
func jsonKeys(v any) map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" {
			out[name] = true
		}
	}
	return out
}

// loadEndpoints reads an endpoints file; problems are reported as
// file:line: name.field: reason. An empty path means no endpoints. A file
// that cannot be read is its *fs.PathError, for the caller to say which
// setting named it.
func loadEndpoints(path string) (map[string]llm.Endpoint, error) {
	out := map[string]llm.Endpoint{}
	if path == "" {
		return out, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = jsonloc.BlankBOM(data)
	lines, offsets := jsonloc.BuildOffsets(data)
	located := func(field, reason string) error {
		return fmt.Errorf("%s:%d: %s: %s", path, lines.Line(field), field, reason)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw map[string]endpointFile
	if err := dec.Decode(&raw); err != nil {
		line, field, reason := jsonloc.DescribeDecodeError(data, offsets, err)
		if typeErr := (*json.UnmarshalTypeError)(nil); field != "" && errors.As(err, &typeErr) {
			field = endpointField(offsets, field, typeErr.Offset)
		}
		if field == "" {
			return nil, fmt.Errorf("%s:%d: %s", path, line, reason)
		}
		return nil, fmt.Errorf("%s:%d: %s: %s", path, line, field, reason)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s:%d: unexpected data after the JSON document", path, jsonloc.LineAt(data, dec.InputOffset()))
	}
	var repeats []error
	for _, o := range jsonloc.Oddities(data) {
		if o.Kind == jsonloc.RepeatedKey {
			// encoding/json keeps the last silently: a second endpoint of
			// one name would replace the first (and hide its problems).
			repeats = append(repeats, fmt.Errorf("%s:%d: %s: repeated key", path, o.Line, o.Field))
		}
	}
	if len(repeats) > 0 {
		return nil, errors.Join(repeats...)
	}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	slices.Sort(names)
	var problems []error
	for _, key := range unknownEndpointKeys(data, names) {
		problems = append(problems, located(key, "unknown key"))
	}
	for _, name := range names {
		e := raw[name]
		ep := llm.Endpoint{
			Name: name, BaseURL: e.BaseURL, APIKeyEnv: e.APIKeyEnv, Model: e.Model, Mode: e.Mode, Family: e.Family,
			ReasoningEffort: e.ReasoningEffort, MaxOutputTokens: e.MaxOutputTokens, MaxTokensField: e.MaxTokensField,
			Temperature: e.Temperature, OmitTemperature: e.OmitTemperature, Concurrency: e.Concurrency,
			MaxAttempts: e.MaxAttempts, ExtraBody: e.ExtraBody,
		}
		if e.Price != nil {
			ep.Price = &llm.Price{InputPerMTok: e.Price.InputPerMTok, OutputPerMTok: e.Price.OutputPerMTok, BatchFactor: e.Price.BatchFactor}
		}
		ep.Batch = e.Batch
		if e.Timeout != "" {
			d, err := time.ParseDuration(e.Timeout)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s:%d: %s.timeout: %v", path, lines.Line(name+".timeout"), name, err))
				continue
			}
			ep.Timeout = d
		}
		var inv *apperr.InvalidArgumentError
		if err := ep.Validate(); errors.As(err, &inv) {
			for _, v := range inv.Violations {
				problems = append(problems, fmt.Errorf("%s:%d: %s.%s: %s", path, lines.Line(name+"."+v.Field), name, v.Field, v.Description))
			}
			continue
		} else if err != nil {
			problems = append(problems, fmt.Errorf("%s:%d: %s: %v", path, lines.Line(name), name, err))
			continue
		}
		out[name] = ep
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	return out, nil
}

// endpointField completes the path encoding/json gives a value of an
// endpoint ("concurrency": it leaves out the map's key) with the name of
// the endpoint whose value that is: the path ending so that starts last at
// or before the error's offset.
func endpointField(offsets jsonloc.Offsets, field string, offset int64) string {
	best, bestOff := field, int64(-1)
	for path, off := range offsets {
		if off <= offset && off > bestOff && strings.HasSuffix(path, "."+field) {
			best, bestOff = path, off
		}
	}
	return best
}

// unknownEndpointKeys returns, by endpoint in names' order, the paths
// ("NAME.key", "NAME.price.key") of keys an endpoint or its price does not
// have; data has decoded as a map of endpoints. extra_body is free.
func unknownEndpointKeys(data []byte, names []string) []string {
	var objects map[string]map[string]json.RawMessage
	if json.Unmarshal(data, &objects) != nil {
		return nil
	}
	var out []string
	for _, name := range names {
		for _, k := range slices.Sorted(maps.Keys(objects[name])) {
			if !endpointKeys[k] {
				out = append(out, name+"."+k)
			}
		}
		var price map[string]json.RawMessage
		if json.Unmarshal(objects[name]["price"], &price) == nil {
			for _, k := range slices.Sorted(maps.Keys(price)) {
				if !priceKeys[k] {
					out = append(out, name+".price."+k)
				}
			}
		}
	}
	return out
}
