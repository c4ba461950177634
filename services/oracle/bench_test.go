package oracle_test

import (
	"context"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/services/oracle"
)

// sweepRequest is the reference workload: a 30-item pool, the α sweep
// (4 budgets), the oracle and a 1000-sample Monte Carlo random reference.
func sweepRequest() *triagev1.ComputeReferencesRequest {
	return &triagev1.ComputeReferencesRequest{
		Items:   pool30(11),
		Budgets: alphas(0.25, 0.5, 0.75, 1),
		Random:  &triagev1.RandomReferenceOptions{Samples: 1000, Seed: 1},
	}
}

// BenchmarkComputeReferencesInProcess calls the handler directly; the
// budget-ns metric is the cost per budget (bar: ≤ 50 µs).
func BenchmarkComputeReferencesInProcess(b *testing.B) {
	svc := oracle.NewService()
	req := sweepRequest()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.ComputeReferences(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4, "ns/budget")
}

// BenchmarkLoopback measures, over real TCP on loopback through the full
// server chain, the throughput of an empty unary RPC (health Check) and of
// ComputeReferences for the sweep. "interleaved" alternates the two in every
// goroutine and reports compute-throughput / health-throughput directly, so
// the ratio comes from one run under the same load (goal ≥ 0.5).
func BenchmarkLoopback(b *testing.B) {
	conn := servertest.StartTCP(b, nil, oracleService())
	health := healthpb.NewHealthClient(conn)
	client := triagev1.NewOracleServiceClient(conn)
	req := sweepRequest()
	ctx := context.Background()
	check := func(b *testing.B) {
		if _, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
			b.Error(err)
		}
	}
	compute := func(b *testing.B) {
		if _, err := client.ComputeReferences(ctx, req); err != nil {
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
	b.Run("rpc=compute", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				compute(b)
			}
		})
	})
	b.Run("rpc=interleaved", func(b *testing.B) {
		var healthNs, computeNs time.Duration
		results := make(chan [2]time.Duration, 64)
		b.RunParallel(func(pb *testing.PB) {
			var h, c time.Duration
			for pb.Next() {
				t0 := time.Now()
				check(b)
				t1 := time.Now()
				compute(b)
				h, c = h+t1.Sub(t0), c+time.Since(t1)
			}
			results <- [2]time.Duration{h, c}
		})
		close(results)
		for r := range results {
			healthNs, computeNs = healthNs+r[0], computeNs+r[1]
		}
		b.ReportMetric(float64(healthNs.Nanoseconds())/float64(b.N), "health-ns/call")
		b.ReportMetric(float64(computeNs.Nanoseconds())/float64(b.N), "compute-ns/call")
		b.ReportMetric(float64(healthNs)/float64(computeNs), "throughput-ratio")
	})
}
