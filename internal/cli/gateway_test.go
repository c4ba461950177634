package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	_ "google.golang.org/genproto/googleapis/rpc/errdetails" // resolves the @type of error details
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// decodeStatus parses a google.rpc.Status the gateway answered.
func decodeStatus(t *testing.T, out string) *spb.Status {
	t.Helper()
	st := &spb.Status{}
	if err := protojson.Unmarshal([]byte(out), st); err != nil {
		t.Fatalf("not a google.rpc.Status: %v: %s", err, out)
	}
	return st
}

// TestGatewayStreamsOverServe calls the HTTP/JSON gateway of a real
// `triage serve --http-listen` with a store: a client-streaming
// import whose body is several request messages, a paged GET listing with
// query parameters, and a server-streaming baseline read as
// newline-delimited chunks.
func TestGatewayStreamsOverServe(t *testing.T) {
	endpoints := writeFile(t, "endpoints.json", `{"q": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "mode": "standard"}}`)
	srv := startServeHTTP(t, "--endpoints", endpoints)
	call := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+srv.httpAddr+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(out)
	}
	rec := func(id string) string {
		return `{"solver": {"model": "m", "mode": "SOLVER_MODE_STANDARD"}, "dataset": "aime", "problemId": "` + id + `", "cost": "100", "correct": true, "gradeable": true}`
	}

	t.Run("import stream", func(t *testing.T) {
		body := `{"records": [` + rec("1") + `]}` + "\n" + `{"records": [` + rec("2") + `, ` + rec("3") + `]}` + "\n"
		code, out := call(http.MethodPost, "/v1/ground-truth:import", body)
		got := &triagev1.ImportGroundTruthResponse{}
		if err := protojson.Unmarshal([]byte(out), got); code != http.StatusOK || err != nil {
			t.Fatalf("HTTP %d, %v: %s", code, err, out)
		}
		got.Version = nil // the build's (server.TestResponsesAreStamped)
		if want := (&triagev1.ImportGroundTruthResponse{Received: 3, Inserted: 3}); !proto.Equal(got, want) {
			t.Errorf("import = %v, want %v", got, want)
		}
	})

	t.Run("list pages", func(t *testing.T) {
		var ids []string
		token, pages := "", 0
		for pages < 3 {
			pages++
			code, out := call(http.MethodGet, "/v1/ground-truth?solver.model=m&solver.mode=SOLVER_MODE_STANDARD&dataset=aime&pageSize=2&pageToken="+token, "")
			got := &triagev1.ListGroundTruthResponse{}
			if err := protojson.Unmarshal([]byte(out), got); code != http.StatusOK || err != nil {
				t.Fatalf("HTTP %d, %v: %s", code, err, out)
			}
			for _, r := range got.GetRecords() {
				ids = append(ids, r.GetProblemId())
			}
			if token = got.GetNextPageToken(); token == "" {
				break
			}
		}
		if strings.Join(ids, ",") != "1,2,3" || pages != 2 {
			t.Errorf("listed %v over %d pages, want 1,2,3 over two", ids, pages)
		}
	})

	t.Run("import stream refused in its second message", func(t *testing.T) {
		body := `{"records": [` + rec("4") + `]}` + "\n" + `{"records": [{"cost": "x"}]}` + "\n"
		code, out := call(http.MethodPost, "/v1/ground-truth:import", body)
		violations := grpcerr.FieldViolations(status.ErrorProto(decodeStatus(t, out)))
		if code != http.StatusBadRequest || len(violations) != 1 || violations[0].GetField() != "records[0].cost" ||
			!strings.Contains(violations[0].GetDescription(), "(in message 2 of the body)") {
			t.Fatalf("HTTP %d: %s, want 400 naming records[0].cost in message 2", code, out)
		}
		_, out = call(http.MethodGet, "/v1/ground-truth?solver.model=m&solver.mode=SOLVER_MODE_STANDARD&dataset=aime", "")
		listed := &triagev1.ListGroundTruthResponse{}
		if err := protojson.Unmarshal([]byte(out), listed); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var ids []string
		for _, r := range listed.GetRecords() {
			ids = append(ids, r.GetProblemId())
		}
		if strings.Join(ids, ",") != "1,2,3" {
			t.Errorf("after the refused import the store lists %v; want 1, 2 and 3 only", ids)
		}
	})

	t.Run("baseline stream", func(t *testing.T) {
		// Every problem is stored, so nothing calls the (absent) model: the
		// stream is started, then the summary.
		body := `{"solver": {"model": "m", "mode": "SOLVER_MODE_STANDARD"}, "endpoint": "q",
		  "problems": [{"id": "1", "dataset": "aime", "text": "1+1?", "gradingJson": "{\"kind\":\"math\",\"answer\":\"2\"}"},
		               {"id": "2", "dataset": "aime", "text": "2+2?", "gradingJson": "{\"kind\":\"math\",\"answer\":\"4\"}"}]}`
		code, out := call(http.MethodPost, "/v1/executor:runBaseline", body)
		if code != http.StatusOK {
			t.Fatalf("HTTP %d: %s", code, out)
		}
		var events []*triagev1.RunBaselineResponse
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var chunk struct{ Result, Error json.RawMessage }
			if err := json.Unmarshal([]byte(line), &chunk); err != nil || chunk.Error != nil {
				t.Fatalf("chunk %s: %v", line, err)
			}
			ev := &triagev1.RunBaselineResponse{}
			if err := protojson.Unmarshal(chunk.Result, ev); err != nil {
				t.Fatalf("chunk %s: %v", line, err)
			}
			events = append(events, ev)
		}
		if len(events) != 2 || events[0].GetStarted().GetSkipped() != 2 || events[1].GetSummary() == nil {
			t.Errorf("events = %v, want started (2 skipped) then the summary", events)
		}
	})
}
