package stats

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The encoding of a Dist (see Dist.MarshalBinary) starts with one of these.
const (
	encExact  = 1 // the values follow
	encSketch = 2 // the sketch's buckets follow
)

// maxBucketKey bounds the bucket keys a decoded sketch accepts: the keys of
// finite float64 values lie within ±37300 at SketchError 0.01.
const maxBucketKey = 1 << 16

// MarshalBinary encodes d so that UnmarshalBinary gives back a Dist that
// merges and summarises exactly as d: its count, its maximum, and its
// values while it is exact, its sketch's buckets after. Gob uses it, so
// Stats travel in gob too (see Stats.MarshalBinary).
//
// The encoding is a kind byte (1 exact, 2 sketch), the count as a uvarint,
// the maximum as 8 bytes (IEEE 754, little endian), then either each value
// as 8 bytes, or the count of zeros as a uvarint and the positive then the
// negative buckets, each as a uvarint number of buckets followed by (key as
// a varint, count as a uvarint) in ascending key order.
func (d *Dist) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 1+2*binary.MaxVarintLen64+8+8*len(d.vals))
	if d.sk == nil {
		b = append(b, encExact)
	} else {
		b = append(b, encSketch)
	}
	b = binary.AppendUvarint(b, uint64(d.n))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(d.max))
	if d.sk == nil {
		for _, v := range d.vals {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b, nil
	}
	b = binary.AppendUvarint(b, uint64(d.sk.zero))
	for _, m := range []map[int]int{d.sk.pos, d.sk.neg} {
		b = binary.AppendUvarint(b, uint64(len(m)))
		keys := make([]int, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = binary.AppendVarint(b, int64(k))
			b = binary.AppendUvarint(b, uint64(m[k]))
		}
	}
	return b, nil
}

// UnmarshalBinary sets d to the Dist data encodes (see MarshalBinary). It
// refuses an encoding that no Dist gives: a count that disagrees with the
// values or buckets, a value or maximum that is not finite, a maximum that
// is not the largest exact value, an exact Dist of more than ExactLimit
// values or a sketch of fewer, buckets out of order, bytes left over.
func (d *Dist) UnmarshalBinary(data []byte) error {
	nd, err := decodeDist(data)
	if err != nil {
		return fmt.Errorf("stats: decoding a latency distribution: %w", err)
	}
	*d = nd
	return nil
}

func decodeDist(data []byte) (Dist, error) {
	var d Dist
	if len(data) == 0 {
		return d, errors.New("no data")
	}
	kind, rest := data[0], data[1:]
	if kind != encExact && kind != encSketch {
		return d, fmt.Errorf("unknown kind %d", kind)
	}
	n, rest, err := uvarint(rest, "count")
	if err != nil {
		return d, err
	}
	if len(rest) < 8 {
		return d, errors.New("truncated maximum")
	}
	d.n = n
	d.max = math.Float64frombits(binary.LittleEndian.Uint64(rest))
	rest = rest[8:]
	if math.IsNaN(d.max) || math.IsInf(d.max, 0) {
		return d, errors.New("the maximum is not finite")
	}
	if kind == encExact {
		if n > ExactLimit {
			return d, fmt.Errorf("%d exact values, more than %d", n, ExactLimit)
		}
		if len(rest) != 8*n {
			return d, fmt.Errorf("%d bytes of values for a count of %d", len(rest), n)
		}
		d.vals = make([]float64, n)
		for i := range d.vals {
			v := math.Float64frombits(binary.LittleEndian.Uint64(rest[8*i:]))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return d, fmt.Errorf("value %d is not finite", i)
			}
			d.vals[i] = v
		}
		if n == 0 && d.max != 0 {
			return d, errors.New("a maximum without values")
		}
		if n > 0 && largest(d.vals) != d.max {
			return d, errors.New("the maximum is not the largest value")
		}
		return d, nil
	}
	if n <= ExactLimit {
		return d, fmt.Errorf("a sketch of %d values, not more than %d", n, ExactLimit)
	}
	d.sk = newSketch()
	zero, rest, err := uvarint(rest, "count of zeros")
	if err != nil {
		return d, err
	}
	d.sk.zero = zero
	total := zero
	for _, m := range []map[int]int{d.sk.pos, d.sk.neg} {
		var buckets int
		if buckets, rest, err = uvarint(rest, "number of buckets"); err != nil {
			return d, err
		}
		prev := math.MinInt
		for range buckets {
			k, l := binary.Varint(rest)
			if l <= 0 {
				return d, errors.New("truncated or overlong bucket key")
			}
			rest = rest[l:]
			if k < -maxBucketKey || k > maxBucketKey {
				return d, fmt.Errorf("bucket key %d out of range", k)
			}
			if int(k) <= prev {
				return d, errors.New("bucket keys not in ascending order")
			}
			prev = int(k)
			var c int
			if c, rest, err = uvarint(rest, "bucket count"); err != nil {
				return d, err
			}
			if c == 0 {
				return d, errors.New("an empty bucket")
			}
			if total += c; total > n {
				return d, fmt.Errorf("buckets hold more than the count of %d", n)
			}
			m[int(k)] = c
		}
	}
	if len(rest) > 0 {
		return d, fmt.Errorf("%d bytes left over", len(rest))
	}
	if total != n {
		return d, fmt.Errorf("buckets hold %d values, not the count of %d", total, n)
	}
	return d, nil
}

// uvarint reads a uvarint that fits an int.
func uvarint(b []byte, what string) (int, []byte, error) {
	v, l := binary.Uvarint(b)
	if l <= 0 {
		return 0, nil, fmt.Errorf("truncated or overlong %s", what)
	}
	if v > math.MaxInt {
		return 0, nil, fmt.Errorf("%s %d too large", what, v)
	}
	return int(v), b[l:], nil
}

func largest(vs []float64) float64 {
	m := vs[0]
	for _, v := range vs[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// statsGob is Stats without its methods, for gob.
type statsGob Stats

// MarshalBinary encodes s in gob, with each latency distribution in full
// (Dist.MarshalBinary), so that the Stats UnmarshalBinary gives back add up
// (Add) and print exactly as s: this is how Stats travel between the
// workers of a distributed run.
func (s *Stats) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode((*statsGob)(s)); err != nil {
		return nil, fmt.Errorf("stats: encoding: %w", err)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary sets s to the Stats data encodes (see MarshalBinary).
// Its maps are never nil, as those of NewStats.
func (s *Stats) UnmarshalBinary(data []byte) error {
	ns := NewStats()
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode((*statsGob)(ns)); err != nil {
		return fmt.Errorf("stats: decoding: %w", err)
	}
	for k, m := range ns.Kinds {
		if m == nil {
			ns.Kinds[k] = map[string]int{}
		}
	}
	for _, p := range ns.Pairing {
		if p == nil {
			return errors.New("stats: decoding: empty pairing")
		}
	}
	for _, t := range ns.Tools {
		if t == nil {
			return errors.New("stats: decoding: empty tool")
		}
	}
	for _, d := range ns.Latency {
		if d == nil {
			return errors.New("stats: decoding: empty latency")
		}
	}
	if ns.Errors == nil {
		ns.Errors = []ErrorCount{}
	}
	if ns.Validation.Problems == nil {
		ns.Validation.Problems = []ProblemCount{}
	}
	*s = *ns
	return nil
}
