package convert

// The conversion pipeline: on every core, a goroutine takes a log's next
// batch of lines and takes it all the way to its text (see
// convertRecords); pairing and writing pass from batch to batch in log
// order.

import (
	"errors"
	"fmt"
	"sync"

	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/internal/ordered"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
)

// item is what the conversion adds to one record of a batch.
type item struct {
	pos     int
	pairing Pairing

	triples []rdf.Triple // for sinks that do not take formatted text
	out     []byte       // the formatted statements (in the batch's out)
	notices []diag.Diagnostic
	err     error // the record cannot be converted: reported, skipped
	werr    error // formatting failed: ends the conversion
}

// batch is a batch of records on its way through the conversion.
type batch struct {
	*rpclog.Batch
	items []item      // one per record
	out   []byte      // the items' formatted text, one after another, in order
	home  chan *batch // where the batch goes once written
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

// arenaKeep is the most a worker's arena keeps from one message to the
// next: a larger one, made for a large message, is let go.
const arenaKeep = 1 << 20

// convertRecords converts the records of log l with g into out. Each of
// ordered.Workers() goroutines takes the log's next batch of lines in
// turn and takes it all the way: decodes it, pairs its records once the
// batch before has been paired (pairing is the only step that depends on
// the records before), maps and formats them, and queues them for
// writing. Whoever queues the batch whose turn it is writes it, with its
// reports, and the queued ones after it, so that no goroutine waits to
// write. So a batch's text, from its lines to its Turtle, stays in one
// core's cache rather than going from core to core between stages. Each
// goroutine has two batches of its own, reused once written, so that
// memory does not grow with the log.
func (c *Converter) convertRecords(out sink, l Log, g *LogGraph) error {
	fs, formats := out.(formattingSink)
	// Ordinary messages are read typed, with no map, when the workers
	// format their triples (a typed record's strings, a response's id and
	// the time, and strings of params, live in the batch, which is reused
	// once written, so triples that a sink keeps must not hold them) and
	// the plan maps params and result from their text (else they would be
	// checked, then decoded: read twice).
	lazy := g.mapping.lazyKeys()
	typed := formats && g.mapping.typedRead() && !c.untyped
	// The voucher writes the rdf:JSON literals' text of those of params
	// and result that are @json terms as it reads them.
	opts := rpclog.BatchOptions{Classify: true, Lazy: lazy, Typed: typed}
	if typed && len(lazy) > 0 {
		opts.Vouch = func() rpclog.Voucher { return new(voucher) }
	}

	turns := l.Reader.Turns()
	pos := 0 // the records paired so far, by the pairing turn's holder
	var (
		wmu       sync.Mutex
		pending   = map[int]*batch{} // formatted batches waiting for their turn to be written
		nextWrite int
		writer    bool                  // a goroutine is writing the pending batches in turn
		runErr    error                 // why a batch could not be written: nothing after it is
		done      = make(chan struct{}) // closed when runErr is set
	)
	work := func() {
		decode := l.Reader.BatchDecoder(opts)
		var format rdf.Formatter
		if formats {
			format = fs.formatter()
		}
		var scratch []rdf.Triple
		var arena []byte            // the lexical forms of one message's rdf:JSON literals
		own := make(chan *batch, 2) // this goroutine's batches not queued for writing
		for range 2 {
			own <- &batch{Batch: new(rpclog.Batch), home: own}
		}
		for {
			var b *batch
			select {
			case b = <-own:
			case <-done:
				return
			}
			if !turns.Read(b.Batch) {
				return
			}
			decode(b.Batch)
			if cap(b.items) < len(b.Records) {
				b.items = make([]item, len(b.Records))
			}
			b.items = b.items[:len(b.Records)]

			paired := turns.Pair(b.Batch, func() {
				for i := range b.Records {
					r := &b.Records[i]
					pos++
					b.items[i].pos = pos
					if r.Kept() {
						b.items[i].pairing = g.pair(r.Record, pos, r.Message)
					}
				}
			})
			if !paired {
				return
			}

			c.mapBatch(b, g, formats, format, &scratch, &arena)

			// Reports and writing, in order: queued, and written by
			// whoever queues the batch whose turn it is, with the
			// queued ones after it.
			wmu.Lock()
			pending[b.Seq] = b
			if writer {
				wmu.Unlock()
				continue
			}
			writer = true
			for runErr == nil {
				w, ok := pending[nextWrite]
				if !ok {
					break
				}
				delete(pending, nextWrite)
				wmu.Unlock()
				err := c.writeBatch(out, fs, formats, l, w)
				if err == nil && w.Err != nil {
					err = fmt.Errorf("%s: %w", l.File, w.Err)
				}
				clear(w.items)
				w.Done()
				w.home <- w
				wmu.Lock()
				nextWrite++
				if err != nil {
					// Nothing after it is paired or written.
					runErr = err
					turns.Stop()
					close(done)
				}
			}
			writer = false
			wmu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range ordered.Workers() {
		wg.Go(work)
	}
	wg.Wait()
	return runErr
}

// mapBatch maps the records of b, paired, and with formats formats their
// triples with format into b.out (each item's text in it, in order), else
// keeps them in the items; scratch and arena are the worker's.
func (c *Converter) mapBatch(b *batch, g *LogGraph, formats bool, format rdf.Formatter, scratch *[]rdf.Triple, arena *[]byte) {
	b.out = b.out[:0]
	for i := range b.items {
		it, r := &b.items[i], &b.Records[i]
		if !r.Kept() {
			continue
		}
		var triples []rdf.Triple
		var ap *[]byte
		if formats {
			// The triples are formatted before the next message's are
			// built: they may hold strings in the arena.
			if cap(*arena) > arenaKeep {
				*arena = nil
			}
			*arena, ap = (*arena)[:0], arena
		}
		triples, it.notices, it.err = g.build((*scratch)[:0], r.Record, it.pos, r.Message, it.pairing, !formats, ap)
		if !formats {
			it.triples = triples
			continue
		}
		*scratch = triples
		start := len(b.out)
		var werr error
		b.out, werr = format(b.out, triples)
		if errors.Is(werr, rdf.ErrInvalidTerm) {
			// A value of the message made a term no writer takes: built
			// again, leaving such statements out.
			*arena = (*arena)[:0]
			triples, it.notices, it.err = g.build((*scratch)[:0], r.Record, it.pos, r.Message, it.pairing, true, ap)
			*scratch = triples
			b.out, werr = format(b.out[:start], triples)
		}
		it.werr = werr
		it.out = b.out[start:len(b.out):len(b.out)]
	}
	// The items' text is in b.out, whose array may have moved while it
	// grew.
	off := 0
	for i := range b.items {
		it := &b.items[i]
		k := len(it.out)
		it.out = b.out[off : off+k : off+k]
		off += k
	}
}

// Skipped returns the notice that rec, a record of the log file that could
// not be read (its Err is set), is left out of the conversion.
func Skipped(file string, rec *rpclog.Record) diag.Diagnostic {
	d := diag.Diagnostic{File: file, Line: rec.Line, Code: jsonrpc.CodeParseError, Severity: diag.Error, Message: rec.Err.Error()}
	var re *diag.Diagnostic
	if errors.As(rec.Err, &re) {
		d = *re
	}
	d.Message = "skipped: " + d.Message
	return d
}

// writeBatch reports and writes the records of a batch in order, as
// convertLog always has: notices, then the reason a record is skipped
// (which stops a strict run), then its triples. The formatted text of the
// records is contiguous in b.out, in order: it is handed to the writer in
// runs, one for the whole batch unless a record stops the conversion, so
// that a batch's text is written at once rather than copied into the
// writer's buffer record by record.
func (c *Converter) writeBatch(out sink, fs formattingSink, formats bool, l Log, b *batch) error {
	written, end := 0, 0 // b.out[written:end] is the run not yet written
	line := 0            // the line of the run's last record
	flush := func() error {
		if end == written {
			return nil
		}
		err := fs.writeFormatted(b.out[written:end])
		written = end
		if err != nil {
			return fmt.Errorf("%s:%d: %w", l.File, line, err)
		}
		return nil
	}
	for i := range b.items {
		it, rec := &b.items[i], &b.Records[i]
		if !rec.Kept() {
			c.report(Skipped(l.File, rec.Record))
			if c.Strict {
				if err := flush(); err != nil {
					return err
				}
				return fmt.Errorf("%s:%d: %w", l.File, rec.Line, ErrStrict)
			}
			continue
		}
		for _, n := range it.notices {
			n.File, n.Line = l.File, rec.Line
			c.report(n)
		}
		if it.err != nil {
			c.report(diag.Diagnostic{File: l.File, Line: rec.Line, Code: jsonrpc.CodeInvalidRequest, Severity: diag.Error, Message: "skipped: " + it.err.Error()})
			if c.Strict {
				if err := flush(); err != nil {
					return err
				}
				return fmt.Errorf("%s:%d: %w", l.File, rec.Line, ErrStrict)
			}
		}
		var err error
		switch {
		case it.werr != nil:
			if err := flush(); err != nil {
				return err
			}
			err = it.werr
		case formats:
			end += len(it.out)
			line = rec.Line
		default:
			err = out.Write(it.triples)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", l.File, rec.Line, err)
		}
		c.progress(rec.Read)
	}
	return flush()
}

func (c *Converter) progress(read int64) {
	if c.Progress != nil {
		c.Progress(read)
	}
}
