package scoring_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/runs/scoring"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
)

// input30 is a 30-item pool at α = 0.5 with a plan over every item and a
// 1000-sample Monte Carlo random reference.
func input30() *scoring.Input {
	rng := rand.New(rand.NewPCG(3, 30))
	alpha := 0.5
	in := &scoring.Input{Alpha: &alpha, Random: &scoring.Random{Samples: 1000, Seed: 1}}
	for i := range 30 {
		id := fmt.Sprintf("p%d", i+1)
		cost := 500 + rng.Int64N(7693)
		in.Items = append(in.Items, scoring.Item{ID: id, Cost: cost, Correct: rng.IntN(2) == 0, Unsolvable: i%10 == 0})
		in.Plan = append(in.Plan, scoring.Step{ID: id, Tokens: cost * int64(80+rng.IntN(40)) / 100})
	}
	return in
}

// BenchmarkScoreLoopback scores one 30-item pool end to end (execute U and
// E, oracle, 1000-sample random reference, metrics) through both services
// over loopback TCP, next to an empty unary RPC (health Check) on the same
// server: "interleaved" alternates them in every goroutine and reports the
// throughput ratio directly.
func BenchmarkScoreLoopback(b *testing.B) {
	conn := servertest.StartTCP(b, nil,
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(nil, time.Now)},
		server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()},
	)
	clients := scoring.Clients{Executor: triagev1.NewExecutorServiceClient(conn), Oracle: triagev1.NewOracleServiceClient(conn)}
	health := healthpb.NewHealthClient(conn)
	in := input30()
	ctx := context.Background()
	check := func(b *testing.B) {
		if _, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
			b.Error(err)
		}
	}
	score := func(b *testing.B) {
		if _, err := scoring.Score(ctx, clients, "bench", in); err != nil {
			b.Error(err)
		}
	}
	b.Run("rpc=health", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				check(b)
			}
		})
	})
	b.Run("rpc=score", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				score(b)
			}
		})
	})
	b.Run("rpc=interleaved", func(b *testing.B) {
		results := make(chan [2]time.Duration, 64)
		b.RunParallel(func(pb *testing.PB) {
			var h, s time.Duration
			for pb.Next() {
				t0 := time.Now()
				check(b)
				t1 := time.Now()
				score(b)
				h, s = h+t1.Sub(t0), s+time.Since(t1)
			}
			results <- [2]time.Duration{h, s}
		})
		close(results)
		var h, s time.Duration
		for r := range results {
			h, s = h+r[0], s+r[1]
		}
		b.ReportMetric(float64(h.Nanoseconds())/float64(b.N), "health-ns/call")
		b.ReportMetric(float64(s.Nanoseconds())/float64(b.N), "score-ns/call")
		b.ReportMetric(float64(h)/float64(s), "throughput-ratio")
	})
}
