package rpclog

import (
	"io"
	"sync"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/internal/ordered"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

const (
	batchRecords = 256       // records per batch, at most
	batchBytes   = 256 << 10 // text per batch, about
)

// Batch is a run of consecutive records of a log, as Reader.Batches hands
// them on: read on one goroutine, decoded and classified on every core, in
// log order.
type Batch struct {
	Seq     int           // the batch's place in the log, from 0
	Records []BatchRecord // in log order
	Err     error         // the read error that ended the log after these records, or nil

	arena []byte        // the text of the records' lines
	typed []typedRecord // the records read typed, reused from batch to batch
	vouch []byte        // what the Voucher wrote for them
	lens  []uint16      // the Lens of the records decoded from lines
	pool  chan *Batch
}

// BatchRecord is one record of a Batch. Its Raw text is valid until the
// batch is given back with Done.
type BatchRecord struct {
	*Record
	// Message is the record's classification, when BatchOptions.Classify
	// asked for it and the record was read (Err is nil).
	Message jsonrpc.Message
	// Read is how many bytes of the (decompressed) log had been read once
	// this record was, for progress reporting.
	Read int64

	text []byte // the undecoded line (in the batch's arena), or nil
	line int
}

// BatchOptions say what Reader.Batches does to each record.
type BatchOptions struct {
	// Classify applies the JSON-RPC 2.0 rules (Classify) to each
	// message.
	Classify bool
	// Lazy names the members of message objects whose object or array
	// values are left undecoded: their text, checked, as a
	// jsonparse.Undecoded value. Classify looks at nothing but whether
	// they are there and whether they are objects or arrays.
	Lazy []string
	// Lens asks for the Lens of each record decoded with Lazy members:
	// where the strings, arrays and objects of its undecoded values end.
	Lens bool
	// Typed reads the lines of a JSON lines log that hold an ordinary
	// message straight into a jsonrpc.Object (Record.Object), with no map:
	// their Value is nil. Their Lazy members are left as text in the
	// Object (with their Lens when asked), as they would be undecoded. The
	// records (but Value) and classifications are the same as without it.
	// The records read typed are the batch's own: like their Raw texts,
	// they are reused once the batch is given back with Done.
	Typed bool
	// Vouch, with Typed and without Lens, makes a Voucher for each
	// decoding goroutine, which then reads the "params" and "result"
	// members of the messages read typed, those that Lazy names, in the
	// reader's place.
	Vouch func() Voucher
}

// A Voucher reads a JSON value in the reader's place, writing what it
// wants from it in the same pass.
type Voucher interface {
	// Vouch appends to dst what it writes for the JSON value that starts
	// at text[i], inside depth arrays and objects, and returns the offset
	// past the value. It reports ok only for a value that jsonparse's
	// Parser.Check, with maxDepth as its MaxDepth, takes with clean true:
	// the reader then does not check it, and the record's Vouched holds
	// what was appended. When ok is false, the reader checks the value.
	Vouch(dst, text []byte, i, depth, maxDepth int) (out []byte, end int, ok bool)
}

// Done gives the batch back once its records are no longer used: the Raw
// texts of its records and the batch itself are reused. A batch of the
// caller's own (see ReadBatch) is only emptied.
func (b *Batch) Done() {
	clear(b.Records)
	b.Records = b.Records[:0]
	if b.pool != nil {
		b.pool <- b
	}
}

// Batches reads r on one goroutine, decodes (and classifies) its records
// on every core, and sends them on the returned channel in batches, in log
// order; the channel is closed after the last batch. A fixed number of
// batches is in flight at any time, so memory does not grow with the log:
// the receiver gives each back with Done once finished with it. Closing
// stop ends the reading early: the channel is then closed without the
// batches still on their way. r must not be used otherwise while Batches
// reads it.
func (r *Reader) Batches(opts BatchOptions, stop <-chan struct{}) <-chan *Batch {
	n := 2*ordered.Workers() + 2
	pool := make(chan *Batch, n)
	for range n {
		pool <- &Batch{pool: pool}
	}
	read := make(chan *Batch, n)
	go r.readBatches(pool, read, stop)
	decoded := ordered.Map(ordered.Workers(), read, func() func(*Batch) { return r.BatchDecoder(opts) })
	out := make(chan *Batch, n)
	go func() {
		defer close(out)
		ordered.Reorder(decoded, func(b *Batch) int { return b.Seq }, func(b *Batch) bool {
			select {
			case out <- b:
				return true
			case <-stop:
				return false
			}
		})
	}()
	return out
}

// BatchDecoder returns a function that decodes (and classifies) the
// records of a batch ReadBatch filled, as opts says, as the decoding
// goroutines of Batches do. Each goroutine needs a decoder of its own.
func (r *Reader) BatchDecoder(opts BatchOptions) func(*Batch) {
	p := r.newParser()
	p.Lazy = opts.Lazy
	var v Voucher
	if opts.Typed && !opts.Lens && opts.Vouch != nil {
		v = opts.Vouch()
	}
	return func(b *Batch) { r.decodeBatch(p, b, opts.Classify, opts.Lens && opts.Lazy != nil, opts.Typed, v) }
}

// ReadBatch fills b, a batch of the caller's own (new(Batch) the first
// time, then reused), with the next records of r, as Batches' reading
// goroutine does, the lines of a JSON lines input undecoded for a
// BatchDecoder; seq is its place in the log. It reports false, with b
// empty, at the end of the log. A read error ends the batch, in b.Err,
// and the log: the calls after it report false. Calls must not overlap,
// and r must not be used otherwise meanwhile.
func (r *Reader) ReadBatch(b *Batch, seq int) bool {
	b.Seq, b.Records, b.arena, b.Err = seq, b.Records[:0], b.arena[:0], nil
	if r.batchErr {
		return false
	}
	for len(b.Records) < batchRecords && len(b.arena) < batchBytes {
		rec, text, line, err := r.nextText(b.arena)
		if err != nil {
			if err != io.EOF {
				b.Err, r.batchErr = err, true
			}
			break
		}
		br := BatchRecord{Record: rec, line: line, Read: r.BytesRead()}
		if rec == nil {
			br.text = text[len(b.arena):len(text):len(text)]
			b.arena = text
		} else if len(rec.Raw) > 0 {
			// Decoded while the reader found the log's form: its text
			// is in the reader's buffer, which the next lines reuse.
			start := len(b.arena)
			b.arena = append(b.arena, rec.Raw...)
			rec.Raw = b.arena[start:len(b.arena):len(b.arena)]
		}
		b.Records = append(b.Records, br)
	}
	return len(b.Records) > 0 || b.Err != nil
}

// Turns passes the reading of a log's batches, and their pairing, from
// goroutine to goroutine in log order, for goroutines that each take a
// batch of their own all the way (read, decode, pair, and what comes
// after), so that its text stays in one core's cache: reading and pairing
// (which depends on the records before) are the steps they take in turn.
type Turns struct {
	r       *Reader
	mu      sync.Mutex
	seq     int // the next batch's place in the log, under mu
	pairing *ordered.Turn
}

// Turns returns the turns of r's batches. r must not be used otherwise
// meanwhile.
func (r *Reader) Turns() *Turns { return &Turns{r: r, pairing: ordered.NewTurn()} }

// Read fills b, a batch of the caller's own, with the log's next batch
// (ReadBatch; b.Seq is its place in the log) and reports false at the end
// of the log.
func (t *Turns) Read(b *Batch) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.seq
	t.seq++
	return t.r.ReadBatch(b, k)
}

// Pair calls pair once every batch before b has been paired, then passes
// the turn on; once Stop has been called it reports false instead.
func (t *Turns) Pair(b *Batch, pair func()) bool {
	if !t.pairing.Wait(b.Seq) {
		return false
	}
	pair()
	t.pairing.Next()
	return true
}

// Stop ends the pairing: no batch is paired after it.
func (t *Turns) Stop() { t.pairing.Stop() }

// readBatches reads r into batches from pool and sends them on out, in
// order, until the log ends or stop is closed. The lines of a JSON lines
// input are left undecoded for the decoding stage.
func (r *Reader) readBatches(pool chan *Batch, out chan<- *Batch, stop <-chan struct{}) {
	defer close(out)
	for seq := 0; ; seq++ {
		var b *Batch
		select {
		case b = <-pool:
		case <-stop:
			return
		}
		if !r.ReadBatch(b, seq) {
			pool <- b
			return
		}
		select {
		case out <- b:
		case <-stop:
			return
		}
		if b.Err != nil {
			return
		}
	}
}

// decodeBatch decodes the lines of b with p, typed where it can with
// typed (the params and result read by v when it is not nil), and
// classifies the records when classify is set; with lens, it gives them
// their Lens.
func (r *Reader) decodeBatch(p *jsonparse.Parser, b *Batch, classify, lens, typed bool, v Voucher) {
	if lens {
		n := 0
		for i := range b.Records {
			n += len(b.Records[i].text)
		}
		if cap(b.lens) < n {
			b.lens = make([]uint16, n)
		}
		b.lens = b.lens[:n]
		clear(b.lens)
	}
	if typed && cap(b.typed) < len(b.Records) {
		b.typed = make([]typedRecord, len(b.Records))
	}
	b.vouch = b.vouch[:0]
	off := 0
	for i := range b.Records {
		br := &b.Records[i]
		if br.Record == nil {
			if lens {
				p.Lens = b.lens[off : off+len(br.text)]
				off += len(br.text)
			}
			if typed {
				br.Record = r.decodeTyped(p, br.text, br.line, lens, &b.typed[:len(b.Records)][i], v, &b.vouch)
			}
			if br.Record == nil {
				br.Record = r.decodeText(p, br.text, br.line)
			}
			if lens && br.Err == nil && len(br.Raw) > 0 {
				// Raw is part of the text: its lens are the same part.
				start := cap(br.text) - cap(br.Raw)
				if start >= 0 && start+len(br.Raw) <= len(br.text) && &br.text[start] == &br.Raw[0] {
					br.Lens = p.Lens[start : start+len(br.Raw)]
				}
			}
			p.Lens = nil
		}
		switch {
		case !classify || br.Err != nil:
		case typed && br.Record == &b.typed[:len(b.Records)][i].Record:
			// Classified as it was read.
			br.Message = b.typed[:len(b.Records)][i].msg
		default:
			// Classify takes an undecoded value for the object or array it is.
			br.Message = Classify(br.Record)
		}
	}
	if v != nil {
		// b.vouch has stopped moving: the records' Vouched point into it.
		for i := range b.Records {
			if tr := &b.typed[i]; b.Records[i].Record == &tr.Record {
				for k, sp := range tr.vouched {
					if sp.ok {
						tr.Vouched[k] = b.vouch[sp.start:sp.end:sp.end]
					}
				}
			}
		}
	}
}
