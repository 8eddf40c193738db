package stats

import (
	"math"
	"math/rand"
	"sort"
	"testing"
)

func TestQuantileByHand(t *testing.T) {
	tens := []float64{100, 90, 80, 70, 60, 50, 40, 30, 20, 10}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(100 - i)
	}
	tests := []struct {
		name   string
		values []float64
		p      int
		want   float64
	}{
		// Ranks: ceil(p*n/100).
		{"three, p50 rank 2", []float64{5, 1, 3}, 50, 3},
		{"three, p90 rank 3", []float64{5, 1, 3}, 90, 5},
		{"three, p1 rank 1", []float64{5, 1, 3}, 1, 1},
		{"ten, p50 rank 5", tens, 50, 50},
		{"ten, p90 rank 9", tens, 90, 90},
		{"ten, p99 rank 10", tens, 99, 100},
		{"ten, p10 rank 1", tens, 10, 10},
		{"ten, p11 rank 2", tens, 11, 20},
		{"hundred, p99 rank 99", hundred, 99, 99},
		{"hundred, p50 rank 50", hundred, 50, 50},
		{"one value", []float64{7.5}, 99, 7.5},
		{"negative and zero", []float64{5, -5, 0}, 50, 0},
		{"duplicates", []float64{2, 2, 2, 9}, 75, 2},
		{"empty", nil, 50, 0},
	}
	for _, tt := range tests {
		var d Dist
		for _, v := range tt.values {
			d.Add(v)
		}
		if got := d.Quantile(tt.p); got != tt.want || !d.Exact() {
			t.Errorf("%s: p%d = %v (exact %v), want %v", tt.name, tt.p, got, d.Exact(), tt.want)
		}
	}
}

func TestDistIgnoresNaN(t *testing.T) {
	var d Dist
	d.Add(math.NaN())
	d.Add(math.Inf(1))
	d.Add(3)
	if d.Count() != 1 || d.Max() != 3 {
		t.Errorf("count %d max %v", d.Count(), d.Max())
	}
}

// nearestRank is the nearest-rank percentile of sorted values, written
// apart from Dist.
func nearestRank(sorted []float64, p int) float64 {
	k := int(math.Ceil(float64(p) * float64(len(sorted)) / 100))
	if k < 1 {
		k = 1
	}
	return sorted[k-1]
}

// TestSketchBound: beyond ExactLimit values, every percentile is within
// SketchError of the exact one, and count and max stay exact.
func TestSketchBound(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var d, a, b Dist
	var all []float64
	for i := 0; i < 3*ExactLimit; i++ {
		v := math.Exp(rng.NormFloat64()*2) * 10 // log-normal, ms
		switch i % 97 {
		case 0:
			v = 0
		case 1:
			v = -v / 100 // clocks are not always monotonic
		}
		all = append(all, v)
		d.Add(v)
		if i%2 == 0 {
			a.Add(v)
		} else {
			b.Add(v)
		}
	}
	a.Merge(&b)
	sort.Float64s(all)
	for _, dist := range []*Dist{&d, &a} {
		if dist.Exact() || dist.Count() != len(all) || dist.Max() != all[len(all)-1] {
			t.Fatalf("exact %v, count %d, max %v", dist.Exact(), dist.Count(), dist.Max())
		}
		for _, p := range []int{1, 2, 10, 50, 90, 99, 100} {
			want := nearestRank(all, p)
			got := dist.Quantile(p)
			if math.Abs(got-want) > SketchError*math.Abs(want)+1e-12 {
				t.Errorf("p%d = %v, exact %v: off by %.3f%%", p, got, want, 100*math.Abs(got-want)/math.Abs(want))
			}
		}
	}
}

func TestMergeExact(t *testing.T) {
	var a, b, both Dist
	for i, v := range []float64{4, 8, 1, 6, 2, 9, 3} {
		both.Add(v)
		if i < 3 {
			a.Add(v)
		} else {
			b.Add(v)
		}
	}
	a.Merge(&b)
	a.Merge(nil)
	if a.Summary() != both.Summary() || !a.Exact() {
		t.Errorf("merged %+v, want %+v", a.Summary(), both.Summary())
	}
}
