package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/grpcerr"
	"github.com/triage-eval/triage/internal/gtfile"
	"github.com/triage-eval/triage/internal/store"
)

// importBatch is how many records go in one stream message.
const importBatch = 1000

// maxLineBytes is the longest JSONL line accepted.
const maxLineBytes = 1 << 20

func runGroundTruth(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 || (args[0] != "import" && args[0] != "list") {
		return fmt.Errorf("%w: usage: triage ground-truth import|list [flags]", ErrUsage)
	}
	fs := newFlagSet("ground-truth "+args[0], env.Stderr)
	storeLoc := fs.String("store", DefaultStore, "ground-truth store used in process: a SQLite file path, sqlite:PATH, or a postgres:// URL")
	addr := fs.String("executor-addr", "", "remote Executor (host:port); default: in process over --store")
	model := fs.String("model", "", "list: only this model")
	mode := fs.String("mode", "", "list: only this mode (standard or extended; needs --model)")
	dataset := fs.String("dataset", "", "list: only this dataset")
	maxArgs := 0
	if args[0] == "import" {
		maxArgs = 1
	}
	if err := parseFlags(fs, args[1:], env.Getenv, maxArgs); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	var st store.Store
	if *addr == "" {
		var err error
		if st, err = store.Open(ctx, *storeLoc); err != nil {
			return fmt.Errorf("--store: %w", err)
		}
		defer st.Close()
	}
	conns, err := connect([]string{"executor"}, map[string]string{"executor": *addr}, serviceDeps{store: st}, env.Stderr)
	if err != nil {
		return err
	}
	defer conns.Close()
	client := triagev1.NewExecutorServiceClient(conns.conns["executor"])
	if args[0] == "list" {
		return listGroundTruth(ctx, client, *model, *mode, *dataset, env.Stdout)
	}
	return importGroundTruth(ctx, client, fs.Arg(0), env)
}

// importGroundTruth streams a JSONL file to the Executor in one atomic
// import and reports problems as file:line: key: reason.
func importGroundTruth(ctx context.Context, client triagev1.ExecutorServiceClient, path string, env Env) error {
	name, r, closeFile, err := openInput(path, env.Stdin)
	if err != nil {
		return err
	}
	defer closeFile()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a local error aborts the stream, and the import with it
	stream, err := client.ImportGroundTruth(ctx)
	if err != nil {
		return err
	}
	var (
		lineOf []int32 // lineOf[i] is the line of the i-th record sent
		batch  []*triagev1.GroundTruthRecord
	)
	send := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := stream.Send(&triagev1.ImportGroundTruthRequest{Records: batch})
		batch = batch[:0:0]
		if errors.Is(err, io.EOF) {
			return nil // the server ended the stream; CloseAndRecv says why
		}
		return err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		rec, err := gtfile.ParseLine([]byte(text))
		if err != nil {
			return fmt.Errorf("%s:%d: %v (nothing was imported)", name, line, err)
		}
		lineOf = append(lineOf, int32(line))
		if batch = append(batch, rec); len(batch) == importBatch {
			if err := send(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v (nothing was imported)", name, line+1, err)
	}
	if err := send(); err != nil {
		return err
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return importError(name, lineOf, err)
	}
	fmt.Fprintf(env.Stdout, "%s: %d records imported (%d inserted, %d updated, %d unchanged)\n",
		name, resp.GetReceived(), resp.GetInserted(), resp.GetUpdated(), resp.GetUnchanged())
	return nil
}

// importError names the file line of each record the Executor rejected.
func importError(name string, lineOf []int32, err error) error {
	if status.Code(err) != codes.InvalidArgument {
		return err
	}
	var lines []string
	for _, fv := range grpcerr.FieldViolations(err) {
		m := gtfile.RecordField.FindStringSubmatch(fv.GetField())
		if m == nil {
			lines = append(lines, fmt.Sprintf("%s: %s: %s", name, fv.GetField(), fv.GetDescription()))
			continue
		}
		i, _ := strconv.Atoi(m[1])
		key := m[2]
		if k, ok := gtfile.LineKeys[key]; ok {
			key = k
		}
		where := name
		if i < len(lineOf) {
			where = fmt.Sprintf("%s:%d", name, lineOf[i])
		}
		lines = append(lines, fmt.Sprintf("%s: %s: %s", where, key, fv.GetDescription()))
	}
	if len(lines) == 0 {
		return err
	}
	return errors.New(strings.Join(lines, "\n") + "\n(nothing was imported)")
}

func listGroundTruth(ctx context.Context, client triagev1.ExecutorServiceClient, model, mode, dataset string, w io.Writer) error {
	req := &triagev1.ListGroundTruthRequest{Dataset: dataset, PageSize: int32(store.MaxPageSize)}
	if model != "" || mode != "" {
		req.Solver = &triagev1.Solver{Model: model, Mode: gtfile.Mode(mode)}
	}
	bw := bufio.NewWriter(w)
	for {
		resp, err := client.ListGroundTruth(ctx, req)
		if err != nil {
			return err
		}
		for _, r := range resp.GetRecords() {
			b, err := gtfile.FormatLine(r)
			if err != nil {
				return err
			}
			bw.Write(append(b, '\n'))
		}
		if resp.GetNextPageToken() == "" {
			return bw.Flush()
		}
		req.PageToken = resp.GetNextPageToken()
	}
}

// openInput opens path, or stdin for "" or "-".
func openInput(path string, stdin io.Reader) (string, io.Reader, func() error, error) {
	if path == "" || path == "-" {
		return "-", stdin, func() error { return nil }, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", nil, nil, err
	}
	return path, f, f.Close, nil
}
