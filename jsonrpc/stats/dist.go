package stats

import (
	"encoding/json"
	"math"
	"sort"
)

// ExactLimit is how many values a Dist keeps exactly. Beyond it, the values
// move into a log-bucketed sketch and quantiles carry a relative error of at
// most SketchError.
const ExactLimit = 1 << 16

// SketchError is the relative error bound of the quantiles of a Dist that
// holds more than ExactLimit values: the reported value v of a quantile whose
// exact value is x satisfies |v-x| <= SketchError*|x|.
const SketchError = 0.01

// Dist is a distribution of values (latencies in milliseconds). Its memory is
// bounded whatever the number of values: they are kept exactly up to
// ExactLimit, then folded into buckets whose bounds grow geometrically by
// (1+SketchError)/(1-SketchError). Count and Max are always exact.
type Dist struct {
	n      int
	max    float64
	vals   []float64 // the values, while sk is nil
	sorted bool
	sk     *sketch
}

// Add records one value. NaN and infinities are ignored.
func (d *Dist) Add(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if d.n == 0 || v > d.max {
		d.max = v
	}
	d.n++
	if d.sk != nil {
		d.sk.add(v, 1)
		return
	}
	d.vals = append(d.vals, v)
	d.sorted = false
	if len(d.vals) > ExactLimit {
		d.fold()
	}
}

// Merge adds the values of o to d.
func (d *Dist) Merge(o *Dist) {
	if o == nil || o.n == 0 {
		return
	}
	if d.n == 0 || o.max > d.max {
		d.max = o.max
	}
	d.n += o.n
	if d.sk == nil && o.sk == nil && len(d.vals)+len(o.vals) <= ExactLimit {
		d.vals = append(d.vals, o.vals...)
		d.sorted = false
		return
	}
	if d.sk == nil {
		d.fold()
	}
	for _, v := range o.vals {
		d.sk.add(v, 1)
	}
	if o.sk != nil {
		d.sk.merge(o.sk)
	}
}

// fold moves the exact values into a sketch.
func (d *Dist) fold() {
	d.sk = newSketch()
	for _, v := range d.vals {
		d.sk.add(v, 1)
	}
	d.vals = nil
}

// Count returns the number of values.
func (d *Dist) Count() int { return d.n }

// Max returns the largest value, 0 when there is none.
func (d *Dist) Max() float64 { return d.max }

// Exact reports whether the quantiles are exact (at most ExactLimit values).
func (d *Dist) Exact() bool { return d.sk == nil }

// Quantile returns the p-th percentile (0 < p <= 100) by the nearest-rank
// method: the smallest value v such that at least p% of the values are <= v,
// that is the value of rank ceil(p*n/100) in ascending order. It returns 0
// for an empty Dist.
func (d *Dist) Quantile(p int) float64 {
	if d.n == 0 {
		return 0
	}
	r := rank(p, d.n)
	if d.sk != nil {
		return math.Min(d.sk.valueAt(r), d.max)
	}
	if !d.sorted {
		sort.Float64s(d.vals)
		d.sorted = true
	}
	return d.vals[r-1]
}

// rank returns the nearest rank of the p-th percentile among n values:
// ceil(p*n/100), at least 1.
func rank(p, n int) int {
	r := (p*n + 99) / 100
	if r < 1 {
		r = 1
	}
	if r > n {
		r = n
	}
	return r
}

// Latency is the summary of a Dist that stats reports, in milliseconds.
type Latency struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
	Exact bool    `json:"exact"` // false when the percentiles come from the sketch
}

// Summary returns the count, percentiles and maximum of d.
func (d *Dist) Summary() Latency {
	return Latency{Count: d.n, P50: d.Quantile(50), P90: d.Quantile(90), P99: d.Quantile(99), Max: d.max, Exact: d.Exact()}
}

// MarshalJSON writes d as its Summary.
func (d *Dist) MarshalJSON() ([]byte, error) { return json.Marshal(d.Summary()) }

// sketch counts values in buckets ((γ^(k-1), γ^k] for positive values, the
// mirror image for negative ones), so that the middle of a bucket is within
// SketchError of every value in it.
type sketch struct {
	pos, neg map[int]int
	zero     int
	lnGamma  float64
}

func newSketch() *sketch {
	gamma := (1 + SketchError) / (1 - SketchError)
	return &sketch{pos: map[int]int{}, neg: map[int]int{}, lnGamma: math.Log(gamma)}
}

func (s *sketch) key(v float64) int { return int(math.Ceil(math.Log(v) / s.lnGamma)) }

// value returns the representative of bucket k: 2γ^k/(γ+1), whose relative
// distance to both ends of the bucket is SketchError.
func (s *sketch) value(k int) float64 {
	g := math.Exp(s.lnGamma)
	return 2 * math.Exp(float64(k)*s.lnGamma) / (g + 1)
}

func (s *sketch) add(v float64, n int) {
	switch {
	case v > 0:
		s.pos[s.key(v)] += n
	case v < 0:
		s.neg[s.key(-v)] += n
	default:
		s.zero += n
	}
}

func (s *sketch) merge(o *sketch) {
	for k, n := range o.pos {
		s.pos[k] += n
	}
	for k, n := range o.neg {
		s.neg[k] += n
	}
	s.zero += o.zero
}

// valueAt returns the representative of the value of the given rank (from 1).
func (s *sketch) valueAt(rank int) float64 {
	keys := make([]int, 0, len(s.neg))
	for k := range s.neg {
		keys = append(keys, k)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(keys))) // most negative first
	seen := 0
	for _, k := range keys {
		if seen += s.neg[k]; seen >= rank {
			return -s.value(k)
		}
	}
	if seen += s.zero; seen >= rank {
		return 0
	}
	keys = keys[:0]
	for k := range s.pos {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var last float64
	for _, k := range keys {
		last = s.value(k)
		if seen += s.pos[k]; seen >= rank {
			return last
		}
	}
	return last
}
