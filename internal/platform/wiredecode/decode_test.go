package wiredecode_test

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/wiredecode"
)

// paperRequest is the paper's call: n items at α = 0.5, a plan over every
// item, 1000 Monte Carlo samples.
func paperRequest(n int) *triagev1.ScorePlanRequest {
	req := &triagev1.ScorePlanRequest{
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}},
		Options: &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: 1000, Seed: 1}},
	}
	pool := &triagev1.InlinePool{}
	for i := range n {
		id := fmt.Sprintf("p%d", i+1)
		pool.Items = append(pool.Items, &triagev1.GroundTruthItem{Id: id, Cost: int64(500 + 37*i), Correct: i%2 == 0})
		req.Plan = append(req.Plan, &triagev1.PlanStep{Id: id, Tokens: int64(400 + 29*i)})
	}
	req.Pool = &triagev1.ScorePlanRequest_Inline{Inline: pool}
	return req
}

func marshal(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// field appends one length-delimited field.
func field(b []byte, num protowire.Number, body []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

// encoded is a request's bytes and the type to decode them as.
type encoded struct {
	as   proto.Message // an empty message of the type
	data []byte
}

// decoded are requests Unmarshal decodes itself, each as proto.Unmarshal does.
func decoded(t testing.TB) map[string]encoded {
	withValues := paperRequest(4)
	v := 2.5
	withValues.GetInline().Items[1].Value = &v
	zero := 0.0
	withValues.GetInline().Items[3].Value = &zero
	everything := paperRequest(3)
	everything.Regimes = []triagev1.Regime{triagev1.Regime_REGIME_ENFORCED}
	everything.Unsolvable = &triagev1.UnsolvableItems{Ids: []string{"p2"}}
	everything.Budgets = append(everything.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 900}})
	everything.Options.IncludeTrace = true
	unicode := paperRequest(2)
	unicode.GetInline().Items[0].Id = "problème-α"
	unicode.Plan[0].Id = "problème-α"
	emptyIDs := paperRequest(2)
	emptyIDs.GetInline().Items[1].Id = ""
	emptyIDs.Plan[1].Id = ""
	// A plan step before the pool, budgets between the steps, and an id
	// given twice in one step: wire orders another client may write.
	paper := marshal(t, paperRequest(3))
	var shuffled []byte
	shuffled = field(shuffled, 4, marshal(t, &triagev1.PlanStep{Id: "p3", Tokens: 7}))
	shuffled = field(shuffled, 3, marshal(t, &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 5}}))
	shuffled = field(shuffled, 2, marshal(t, paperRequest(3).GetInline()))
	step := marshal(t, &triagev1.PlanStep{Id: "p9", Tokens: 1})
	step = append(step, marshal(t, &triagev1.PlanStep{Id: "p1"})...)
	shuffled = field(shuffled, 4, step)
	shuffled = field(shuffled, 3, marshal(t, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0.25}}))
	sp := func(data []byte) encoded { return encoded{&triagev1.ScorePlanRequest{}, data} }
	execute := &triagev1.ExecutePlanRequest{
		Pool:   &triagev1.ExecutePlanRequest_Inline{Inline: withValues.GetInline()},
		Budget: &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 1200}}, Plan: paperRequest(4).Plan,
		Regimes: []triagev1.Regime{triagev1.Regime_REGIME_ADVISORY}, OmitTrace: true,
	}
	refs := &triagev1.ComputeReferencesRequest{
		Items:   withValues.GetInline().GetItems(),
		Budgets: everything.Budgets, Random: &triagev1.RandomReferenceOptions{Samples: 10, Seed: 3},
	}
	return map[string]encoded{
		"paper's call":                     sp(marshal(t, paperRequest(30))),
		"items with values":                sp(marshal(t, withValues)),
		"every other field":                sp(marshal(t, everything)),
		"ids beyond ASCII":                 sp(marshal(t, unicode)),
		"empty ids":                        sp(marshal(t, emptyIDs)),
		"empty pool":                       sp(marshal(t, &triagev1.ScorePlanRequest{Pool: &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{}}})),
		"plan without a pool":              sp(marshal(t, &triagev1.ScorePlanRequest{Plan: paperRequest(2).Plan})),
		"nothing":                          sp(nil),
		"another order":                    sp(shuffled),
		"paper's call and a trailing":      sp(append(paper, marshal(t, &triagev1.ScorePlanRequest{Regimes: []triagev1.Regime{1, 2}})...)),
		"an execution":                     {&triagev1.ExecutePlanRequest{}, marshal(t, execute)},
		"references":                       {&triagev1.ComputeReferencesRequest{}, marshal(t, refs)},
		"references without items":         {&triagev1.ComputeReferencesRequest{}, marshal(t, &triagev1.ComputeReferencesRequest{Budgets: everything.Budgets})},
		"a field this build does not know": sp(protowire.AppendVarint(protowire.AppendTag(marshal(t, paperRequest(2)), 99, protowire.VarintType), 7)),
	}
}

// notDecoded are requests Unmarshal leaves to proto.Unmarshal.
func notDecoded(t testing.TB) map[string][]byte {
	paper := marshal(t, paperRequest(3))
	inline := marshal(t, paperRequest(2).GetInline())
	badID := []byte{0xff, 0xfe}
	var manyRuns []byte
	for range 9 {
		manyRuns = field(manyRuns, 4, marshal(t, &triagev1.PlanStep{Id: "p1", Tokens: 1}))
		manyRuns = protowire.AppendTag(manyRuns, 5, protowire.VarintType)
		manyRuns = protowire.AppendVarint(manyRuns, 1)
	}
	itemUnknown := field(nil, 2, field(nil, 1, protowire.AppendVarint(protowire.AppendTag(nil, 9, protowire.VarintType), 1)))
	stepWrongType := field(nil, 4, protowire.AppendFixed32(protowire.AppendTag(nil, 2, protowire.Fixed32Type), 1))
	return map[string][]byte{
		"stored pool":              marshal(t, &triagev1.ScorePlanRequest{Pool: &triagev1.ScorePlanRequest_Stored{Stored: &triagev1.StoredPool{}}, Plan: paperRequest(2).Plan}),
		"inline pool twice":        field(field(nil, 2, inline), 2, inline),
		"item id not UTF-8":        field(nil, 2, field(nil, 1, field(nil, 1, badID))),
		"step id not UTF-8":        field(nil, 4, field(nil, 1, badID)),
		"unknown field in item":    itemUnknown,
		"step field of wrong type": stepWrongType,
		"plan as a varint":         protowire.AppendVarint(protowire.AppendTag(nil, 4, protowire.VarintType), 3),
		"truncated":                paper[:len(paper)-3],
		"many runs":                manyRuns,
		"malformed budget":         append(field(nil, 3, []byte{0x08}), paper...),
	}
}

func TestUnmarshalMatchesProto(t *testing.T) {
	for name, e := range decoded(t) {
		t.Run(name, func(t *testing.T) {
			data := e.data
			want := e.as.ProtoReflect().New().Interface()
			if err := proto.Unmarshal(data, want); err != nil {
				t.Fatalf("proto.Unmarshal: %v", err)
			}
			got := e.as.ProtoReflect().New().Interface()
			if !wiredecode.Unmarshal(data, got) {
				t.Fatal("Unmarshal left it to proto.Unmarshal")
			}
			if !proto.Equal(got, want) {
				t.Errorf("Unmarshal = %v\nproto.Unmarshal = %v", got, want)
			}
			// Nothing decoded refers to the bytes.
			for i := range data {
				data[i] = 0
			}
			if !proto.Equal(got, want) {
				t.Errorf("after the bytes were cleared: %v", got)
			}
		})
	}
}

func TestUnmarshalLeavesTheRestToProto(t *testing.T) {
	for name, data := range notDecoded(t) {
		// ExecutePlanRequest has ScorePlanRequest's pool and plan fields.
		for _, got := range []proto.Message{&triagev1.ScorePlanRequest{}, &triagev1.ExecutePlanRequest{}} {
			t.Run(fmt.Sprintf("%s/%T", name, got), func(t *testing.T) {
				if wiredecode.Unmarshal(data, got) {
					t.Fatalf("Unmarshal decoded it: %v", got)
				}
				if proto.Size(got) != 0 {
					t.Errorf("Unmarshal left %v, want an empty message", got)
				}
			})
		}
	}
	t.Run("message not empty", func(t *testing.T) {
		got := &triagev1.ScorePlanRequest{Regimes: []triagev1.Regime{1}}
		if wiredecode.Unmarshal(marshal(t, paperRequest(2)), got) {
			t.Error("Unmarshal merged into a message that was not empty")
		}
	})
	t.Run("another message", func(t *testing.T) {
		if wiredecode.Unmarshal(marshal(t, paperRequest(2).GetInline()), &triagev1.InlinePool{}) {
			t.Error("Unmarshal decoded a message it does not know")
		}
	})
}

func TestUnmarshalBatch(t *testing.T) {
	var batch, mixed []byte
	for _, e := range decoded(t) {
		if _, ok := e.as.(*triagev1.ScorePlanRequest); ok {
			batch = field(batch, 1, e.data)
		}
	}
	ok := batch
	mixed = field(ok, 1, notDecoded(t)["stored pool"])
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"every request decoded", ok, true},
		{"empty batch", nil, true},
		{"one request left to proto", mixed, false},
		{"unknown field", protowire.AppendVarint(protowire.AppendTag(ok, 2, protowire.VarintType), 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := &triagev1.ScorePlansRequest{}
			if decodedIt := wiredecode.Unmarshal(tc.data, got); decodedIt != tc.want {
				t.Fatalf("Unmarshal = %v, want %v", decodedIt, tc.want)
			}
			if !tc.want {
				if proto.Size(got) != 0 {
					t.Errorf("Unmarshal left %v, want an empty message", got)
				}
				return
			}
			want := &triagev1.ScorePlansRequest{}
			if err := proto.Unmarshal(tc.data, want); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(got, want) {
				t.Errorf("Unmarshal = %v\nproto.Unmarshal = %v", got, want)
			}
		})
	}
}

// FuzzUnmarshal holds Unmarshal to its contract on any bytes: whatever it
// decodes, proto.Unmarshal decodes without error to an equal message (and
// still equal once the bytes are cleared), and whatever it leaves, it
// leaves empty.
func FuzzUnmarshal(f *testing.F) {
	for _, e := range decoded(f) {
		f.Add(e.data)
	}
	var batch []byte
	for _, data := range notDecoded(f) {
		f.Add(data)
		batch = field(batch, 1, data)
	}
	for _, e := range decoded(f) {
		batch = field(batch, 1, e.data)
		f.Add(batch)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, pair := range []struct{ got, want proto.Message }{
			{&triagev1.ScorePlanRequest{}, &triagev1.ScorePlanRequest{}},
			{&triagev1.ScorePlansRequest{}, &triagev1.ScorePlansRequest{}},
			{&triagev1.ExecutePlanRequest{}, &triagev1.ExecutePlanRequest{}},
			{&triagev1.ComputeReferencesRequest{}, &triagev1.ComputeReferencesRequest{}},
		} {
			own := append([]byte(nil), data...)
			if !wiredecode.Unmarshal(own, pair.got) {
				if proto.Size(pair.got) != 0 {
					t.Fatalf("left %v, want an empty message", pair.got)
				}
				continue
			}
			clear(own) // nothing decoded may refer to the bytes
			if err := proto.Unmarshal(data, pair.want); err != nil {
				t.Fatalf("decoded what proto.Unmarshal rejects (%v): %v", err, pair.got)
			}
			if !proto.Equal(pair.got, pair.want) {
				t.Fatalf("Unmarshal = %v\nproto.Unmarshal = %v", pair.got, pair.want)
			}
		}
	})
}

// BenchmarkUnmarshal decodes the paper's request both ways.
func BenchmarkUnmarshal(b *testing.B) {
	data := marshal(b, paperRequest(30))
	b.Run("decoder=wiredecode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !wiredecode.Unmarshal(data, &triagev1.ScorePlanRequest{}) {
				b.Fatal("not decoded")
			}
		}
	})
	b.Run("decoder=proto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := proto.Unmarshal(data, &triagev1.ScorePlanRequest{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
