package wiredecode

import (
	"math"
	"unicode/utf8"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// Unmarshal decodes data into m, which must be empty, and reports whether
// it did (see the package documentation); on false m is left empty.
func Unmarshal(data []byte, m proto.Message) bool {
	switch m := m.(type) {
	case *triagev1.ScorePlanRequest:
		return proto.Size(m) == 0 && scorePlanRequest(data, m)
	case *triagev1.ScorePlansRequest:
		return proto.Size(m) == 0 && scorePlansRequest(data, m)
	case *triagev1.ExecutePlanRequest:
		return proto.Size(m) == 0 && decode(data, m, poolAndPlan, func(d *decoded) {
			if d.pool != nil {
				m.Pool = &triagev1.ExecutePlanRequest_Inline{Inline: d.pool}
			}
			m.Plan = d.plan
		})
	case *triagev1.ComputeReferencesRequest:
		return proto.Size(m) == 0 && decode(data, m, layout{items: 1}, func(d *decoded) { m.Items = d.items })
	}
	return false
}

// layout names the fields of a request that this package decodes itself;
// 0 where the request has no such field.
type layout struct {
	stored protowire.Number // a stored pool: such requests are left to proto
	inline protowire.Number // an InlinePool
	items  protowire.Number // GroundTruthItems directly in the request
	plan   protowire.Number // PlanSteps
}

// poolAndPlan is the layout of ScorePlanRequest and ExecutePlanRequest.
var poolAndPlan = layout{stored: 1, inline: 2, plan: 4}

// Field numbers inside the messages decoded here (proto/triage/v1).
const (
	inlineItems   protowire.Number = 1 // InlinePool.items
	itemID        protowire.Number = 1 // GroundTruthItem.id
	itemCost      protowire.Number = 2 // GroundTruthItem.cost
	itemCorrect   protowire.Number = 3 // GroundTruthItem.correct
	itemValue     protowire.Number = 4 // GroundTruthItem.value
	stepID        protowire.Number = 1 // PlanStep.id
	stepTokens    protowire.Number = 2 // PlanStep.tokens
	batchRequests protowire.Number = 1 // ScorePlansRequest.requests
)

// maxRuns bounds the runs of other fields, between a request's pool, items
// and steps, that are merged one by one; a request interleaving more is
// left to proto.
const maxRuns = 8

// decoded is what decode hands its setter: the request's inline pool (nil
// without one), its items and its plan steps, in wire order.
type decoded struct {
	pool  *triagev1.InlinePool
	items []*triagev1.GroundTruthItem
	plan  []*triagev1.PlanStep
}

// scorePlanRequest decodes a ScorePlanRequest with an inline pool or none.
func scorePlanRequest(data []byte, m *triagev1.ScorePlanRequest) bool {
	return decode(data, m, poolAndPlan, func(d *decoded) { setScorePlan(m, d) })
}

// setScorePlan stores a ScorePlanRequest's own fields.
func setScorePlan(m *triagev1.ScorePlanRequest, d *decoded) {
	if d.pool != nil {
		m.Pool = &triagev1.ScorePlanRequest_Inline{Inline: d.pool}
	}
	m.Plan = d.plan
}

// decode decodes data into m, whose fields of layout l set stores, or
// reports false with m left as it was (empty). Once scan passed it, only
// proto.Unmarshal of the other fields' runs can still decline.
func decode(data []byte, m proto.Message, l layout, set func(*decoded)) bool {
	s := shape{layout: l}
	if !s.scan(data) {
		return false
	}
	for _, r := range s.runs[:s.runCount] {
		if (proto.UnmarshalOptions{Merge: true}).Unmarshal(data[r.from:r.to], m) != nil {
			proto.Reset(m)
			return false
		}
	}
	var d decoded
	s.fill(data, &d)
	set(&d)
	return true
}

// span is a run of data, [from, to).
type span struct{ from, to int }

// shape is what the first pass learns of a request's bytes.
type shape struct {
	layout
	hasInline bool
	itemCount int
	values    int // items with a value
	stepCount int
	// itemIDBytes and stepIDBytes count the bytes of each element's
	// last id, the one it keeps: the ids' slabs hold no other.
	itemIDBytes, stepIDBytes int
	runs                     [maxRuns]span
	runCount                 int
}

// scan checks that data is a request this package decodes and measures it:
// every field well formed, no stored pool, an inline pool at most once,
// every item and step of the known fields and wire types with an id that
// is UTF-8, and few enough runs of the other fields.
func (s *shape) scan(data []byte) bool {
	runFrom := -1
	for at := 0; at < len(data); {
		num, typ, n := protowire.ConsumeTag(data[at:])
		if n < 0 {
			return false
		}
		m := protowire.ConsumeFieldValue(num, typ, data[at+n:])
		if m < 0 {
			return false
		}
		value := data[at+n : at+n+m]
		switch num {
		case s.stored:
			return false
		case s.inline, s.items, s.plan:
			if typ != protowire.BytesType || !s.endRun(runFrom, at) {
				return false
			}
			runFrom = -1
			body, _ := protowire.ConsumeBytes(value)
			if !s.scanOwn(num, body) {
				return false
			}
		default:
			if runFrom < 0 {
				runFrom = at
			}
		}
		at += n + m
	}
	return s.endRun(runFrom, len(data))
}

// scanOwn checks and counts the body of one of the layout's own fields.
func (s *shape) scanOwn(num protowire.Number, body []byte) bool {
	switch num {
	case s.inline:
		if s.hasInline || !s.scanInline(body) {
			return false
		}
		s.hasInline = true
	case s.items:
		if !s.scanItem(body) {
			return false
		}
		s.itemCount++
	default:
		if !s.scanStep(body) {
			return false
		}
		s.stepCount++
	}
	return true
}

// endRun records the run of other fields [from, to), if one is open.
func (s *shape) endRun(from, to int) bool {
	if from < 0 {
		return true
	}
	if s.runCount == maxRuns {
		return false
	}
	s.runs[s.runCount] = span{from, to}
	s.runCount++
	return true
}

// scanInline checks an InlinePool's bytes and counts its items.
func (s *shape) scanInline(data []byte) bool {
	for at := 0; at < len(data); {
		num, typ, n := protowire.ConsumeTag(data[at:])
		if n < 0 || num != inlineItems || typ != protowire.BytesType {
			return false
		}
		body, m := protowire.ConsumeBytes(data[at+n:])
		if m < 0 || !s.scanItem(body) {
			return false
		}
		s.itemCount++
		at += n + m
	}
	return true
}

// scanItem checks a GroundTruthItem's bytes.
func (s *shape) scanItem(data []byte) bool {
	hasValue, idBytes := false, 0
	for at := 0; at < len(data); {
		num, typ, n := protowire.ConsumeTag(data[at:])
		if n < 0 {
			return false
		}
		var m int
		switch {
		case num == itemID && typ == protowire.BytesType:
			m, idBytes = scanID(data[at+n:])
		case (num == itemCost || num == itemCorrect) && typ == protowire.VarintType:
			_, m = protowire.ConsumeVarint(data[at+n:])
		case num == itemValue && typ == protowire.Fixed64Type:
			_, m = protowire.ConsumeFixed64(data[at+n:])
			hasValue = true
		default:
			return false
		}
		if m < 0 {
			return false
		}
		at += n + m
	}
	if hasValue {
		s.values++
	}
	s.itemIDBytes += idBytes
	return true
}

// scanStep checks a PlanStep's bytes.
func (s *shape) scanStep(data []byte) bool {
	idBytes := 0
	for at := 0; at < len(data); {
		num, typ, n := protowire.ConsumeTag(data[at:])
		if n < 0 {
			return false
		}
		var m int
		switch {
		case num == stepID && typ == protowire.BytesType:
			m, idBytes = scanID(data[at+n:])
		case num == stepTokens && typ == protowire.VarintType:
			_, m = protowire.ConsumeVarint(data[at+n:])
		default:
			return false
		}
		if m < 0 {
			return false
		}
		at += n + m
	}
	s.stepIDBytes += idBytes
	return true
}

// scanID checks an id at the start of data and returns its length on the
// wire (-1 if it is malformed or not UTF-8) and its own.
func scanID(data []byte) (wire, id int) {
	b, m := protowire.ConsumeBytes(data)
	if m < 0 || !utf8.Valid(b) {
		return -1, 0
	}
	return m, len(b)
}

// fill decodes what scan measured into d: the items and steps each in one
// slice, the items' ids in one string and the steps' in another (a
// reference kept to an item's id, as a cache of references may keep, holds
// the items' ids alone). The bytes were checked, so nothing fails.
func (s *shape) fill(data []byte, d *decoded) {
	sl := slabs{itemIDs: make([]byte, s.itemIDBytes), stepIDs: make([]byte, s.stepIDBytes)}
	if s.values > 0 {
		sl.values = make([]float64, s.values)
	}
	if s.itemCount > 0 {
		sl.items = make([]triagev1.GroundTruthItem, s.itemCount)
		d.items = make([]*triagev1.GroundTruthItem, 0, s.itemCount)
	}
	if s.stepCount > 0 {
		sl.steps = make([]triagev1.PlanStep, s.stepCount)
		d.plan = make([]*triagev1.PlanStep, 0, s.stepCount)
	}
	if s.hasInline {
		d.pool = &triagev1.InlinePool{}
	}
	for at := 0; at < len(data); {
		num, typ, n := protowire.ConsumeTag(data[at:])
		m := protowire.ConsumeFieldValue(num, typ, data[at+n:])
		switch num {
		case s.inline:
			body, _ := protowire.ConsumeBytes(data[at+n:])
			for in := 0; in < len(body); {
				_, _, k := protowire.ConsumeTag(body[in:])
				item, j := protowire.ConsumeBytes(body[in+k:])
				d.items = append(d.items, sl.item(item))
				in += k + j
			}
			d.pool.Items, d.items = d.items, nil
		case s.items:
			body, _ := protowire.ConsumeBytes(data[at+n:])
			d.items = append(d.items, sl.item(body))
		case s.plan:
			body, _ := protowire.ConsumeBytes(data[at+n:])
			d.plan = append(d.plan, sl.step(body))
		}
		at += n + m
	}
}

// slabs hold a request's items, steps, values and ids, handed out in wire
// order.
type slabs struct {
	items  []triagev1.GroundTruthItem
	steps  []triagev1.PlanStep
	values []float64
	// itemIDs and stepIDs are exactly the bytes of the ids kept; each id
	// is a string over its part.
	itemIDs, stepIDs []byte
}

// cutID copies b into the front of *slab and returns it as a string over
// that part, which nothing writes to again.
func cutID(slab *[]byte, b []byte) string {
	if len(b) == 0 {
		return ""
	}
	part := (*slab)[:len(b):len(b)]
	*slab = (*slab)[len(b):]
	copy(part, b)
	return unsafe.String(&part[0], len(part))
}

// item decodes a GroundTruthItem scan checked; the last of a repeated
// field wins, as in proto.Unmarshal.
func (sl *slabs) item(data []byte) *triagev1.GroundTruthItem {
	it := &sl.items[0]
	sl.items = sl.items[1:]
	var id []byte
	for at := 0; at < len(data); {
		num, _, n := protowire.ConsumeTag(data[at:])
		at += n
		var m int
		switch num {
		case itemID:
			id, m = protowire.ConsumeBytes(data[at:])
		case itemCost:
			var v uint64
			v, m = protowire.ConsumeVarint(data[at:])
			it.Cost = int64(v)
		case itemCorrect:
			var v uint64
			v, m = protowire.ConsumeVarint(data[at:])
			it.Correct = protowire.DecodeBool(v)
		case itemValue:
			var v uint64
			v, m = protowire.ConsumeFixed64(data[at:])
			if it.Value == nil {
				it.Value = &sl.values[0]
				sl.values = sl.values[1:]
			}
			*it.Value = math.Float64frombits(v)
		}
		at += m
	}
	it.Id = cutID(&sl.itemIDs, id)
	return it
}

// step decodes a PlanStep scan checked.
func (sl *slabs) step(data []byte) *triagev1.PlanStep {
	st := &sl.steps[0]
	sl.steps = sl.steps[1:]
	var id []byte
	for at := 0; at < len(data); {
		num, _, n := protowire.ConsumeTag(data[at:])
		at += n
		var m int
		switch num {
		case stepID:
			id, m = protowire.ConsumeBytes(data[at:])
		case stepTokens:
			var v uint64
			v, m = protowire.ConsumeVarint(data[at:])
			st.Tokens = int64(v)
		}
		at += m
	}
	st.Id = cutID(&sl.stepIDs, id)
	return st
}

// scorePlansRequest decodes a batch whose every request scorePlanRequest
// decodes, or reports false with m untouched. Every request is scanned
// before any is decoded, so a batch declined for its last request costs a
// scan, not a decoding, before proto.Unmarshal decodes it; a request the
// scan passed can still be declined by proto.Unmarshal of its other fields.
func scorePlansRequest(data []byte, m *triagev1.ScorePlansRequest) bool {
	count := 0
	for at := 0; at < len(data); {
		num, typ, n := protowire.ConsumeTag(data[at:])
		if n < 0 || num != batchRequests || typ != protowire.BytesType {
			return false
		}
		_, k := protowire.ConsumeBytes(data[at+n:])
		if k < 0 {
			return false
		}
		count++
		at += n + k
	}
	if count == 0 {
		return true
	}
	// The first pass keeps no shape per request: a batch of many tiny
	// requests would cost more in shapes than in requests.
	for at := 0; at < len(data); {
		_, _, n := protowire.ConsumeTag(data[at:])
		body, k := protowire.ConsumeBytes(data[at+n:])
		if s := (shape{layout: poolAndPlan}); !s.scan(body) {
			return false
		}
		at += n + k
	}
	reqs := make([]triagev1.ScorePlanRequest, count)
	ptrs := make([]*triagev1.ScorePlanRequest, count)
	for i, at := 0, 0; at < len(data); i++ {
		_, _, n := protowire.ConsumeTag(data[at:])
		body, k := protowire.ConsumeBytes(data[at+n:])
		if !scorePlanRequest(body, &reqs[i]) {
			return false
		}
		ptrs[i] = &reqs[i]
		at += n + k
	}
	m.Requests = ptrs
	return true
}
