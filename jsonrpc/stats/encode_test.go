package stats

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// distOf returns a Dist of vs, added one by one.
func distOf(vs []float64) *Dist {
	d := &Dist{}
	for _, v := range vs {
		d.Add(v)
	}
	return d
}

// values returns n values drawn from a log-normal distribution, with some
// zeros and negative ones.
func values(seed int64, n int) []float64 {
	rng := rand.New(rand.NewSource(seed))
	vs := make([]float64, n)
	for i := range vs {
		v := math.Exp(rng.NormFloat64()*2) * 10
		switch i % 53 {
		case 0:
			v = 0
		case 1:
			v = -v
		}
		vs[i] = v
	}
	return vs
}

func roundTrip(t *testing.T, d *Dist) *Dist {
	t.Helper()
	data, err := d.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var out Dist
	if err := out.UnmarshalBinary(data); err != nil {
		t.Fatalf("decoding what MarshalBinary wrote: %v", err)
	}
	return &out
}

// TestDistRoundTrip: a decoded Dist summarises as the original, its
// percentiles are those of its values (exactly, or within SketchError),
// and two decoded Dists merge as the originals do.
func TestDistRoundTrip(t *testing.T) {
	big := values(1, 2*ExactLimit)
	tests := []struct {
		name string
		a, b []float64
	}{
		{"empty", nil, nil},
		{"one value and none", []float64{7.5}, nil},
		{"none and one value", nil, []float64{7.5}},
		{"small", []float64{5, -5, 0, 2, 2}, []float64{9, 1}},
		{"negative maximum", []float64{-3, -1}, []float64{-2}},
		{"exact, at the limit together", big[:ExactLimit/2], big[ExactLimit/2 : ExactLimit]},
		{"exact, past the limit together", big[:ExactLimit/2], big[ExactLimit/2 : ExactLimit+1]},
		{"sketch and exact", big[:ExactLimit+10], big[ExactLimit+10 : ExactLimit+100]},
		{"exact and sketch", big[:100], big[100 : ExactLimit+200]},
		{"two sketches", big[:ExactLimit+1], big[ExactLimit+1:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := distOf(tt.a), distOf(tt.b)
			da, db := roundTrip(t, a), roundTrip(t, b)
			for _, c := range []struct{ orig, dec *Dist }{{a, da}, {b, db}} {
				if got, want := c.dec.Summary(), c.orig.Summary(); got != want {
					t.Errorf("decoded %+v, original %+v", got, want)
				}
			}
			all := append(append([]float64(nil), tt.a...), tt.b...)
			sort.Float64s(all)
			a.Merge(b)
			da.Merge(db)
			got, want := da.Summary(), a.Summary()
			if got != want {
				t.Errorf("merge of decoded %+v, of originals %+v", got, want)
			}
			if got.Count != len(all) || got.Exact != (len(all) <= ExactLimit) {
				t.Errorf("count %d exact %v for %d values", got.Count, got.Exact, len(all))
			}
			if len(all) == 0 {
				return
			}
			if got.Max != all[len(all)-1] {
				t.Errorf("max %v, want %v", got.Max, all[len(all)-1])
			}
			for _, p := range []int{1, 50, 90, 99, 100} {
				want, q := nearestRank(all, p), da.Quantile(p)
				if got.Exact && q != want || math.Abs(q-want) > SketchError*math.Abs(want)+1e-12 {
					t.Errorf("p%d = %v, values give %v", p, q, want)
				}
			}
			// The merged Dists hold the same state: they encode alike.
			ea, _ := a.MarshalBinary()
			eda, _ := da.MarshalBinary()
			if got.Exact {
				// Exact values keep the order they were added in, and
				// Quantile sorted them; compare them as sets.
				sort.Float64s(a.vals)
				sort.Float64s(da.vals)
				ea, _ = a.MarshalBinary()
				eda, _ = da.MarshalBinary()
			}
			if !bytes.Equal(ea, eda) {
				t.Errorf("the merged Dists encode differently")
			}
		})
	}
}

// encode builds an encoding by hand: kind, count, maximum, then the rest.
func encode(kind byte, n uint64, max float64, rest ...[]byte) []byte {
	b := binary.AppendUvarint([]byte{kind}, n)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(max))
	for _, r := range rest {
		b = append(b, r...)
	}
	return b
}

func f64(vs ...float64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func uv(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

func sv(v int64) []byte { return binary.AppendVarint(nil, v) }

func TestDistUnmarshalBad(t *testing.T) {
	n := uint64(ExactLimit + 1)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"nothing", nil, "no data"},
		{"unknown kind", encode(3, 0, 0), "unknown kind"},
		{"no count", []byte{encExact}, "count"},
		{"no maximum", []byte{encExact, 1, 0, 0}, "truncated maximum"},
		{"NaN maximum", encode(encExact, 1, math.NaN(), f64(1)), "not finite"},
		{"too few values", encode(encExact, 2, 1, f64(1)), "for a count of 2"},
		{"too many values", encode(encExact, 1, 1, f64(1, 1)), "for a count of 1"},
		{"infinite value", encode(encExact, 1, 1, f64(math.Inf(1))), "not finite"},
		{"wrong maximum", encode(encExact, 2, 1, f64(1, 2)), "not the largest"},
		{"maximum without values", encode(encExact, 0, 1), "without values"},
		{"exact past the limit", encode(encExact, n, 1), "exact values"},
		{"small sketch", encode(encSketch, 3, 1, uv(3, 0, 0)), "a sketch of 3"},
		{"buckets short", encode(encSketch, n, 1, uv(1, 1), sv(0), uv(5), uv(0)), "not the count"},
		{"buckets over", encode(encSketch, n, 1, uv(n, 1), sv(0), uv(5), uv(0)), "more than the count"},
		{"empty bucket", encode(encSketch, n, 1, uv(n-1, 1), sv(0), uv(0), uv(0)), "empty bucket"},
		{"keys out of order", encode(encSketch, n, 1, uv(n-2, 2), sv(3), uv(1), sv(3), uv(1), uv(0)), "ascending"},
		{"key out of range", encode(encSketch, n, 1, uv(n-1, 1), sv(1<<20), uv(1), uv(0)), "out of range"},
		{"truncated key", encode(encSketch, n, 1, uv(n-1, 1)), "bucket key"},
		{"bytes left over", encode(encSketch, n, 1, uv(n, 0, 0), []byte{0}), "left over"},
		{"huge count", encode(encSketch, math.MaxUint64, 1), "too large"},
	}
	for _, tt := range tests {
		var d Dist
		err := d.UnmarshalBinary(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// TestStatsRoundTrip: Stats decoded from MarshalBinary print as the
// originals, empty members included, and add up as they do.
func TestStatsRoundTrip(t *testing.T) {
	log, err := os.ReadFile("testdata/pairing.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := collect(t, string(log), Options{Schema: "x"})
	a := c1.Stats()
	for _, v := range values(2, ExactLimit+5) {
		a.dist("sketched").Add(v)
	}
	c2, _ := collect(t, string(log)+"not JSON\n", Options{})
	b := c2.Stats()
	for _, v := range values(3, 40) {
		b.dist("sketched").Add(v)
	}
	for _, s := range []*Stats{NewStats(), a, b} {
		data, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got Stats
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		if g, w := toJSON(t, &got), toJSON(t, s); !reflect.DeepEqual(g, w) {
			t.Errorf("decoded\n%v\nwant\n%v", g, w)
		}
	}
	dec := func(s *Stats) *Stats {
		data, _ := s.MarshalBinary()
		out := &Stats{}
		if err := out.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want, got := NewStats(), NewStats()
	want.Add(a)
	want.Add(b)
	got.Add(dec(a))
	got.Add(dec(b))
	if g, w := toJSON(t, got), toJSON(t, want); !reflect.DeepEqual(g, w) {
		t.Errorf("total of decoded\n%v\nwant\n%v", g, w)
	}
	if l := got.Latency["sketched"].Summary(); l.Exact || l.Count != ExactLimit+45 {
		t.Errorf("sketched latency %+v", l)
	}
	if err := new(Stats).UnmarshalBinary([]byte("not gob")); err == nil {
		t.Error("no error for bytes that are not gob")
	}
}

// FuzzDistUnmarshal: any bytes decode without panic, and what decodes
// encodes back to bytes that decode to the same Dist.
func FuzzDistUnmarshal(f *testing.F) {
	for _, d := range []*Dist{distOf(nil), distOf([]float64{1, -2, 0}), distOf(values(4, ExactLimit+3))} {
		data, _ := d.MarshalBinary()
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Dist
		if d.UnmarshalBinary(data) != nil {
			return
		}
		sum := d.Summary()
		again, err := d.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var e Dist
		if err := e.UnmarshalBinary(again); err != nil {
			t.Fatalf("decoding the re-encoding: %v", err)
		}
		if e.Summary() != sum {
			t.Errorf("re-decoded %+v, decoded %+v", e.Summary(), sum)
		}
	})
}
