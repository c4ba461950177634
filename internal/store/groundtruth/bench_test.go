package groundtruth_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/groundtruth/storetest"
)

func BenchmarkImportSQLite1M(b *testing.B) {
	benchImport(b, storetest.Gen{Models: 5, Datasets: 4, Problems: 25_000}, openSQLiteBench)
}

func BenchmarkImportSQLite100k(b *testing.B) {
	benchImport(b, storetest.Gen{Models: 5, Datasets: 4, Problems: 2_500}, openSQLiteBench)
}

func BenchmarkImportPostgres100k(b *testing.B) {
	benchImport(b, storetest.Gen{Models: 5, Datasets: 4, Problems: 2_500}, func(b *testing.B) groundtruth.Store {
		return openPostgresTest(b)
	})
}

// openSQLiteBench opens a fresh file database in b.TempDir().
func openSQLiteBench(b *testing.B) groundtruth.Store {
	s, err := groundtruth.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchImport imports the records of g into a fresh store per iteration and
// reports rows/s and the peak growth of the Go heap during the import.
func benchImport(b *testing.B, g storetest.Gen, open func(*testing.B) groundtruth.Store) {
	b.ReportAllocs()
	ctx := context.Background()
	var rows int64
	var elapsed time.Duration
	var peak, peakRSSBytes uint64
	for b.Loop() {
		b.StopTimer()
		s := open(b)
		runtime.GC()
		resetPeakRSS()
		sampler := startHeapSampler()
		b.StartTimer()
		start := time.Now()
		st, err := s.Import(ctx, g.Records())
		elapsed += time.Since(start)
		b.StopTimer()
		peak = max(peak, sampler.stop())
		if hwm, ok := peakRSS(); ok {
			peakRSSBytes = max(peakRSSBytes, hwm)
		}
		if err != nil {
			b.Fatal(err)
		}
		if st.Inserted != int64(g.Len()) {
			b.Fatalf("Inserted = %d, want %d", st.Inserted, g.Len())
		}
		rows += st.Received
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	if peakRSSBytes > 0 {
		b.ReportMetric(float64(peakRSSBytes)/(1<<20), "peak-rss-MiB")
	}
}

// heapSampler records the largest Go heap (live and not yet swept objects)
// seen above the level at its start.
type heapSampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	base uint64
	peak uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func readHeap() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{done: make(chan struct{}), base: readHeap()}
	h.peak = h.base
	h.wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.done:
				return
			case <-t.C:
				h.peak = max(h.peak, readHeap())
			}
		}
	})
	return h
}

// stop ends sampling and returns the peak growth in bytes.
func (h *heapSampler) stop() uint64 {
	close(h.done)
	h.wg.Wait()
	h.peak = max(h.peak, readHeap())
	return h.peak - h.base
}

// resetPeakRSS resets the process's VmHWM to its current RSS (Linux ≥ 4.0;
// elsewhere a no-op), so peakRSS covers what follows.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS returns the process's peak resident set (VmHWM) on Linux. It covers
// the whole process, SQLite's page cache (outside the Go heap) included.
func peakRSS() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if kb, err := strconv.ParseUint(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
				return kb << 10, true
			}
		}
	}
	return 0, false
}
