package convert

// The conversion pipeline: a log is read in batches of lines on one
// goroutine, decoded on every core, paired in order (the only part that
// depends on the records before), mapped and serialised on every core
// again, and written in order. A fixed number of batches is in flight at
// any time, so memory does not grow with the log.

import (
	"fmt"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"io"
	"runtime"
	"sync"

	"github.com/jrpcld/jrpcld/rdf"
)

const (
	batchRecords = 256       // records per batch, at most
	batchBytes   = 256 << 10 // text per batch, about
)

// pitem is one record on its way through the pipeline.
type pitem struct {
	rec  *Record
	text []byte // the undecoded line (in the batch's arena), or nil
	line int
	read int64 // bytes of the log read once this record was

	msg     jsonrpc.Message
	pos     int
	pairing pairing

	triples []rdf.Triple // for sinks that do not take formatted text
	out     []byte       // the formatted statements (in the batch's out)
	notices []Notice
	err     error // the record cannot be converted: reported, skipped
	werr    error // formatting failed: ends the conversion
}

// pbatch is a batch of consecutive records.
type pbatch struct {
	seq   int
	items []pitem
	arena []byte
	out   []byte
	err   error // the read error that ended the log after the items
}

// batchPool recycles batches, whose buffers keep their capacity.
type batchPool struct{ free chan *pbatch }

func newBatchPool(n int) *batchPool {
	p := &batchPool{free: make(chan *pbatch, n)}
	for i := 0; i < n; i++ {
		p.free <- &pbatch{}
	}
	return p
}

// reorder hands batches on in sequence order, whatever order they come in.
type reorder struct {
	next    int
	pending map[int]*pbatch
}

func (r *reorder) add(b *pbatch, emit func(*pbatch) bool) bool {
	if r.pending == nil {
		r.pending = map[int]*pbatch{}
	}
	r.pending[b.seq] = b
	for {
		b, ok := r.pending[r.next]
		if !ok {
			return true
		}
		delete(r.pending, r.next)
		r.next++
		if !emit(b) {
			return false
		}
	}
}

// workers is the number of goroutines a parallel stage runs on.
func workers() int { return max(1, runtime.GOMAXPROCS(0)) }

// readBatches reads r into batches from pool and sends them on out, in
// order, until the log ends or stop is closed. With decode, the lines of a
// JSON lines input are left undecoded for the workers.
func readBatches(r *Reader, pool *batchPool, out chan<- *pbatch, stop <-chan struct{}) {
	defer close(out)
	for seq := 0; ; seq++ {
		var b *pbatch
		select {
		case b = <-pool.free:
		case <-stop:
			return
		}
		b.seq, b.items, b.arena, b.out, b.err = seq, b.items[:0], b.arena[:0], b.out[:0], nil
		for len(b.items) < batchRecords && len(b.arena) < batchBytes {
			rec, text, line, err := r.nextText(b.arena)
			if err != nil {
				if err != io.EOF {
					b.err = err
				}
				break
			}
			it := pitem{rec: rec, line: line, read: r.BytesRead()}
			if rec == nil {
				it.text = text[len(b.arena):len(text):len(text)]
				b.arena = text
			}
			b.items = append(b.items, it)
		}
		if len(b.items) == 0 && b.err == nil {
			pool.free <- b
			return
		}
		select {
		case out <- b:
		case <-stop:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// decodeBatches decodes the lines of the batches from in and classifies
// the records when classify is set, on every core; the batches go to out
// in any order. The values of the lazy members of messages are left
// undecoded (see jsonParser.lazy).
func decodeBatches(r *Reader, in <-chan *pbatch, out chan<- *pbatch, classify bool, lazy []string) {
	var wg sync.WaitGroup
	for w := 0; w < workers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := r.newParser()
			p.lazy = lazy
			for b := range in {
				for i := range b.items {
					it := &b.items[i]
					var lazies []lazyRef
					if it.rec == nil {
						it.rec = r.decodeText(p, it.text, it.line)
						lazies = p.lazies
					}
					if classify && it.rec.Err == nil {
						it.msg = classifyLazy(it.rec.Value, lazies)
					}
				}
				out <- b
			}
		}()
	}
	wg.Wait()
	close(out)
}

// Stand-ins for undecoded values, never changed.
var (
	emptyObject = map[string]any{}
	emptyArray  = []any{}
)

// classifyLazy classifies a message whose undecoded values are lazies. The
// only lazy members are "params" and "result", of which jsonrpc.Classify
// looks at nothing but whether they are there and whether params is an
// object or an array: it sees an empty one in their place.
func classifyLazy(v any, lazies []lazyRef) jsonrpc.Message {
	for _, l := range lazies {
		if l.v[0] == '{' {
			l.m[l.k] = emptyObject
		} else {
			l.m[l.k] = emptyArray
		}
	}
	m := jsonrpc.Classify(v)
	for _, l := range lazies {
		l.m[l.k] = l.v
	}
	return m
}

// orderedRecords runs the reading and decoding of r on every core and
// calls fn with each batch, in order, on the calling goroutine. When fn
// returns false the run stops. It returns the read error that ended the
// log, if any.
func orderedRecords(r *Reader, classify bool, fn func(*pbatch) bool) error {
	n := 2*workers() + 2
	pool := newBatchPool(n)
	stop := make(chan struct{})
	read := make(chan *pbatch, n)
	decoded := make(chan *pbatch, n)
	go readBatches(r, pool, read, stop)
	go decodeBatches(r, read, decoded, classify, nil)
	var ro reorder
	var readErr error
	going := true
	for b := range decoded {
		if !going {
			continue // drain
		}
		going = ro.add(b, func(b *pbatch) bool {
			if !fn(b) {
				close(stop)
				return false
			}
			readErr = b.err
			pool.free <- b
			return true
		})
	}
	return readErr
}

// formattingSink is a sink whose groups workers can format: each gets its
// own formatter, and the sink writes the text in order.
type formattingSink interface {
	sink
	formatter() rdf.Formatter
	writeFormatted(b []byte) error
}

func (s *groupSink) formatter() rdf.Formatter      { return s.w.Formatter() }
func (s *groupSink) writeFormatted(b []byte) error { return s.w.WriteFormatted(b) }
func (s *quadSink) formatter() rdf.Formatter       { return s.w.Formatter(s.graph) }
func (s *quadSink) writeFormatted(b []byte) error  { return s.w.WriteFormatted(b) }

// convertRecords converts the records of log l with g into out: reading
// and decoding, then mapping and formatting, run on every core; pairing,
// reports and writing run in order on the calling goroutine.
func (c *Converter) convertRecords(out sink, l Log, g *LogGraph) error {
	fs, formats := out.(formattingSink)
	n := 2*workers() + 2
	pool := newBatchPool(n)
	stop := make(chan struct{})
	read := make(chan *pbatch, n)
	decoded := make(chan *pbatch, n)
	paired := make(chan *pbatch, n)
	built := make(chan *pbatch, n)
	go readBatches(l.Reader, pool, read, stop)
	go decodeBatches(l.Reader, read, decoded, true, g.mapping.lazyKeys())

	// Pairing, in order.
	go func() {
		defer close(paired)
		var ro reorder
		pos := 0
		going := true
		for b := range decoded {
			if !going {
				continue
			}
			going = ro.add(b, func(b *pbatch) bool {
				for i := range b.items {
					it := &b.items[i]
					pos++
					it.pos = pos
					if it.rec.Err == nil {
						it.pairing = g.pair(it.rec, pos, it.msg)
					}
				}
				select {
				case paired <- b:
					return true
				case <-stop:
					return false
				}
			})
		}
	}()

	// Mapping and formatting, on every core.
	var wg sync.WaitGroup
	for w := 0; w < workers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var format rdf.Formatter
			if formats {
				format = fs.formatter()
			}
			var scratch []rdf.Triple
			for b := range paired {
				for i := range b.items {
					it := &b.items[i]
					if it.rec.Err != nil {
						continue
					}
					var triples []rdf.Triple
					triples, it.notices, it.err = g.build(scratch[:0], it.rec, it.pos, it.msg, it.pairing)
					if !formats {
						it.triples = triples
						continue
					}
					scratch = triples
					start := len(b.out)
					b.out, it.werr = format(b.out, triples)
					it.out = b.out[start:len(b.out):len(b.out)]
				}
				// The items' text is in b.out, whose array may have
				// moved while it grew.
				off := 0
				for i := range b.items {
					it := &b.items[i]
					k := len(it.out)
					it.out = b.out[off : off+k : off+k]
					off += k
				}
				built <- b
			}
		}()
	}
	go func() {
		wg.Wait()
		close(built)
	}()

	// Reports and writing, in order.
	var ro reorder
	var runErr error
	going := true
	for b := range built {
		if !going {
			continue // drain
		}
		going = ro.add(b, func(b *pbatch) bool {
			if err := c.writeBatch(out, fs, formats, l, b); err != nil {
				runErr = err
				close(stop)
				return false
			}
			if b.err != nil {
				runErr = fmt.Errorf("%s: %w", l.File, b.err)
				return false
			}
			for i := range b.items {
				b.items[i] = pitem{}
			}
			pool.free <- b
			return true
		})
	}
	return runErr
}

// writeBatch reports and writes the records of a batch in order, as
// convertLog always has: notices, then the reason a record is skipped
// (which stops a strict run), then its triples.
func (c *Converter) writeBatch(out sink, fs formattingSink, formats bool, l Log, b *pbatch) error {
	for i := range b.items {
		it := &b.items[i]
		rec := it.rec
		if rec.Err != nil {
			c.report(Issue{File: l.File, Line: rec.Line, Message: rec.Err.Error(), Skipped: true})
			if c.Strict {
				return fmt.Errorf("%s:%d: %w", l.File, rec.Line, ErrStrict)
			}
			continue
		}
		for _, n := range it.notices {
			c.report(Issue{File: l.File, Line: rec.Line, Pointer: n.Pointer, Message: n.Message})
		}
		if it.err != nil {
			c.report(Issue{File: l.File, Line: rec.Line, Message: it.err.Error(), Skipped: true})
			if c.Strict {
				return fmt.Errorf("%s:%d: %w", l.File, rec.Line, ErrStrict)
			}
		}
		var err error
		switch {
		case it.werr != nil:
			err = it.werr
		case formats:
			if len(it.out) > 0 {
				err = fs.writeFormatted(it.out)
			}
		default:
			err = out.Write(it.triples)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", l.File, rec.Line, err)
		}
		c.progress(it.read)
	}
	return nil
}

func (c *Converter) progress(read int64) {
	if c.Progress != nil {
		c.Progress(read)
	}
}
