// Package telemetrytest reads back the metrics code under test records:
// a meter provider with an in-memory reader (sdk/metric.ManualReader) and
// lookups by instrument name and attributes. It is imported by tests only.
package telemetrytest

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Metrics is a meter provider whose metrics a test reads back.
type Metrics struct {
	// Provider records the metrics; give it to the code under test.
	Provider *sdkmetric.MeterProvider
	reader   *sdkmetric.ManualReader
	tb       testing.TB
}

// New returns an empty recording.
func New(tb testing.TB) *Metrics {
	reader := sdkmetric.NewManualReader()
	return &Metrics{Provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), reader: reader, tb: tb}
}

// collect returns the data points recorded so far of the instrument name.
func (m *Metrics) collect(name string) metricdata.Aggregation {
	m.tb.Helper()
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(context.Background(), &rm); err != nil {
		m.tb.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, md := range sm.Metrics {
			if md.Name == name {
				return md.Data
			}
		}
	}
	return nil
}

// Unit returns the unit of the instrument name, "" if it recorded nothing.
func (m *Metrics) Unit(name string) string {
	m.tb.Helper()
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(context.Background(), &rm); err != nil {
		m.tb.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, md := range sm.Metrics {
			if md.Name == name {
				return md.Unit
			}
		}
	}
	return ""
}

// Sum returns the total of the integer counter name over the data points
// whose attributes include every one of attrs.
func (m *Metrics) Sum(name string, attrs ...attribute.KeyValue) int64 {
	m.tb.Helper()
	var total int64
	if sum, ok := m.collect(name).(metricdata.Sum[int64]); ok {
		for _, dp := range sum.DataPoints {
			if has(dp.Attributes, attrs) {
				total += dp.Value
			}
		}
	}
	return total
}

// Count returns how many values the histogram name recorded over the data
// points whose attributes include every one of attrs.
func (m *Metrics) Count(name string, attrs ...attribute.KeyValue) uint64 {
	m.tb.Helper()
	var total uint64
	if h, ok := m.collect(name).(metricdata.Histogram[float64]); ok {
		for _, dp := range h.DataPoints {
			if has(dp.Attributes, attrs) {
				total += dp.Count
			}
		}
	}
	return total
}

func has(set attribute.Set, attrs []attribute.KeyValue) bool {
	for _, kv := range attrs {
		if v, ok := set.Value(kv.Key); !ok || v != kv.Value {
			return false
		}
	}
	return true
}
