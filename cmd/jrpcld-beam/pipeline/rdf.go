package pipeline

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/convert"
	"github.com/jrpcld/jrpcld/diag"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

func init() {
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(split), func(split), error](&planFn{})
	register.Emitter1[split]()
	register.DoFn2x1[context.Context, split, error](&wholeFn{})
	register.DoFn4x1[context.Context, split, func(string, splitInfo), func(string, []entry), error](&countFn{})
	register.Emitter2[string, splitInfo]()
	register.Emitter2[string, []entry]()
	register.DoFn3x1[string, func(*splitInfo) bool, func(place), error](&placeFn{})
	register.Iter1[splitInfo]()
	register.Emitter1[place]()
	register.DoFn4x1[string, func(*[]entry) bool, func(*place) bool, func(string, []note), error](&pairFn{})
	register.Iter1[[]entry]()
	register.Iter1[place]()
	register.Emitter2[string, []note]()
	register.Function1x2[place, string, []note](markSplit)
	register.DoFn4x1[context.Context, string, func(*[]note) bool, func(*place) bool, error](&buildFn{})
	register.Iter1[[]note]()
}

// DefaultSplitBytes is the size past which a JSON lines log is read in
// byte ranges of about that size by several workers.
const DefaultSplitBytes = 64 << 20

// RDFOptions configure RDF.
type RDFOptions struct {
	// Input is a glob of log files on any Beam filesystem (a local path,
	// gs://, s3://, ...). Each file is one log; a gzip-compressed one is
	// recognised by its content, as the command line does.
	Input string
	// Output is the prefix of the files written: one per part of a log,
	// PREFIX-LLLLLLLLLLLLLLLL-SSSSS.nq (see OutputName).
	Output string
	// SplitBytes is the size past which a JSON lines log is read in
	// parts of about that many bytes, each by its own worker;
	// DefaultSplitBytes when 0. Any other log is read whole by one
	// worker.
	SplitBytes int64
	// BBlock and ID choose the building block as jrpcld's --bblock and
	// --id do; empty for the embedded JSON-RPC 2.0 block. The folder must
	// be readable where the workers run.
	BBlock, ID string
	// Engine is the mapping engine: "compiled" (the default when empty)
	// or "json-gold".
	Engine string
	// Base, when set, is the IRI of the log, as jrpcld rdf --base: the
	// log's IRI when the glob matches one file (when the pipeline is
	// made), else a prefix to which each file's name is added.
	Base string
	// ContextMap maps a context the block's context names (by URL or
	// path) to a local file, as jrpcld's --context-map URL=FILE.
	ContextMap map[string]string
	// Imports are local copies of the registers the block's register
	// imports, as jrpcld's --import URL=DIR.
	Imports []string
}

// OutputName returns the name of the file that holds the statements of
// part index (from 0) of the log whose IRI is iri, written with prefix:
// PREFIX-LLLLLLLLLLLLLLLL-SSSSS.nq, L being a hash of the IRI. A log
// read whole has part 0 only.
func OutputName(prefix, iri string, index int) string {
	h := fnv.New64a()
	io.WriteString(h, iri)
	return fmt.Sprintf("%s-%016x-%05d.nq", prefix, h.Sum64(), index)
}

// LogIRI returns the IRI a log read from path is given: the file: URL of a
// local path, as "jrpcld rdf" gives it without --base, and the path itself
// when it is a URL (gs://bucket/log.jsonl).
func LogIRI(path string) string {
	if i := strings.Index(path, "://"); i > 0 && rdf.CheckIRI(path) == nil {
		return path
	}
	return rpclog.DefaultIRI(path)
}

// RDF adds to s the conversion of the logs opts.Input names into N-Quads
// files. It returns an error when the options cannot work, before any
// transform is added.
//
// A log read whole (small, compressed, or not JSON lines) is converted
// by one worker with convert's Converter, as jrpcld rdf converts it. A
// big JSON lines log is cut into byte ranges: a first pass over each
// range counts its records and lines and gives the pairing entries of
// its requests and responses (convert.PairEntries); a GroupByKey on the
// log gives each range its first position and line (prefix sums); a
// GroupByKey on (log, id) pairs them with a convert.Pairer; a GroupByKey
// on the range brings it what pairing decided about its records, and a
// second pass builds their statements (LogGraph.Build) into the range's
// own file.
func RDF(s beam.Scope, opts RDFOptions) error {
	if opts.Input == "" || opts.Output == "" {
		return errors.New("both an input glob and an output prefix are needed")
	}
	if opts.SplitBytes == 0 {
		opts.SplitBytes = DefaultSplitBytes
	}
	if opts.SplitBytes < 0 {
		return fmt.Errorf("split bytes: %d: want 1 or more", opts.SplitBytes)
	}
	if opts.Engine == "" {
		opts.Engine = "compiled"
	}
	if _, err := convert.ParseEngine(opts.Engine); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	// The block is loaded once here, so that a wrong --bblock is a usage
	// error and not a failure on every worker.
	if _, err := openBlockContext(opts.BBlock, opts.ID, opts.ContextMap, opts.Imports); err != nil {
		return err
	}
	if opts.Base != "" && rdf.CheckIRI(opts.Base) != nil {
		return fmt.Errorf("base %q is not an absolute IRI", opts.Base)
	}
	names, err := matchInput(opts.Input)
	if err != nil {
		return err
	}
	// As jrpcld rdf: --base is the IRI of a single log, a prefix for
	// several, which must then have distinct names.
	one := len(names) == 1
	if opts.Base != "" {
		if !one {
			if err := distinctBaseNames(opts.Base, names); err != nil {
				return err
			}
		}
	}
	s = s.Scope("jrpcld.RDF")
	readable := readInput(s, opts.Input)
	whole, parts := beam.ParDo2(s, &planFn{SplitBytes: opts.SplitBytes, Base: opts.Base, One: one}, readable)
	conv := convertConfig{BBlock: opts.BBlock, ID: opts.ID, Engine: opts.Engine, Output: opts.Output, ContextMap: opts.ContextMap, Imports: opts.Imports}
	beam.ParDo0(s, &wholeFn{convertConfig: conv}, whole)

	infos, entries := beam.ParDo2(s, &countFn{}, parts)
	places := beam.ParDo(s, &placeFn{}, beam.GroupByKey(s, infos))
	notes := beam.ParDo(s, &pairFn{}, beam.GroupByKey(s, entries), beam.SideInput{Input: places})
	// One note per range, so that every range is built, answered or not.
	marks := beam.ParDo(s, markSplit, places)
	grouped := beam.GroupByKey(s, beam.Flatten(s, notes, marks))
	beam.ParDo0(s, &buildFn{convertConfig: conv}, grouped, beam.SideInput{Input: places})
	return nil
}

// openBlockContext loads the block and the JSON-LD context its messages
// are mapped with, as jrpcld's --bblock and --id do, with jrpcld's
// --context-map (URL to file) and --import (URL=DIR) too.
func openBlockContext(dir, id string, ctxMap map[string]string, imports []string) (*ldctx.Processed, error) {
	var bopts *bblock.Options
	if len(imports) > 0 {
		var ims []bblock.ImportMap
		for _, s := range imports {
			im, err := bblock.ParseImportMap(s)
			if err != nil {
				return nil, fmt.Errorf("import: %w", err)
			}
			ims = append(ims, im)
		}
		loaded, err := bblock.LoadImports(ims)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		bopts = &bblock.Options{Imports: loaded}
	}
	var copts *ldctx.Options
	if len(ctxMap) > 0 {
		copts = &ldctx.Options{Files: ctxMap}
	}
	blk, reg, err := bblock.Open(dir, id, bopts)
	if err != nil {
		return nil, fmt.Errorf("building block: %w", err)
	}
	ctx, _, err := toolchain.ForBlock(blk, reg, copts)
	if err != nil {
		return nil, fmt.Errorf("building block %s: %w", blk.ID, err)
	}
	return ctx, nil
}

// split is a part of a log file, the unit of work of the conversion: the
// whole file, or the lines that begin in a byte range of it (see
// rpclog.Range).
type split struct {
	Path, IRI  string
	Index, N   int // the range's place among the file's N, from 0
	Start, End int64
}

// key returns the key of the range among all: the log's IRI and its index.
func (s split) key() string { return s.IRI + "\x00" + strconv.Itoa(s.Index) }

// splitInfo is what the first pass over a range counts.
type splitInfo struct {
	Split   split
	Records int // records read, those not JSON among them (a position each)
	Lines   int // lines that begin in the range
	First   int // the range's first record that could be read (from 1), 0 for none
}

// place is a range with what the ranges before it hold: its records'
// positions and lines are counted from PosBase and LineBase.
type place struct {
	Split             split
	PosBase, LineBase int
	// First is the position in the range (from 1) of the log's first
	// record that could be read, which types the log; 0 when it is in
	// another range.
	First int
}

// entry is a convert.PairEntry of a range, by its position in the range.
type entry struct {
	Index, Pos, Member int
	Dir                jsonrpc.Direction
	Kind               jsonrpc.Kind
	ID                 string
	Session            string
}

// pairBuckets is how many groups the ids of a log are hashed into for
// pairing: pairing links only entries of the same id, so a group of
// several ids is paired as each of them would be alone, and a few large
// groups cost a runner less than one per id.
const pairBuckets = 1024

// pairKey returns the pairing group of an id of the log iri.
func pairKey(iri, id string) string {
	h := fnv.New32a()
	io.WriteString(h, id)
	return iri + "\x00" + strconv.Itoa(int(h.Sum32()%pairBuckets))
}

// Kinds of note.
const (
	noteRange    = iota // the range itself: it is to be built
	noteAnswer          // the record (member) at Pos (Member) answers IRI
	noteOpenNode        // the request IRI is never answered
)

// note is what pairing decided about a record of a range.
type note struct {
	Kind        int
	Pos, Member int
	IRI         string
}

// markSplit returns the note that makes a range be built.
func markSplit(p place) (string, []note) { return p.Split.key(), []note{{Kind: noteRange}} }

// maxReported is how many problems of one log (or part) are logged; the
// rest are counted.
const maxReported = 20

// planFn decides how each file is read: whole, or in ranges of about
// SplitBytes, which needs a JSON lines log (rpclog.Reader.Splittable).
type planFn struct {
	SplitBytes int64
	Base       string // as RDFOptions.Base
	One        bool   // the glob matched one file: Base is its IRI
}

func (f *planFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, whole, parts func(split)) error {
	path, size := file.Metadata.Path, file.Metadata.Size
	iri := LogIRI(path)
	if f.Base != "" {
		inputs := 2 // any number past one: Base is a prefix
		if f.One {
			inputs = 1
		}
		iri = rpclog.IRI(f.Base, path, inputs)
	}
	s := split{Path: path, IRI: iri, N: 1, End: size}
	in, err := openAt(ctx, path, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	br := bufio.NewReaderSize(in, 64<<10)
	head, _ := br.Peek(512)
	if _, ok := rpclog.GraphFormat(path, head); ok {
		return fmt.Errorf("%s: a graph, not a message log: jrpcld-beam reads logs only (jrpcld stats and jrpcld json read graphs)", path)
	}
	if size <= f.SplitBytes {
		whole(s)
		return nil
	}
	r, err := rpclog.NewReader(br, path, rpclog.ReaderOptions{})
	if err != nil {
		return err // the error names the input
	}
	if _, err := r.Next(); err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !r.Splittable() {
		log.Infof(ctx, "%s: read whole by one worker: not JSON lines (compressed, or its first document spans lines)", path)
		whole(s)
		return nil
	}
	s.N = int((size + f.SplitBytes - 1) / f.SplitBytes)
	for i := range s.N {
		p := s
		p.Index, p.Start, p.End = i, int64(i)*f.SplitBytes, min(int64(i+1)*f.SplitBytes, size)
		parts(p)
	}
	return nil
}

// openAt opens the file at path and reads it from offset start: by
// seeking where the filesystem can, else by reading up to it.
func openAt(ctx context.Context, path string, start int64) (io.ReadCloser, error) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer fsys.Close()
	rc, err := fsys.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if start == 0 {
		return rc, nil
	}
	if sk, ok := rc.(io.Seeker); ok {
		_, err = sk.Seek(start, io.SeekStart)
	} else {
		_, err = io.CopyN(io.Discard, rc, start)
	}
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("%s: to offset %d: %w", path, start, err)
	}
	return rc, nil
}

// convertConfig is what the workers that write statements share.
type convertConfig struct {
	BBlock, ID, Engine, Output string
	ContextMap                 map[string]string
	Imports                    []string

	ctx               *ldctx.Processed
	engine            convert.Engine
	skipped, warnings beam.Counter
}

func (c *convertConfig) setup() error {
	var err error
	if c.ctx, err = openBlockContext(c.BBlock, c.ID, c.ContextMap, c.Imports); err != nil {
		return err
	}
	if c.engine, err = convert.ParseEngine(c.Engine); err != nil {
		return err
	}
	c.skipped = beam.NewCounter("jrpcld", "skipped")
	c.warnings = beam.NewCounter("jrpcld", "warnings")
	return nil
}

func (c *convertConfig) converter() *convert.Converter {
	conv := convert.NewConverter(c.ctx)
	conv.Engine = c.engine
	return conv
}

// reporter counts and keeps the first problems of one log or part, as
// the worker logs them.
type reporter struct {
	mu                sync.Mutex
	skipped, warnings int64
	reported          []string
}

func (r *reporter) report(d diag.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d.Severity == diag.Error {
		r.skipped++
	} else {
		r.warnings++
	}
	if len(r.reported) < maxReported {
		r.reported = append(r.reported, d.String())
	}
}

func (r *reporter) flush(ctx context.Context, c *convertConfig) {
	for _, m := range r.reported {
		log.Warnf(ctx, "%s", m)
	}
	c.skipped.Inc(ctx, r.skipped)
	c.warnings.Inc(ctx, r.warnings)
}

// writeFile writes name with write, under a temporary name renamed when
// complete: a retried bundle writes the same file again, and a failed
// one leaves no file of that name.
func writeFile(ctx context.Context, name string, write func(io.Writer) error) error {
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer fsys.Close()
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := name + ".tmp-" + hex.EncodeToString(rnd[:])
	wc, err := fsys.OpenWrite(ctx, tmp)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	bw := bufio.NewWriterSize(wc, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = filesystem.Rename(ctx, fsys, tmp, name)
	}
	if err != nil {
		if rm, ok := fsys.(filesystem.Remover); ok {
			rm.Remove(ctx, tmp)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// wholeFn turns one whole log file into N-Quads with convert's Converter,
// as jrpcld rdf does, into the file of its part 0.
type wholeFn struct {
	convertConfig
}

func (f *wholeFn) Setup() error { return f.setup() }

func (f *wholeFn) ProcessElement(ctx context.Context, s split) error {
	in, err := openAt(ctx, s.Path, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	r, err := rpclog.NewReader(in, s.Path, rpclog.ReaderOptions{})
	if err != nil {
		return err // the error names the input
	}
	conv := f.converter()
	var rep reporter
	conv.Report = rep.report
	err = writeFile(ctx, OutputName(f.Output, s.IRI, 0), func(w io.Writer) error {
		return conv.Convert(w, rdf.NQuads, []convert.Log{{Reader: r, File: s.Path, IRI: s.IRI}})
	})
	rep.flush(ctx, &f.convertConfig)
	return err
}

// readRange calls each with the records of a range, read from line
// lineBase on, and their positions in the range (from 1); it returns the
// number of lines of the range.
func readRange(ctx context.Context, s split, lineBase int, each func(rec *rpclog.Record, pos int) error) (int, error) {
	in, err := openAt(ctx, s.Path, s.Start)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	r, err := rpclog.NewRangeReader(in, s.Path, rpclog.ReaderOptions{}, rpclog.Range{Start: s.Start, End: s.End, Line: lineBase})
	if err != nil {
		return 0, err
	}
	for pos := 1; ; pos++ {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", s.Path, err)
		}
		if err := each(rec, pos); err != nil {
			return 0, err
		}
	}
	if s.Index == 0 && !r.Splittable() {
		return 0, fmt.Errorf("%s: no longer JSON lines from its first line: the file changed during the run", s.Path)
	}
	return r.Line() - lineBase, nil
}

// countFn is the first pass over a range: it counts its records and
// lines, and gives the pairing entries of its records keyed by pairing
// group (pairKey), one slice per group: one element per entry would cost
// the runner more than the pairing.
type countFn struct{}

func (f *countFn) ProcessElement(ctx context.Context, s split, info func(string, splitInfo), entries func(string, []entry)) error {
	si := splitInfo{Split: s}
	var es []convert.PairEntry
	groups := map[string][]entry{}
	lines, err := readRange(ctx, s, 0, func(rec *rpclog.Record, pos int) error {
		si.Records++
		if !rec.Kept() {
			return nil
		}
		if si.First == 0 {
			si.First = pos
		}
		es = convert.PairEntries(es[:0], rec, pos, rpclog.Classify(rec))
		for _, e := range es {
			k := pairKey(s.IRI, e.ID)
			groups[k] = append(groups[k], entry{Index: s.Index, Pos: e.Pos, Member: e.Member, Dir: e.Dir, Kind: e.Kind, ID: e.ID, Session: e.Session})
		}
		return nil
	})
	if err != nil {
		return err
	}
	si.Lines = lines
	info(s.IRI, si)
	for k, g := range groups {
		entries(k, g)
	}
	return nil
}

// placeFn gives each range of a log its first position and line: the
// records and lines of the ranges before it, added up.
type placeFn struct{}

func (f *placeFn) ProcessElement(iri string, infos func(*splitInfo) bool, emit func(place)) error {
	var all []splitInfo
	var si splitInfo
	for infos(&si) {
		all = append(all, si)
	}
	slices.SortFunc(all, func(a, b splitInfo) int { return cmp.Compare(a.Split.Index, b.Split.Index) })
	for i, si := range all {
		if si.Split.Index != i || si.Split.N != len(all) {
			return fmt.Errorf("%s: %d of %d ranges counted", si.Split.Path, len(all), si.Split.N)
		}
	}
	pos, line, typed := 0, 0, false
	for _, si := range all {
		p := place{Split: si.Split, PosBase: pos, LineBase: line}
		if !typed && si.First > 0 {
			p.First, typed = si.First, true
		}
		emit(p)
		pos += si.Records
		line += si.Lines
	}
	return nil
}

// places indexes the ranges by key; it is built once per DoFn instance
// from the side input, which is the same for every element.
type places map[string]place

func (m *places) load(iter func(*place) bool) {
	if *m != nil {
		return
	}
	*m = places{}
	var p place
	for iter(&p) {
		(*m)[p.Split.key()] = p
	}
}

// pairFn pairs the requests and responses of one pairing group of a log
// (some of its ids), in log order, with a convert.Pairer, and tells each
// range what it decided, in one slice per range: the request each
// response answers, and the requests never answered.
type pairFn struct {
	places places
}

func (f *pairFn) ProcessElement(key string, entries func(*[]entry) bool, side func(*place) bool, emit func(string, []note)) error {
	f.places.load(side)
	iri, _, _ := strings.Cut(key, "\x00")
	var all, es []entry
	for entries(&es) {
		all = append(all, es...)
	}
	slices.SortFunc(all, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.Index, b.Index), cmp.Compare(a.Pos, b.Pos), cmp.Compare(a.Member, b.Member))
	})
	p := convert.NewPairer(iri)
	ranges := map[string]string{} // request node -> its range's key
	notes := map[string][]note{}  // range's key -> its notes
	for _, e := range all {
		sk := iri + "\x00" + strconv.Itoa(e.Index)
		pl, ok := f.places[sk]
		if !ok {
			return fmt.Errorf("%s: range %d was not counted", iri, e.Index)
		}
		pe := convert.PairEntry{Pos: pl.PosBase + e.Pos, Member: e.Member, Dir: e.Dir, Kind: e.Kind, ID: e.ID, Session: e.Session}
		if e.Kind == jsonrpc.KindRequest {
			ranges[pe.Node(iri)] = sk
		}
		if a := p.Pair(pe); a != "" {
			notes[sk] = append(notes[sk], note{Kind: noteAnswer, Pos: e.Pos, Member: e.Member, IRI: a})
		}
	}
	for _, node := range p.Unanswered() {
		sk := ranges[node]
		notes[sk] = append(notes[sk], note{Kind: noteOpenNode, IRI: node})
	}
	for sk, ns := range notes {
		emit(sk, ns)
	}
	return nil
}

// buildFn is the second pass over a range: it builds the statements of
// its records with what pairing decided, and those typing its requests
// never answered, into the range's own file.
type buildFn struct {
	convertConfig
	places places
}

func (f *buildFn) Setup() error { return f.setup() }

func (f *buildFn) ProcessElement(ctx context.Context, key string, notes func(*[]note) bool, side func(*place) bool) error {
	f.places.load(side)
	pl, ok := f.places[key]
	if !ok {
		return fmt.Errorf("range %q was not counted", key)
	}
	s := pl.Split
	answers := map[[2]int]string{}
	var open []string
	var ns []note
	for notes(&ns) {
		for _, n := range ns {
			switch n.Kind {
			case noteAnswer:
				answers[[2]int{n.Pos, n.Member}] = n.IRI
			case noteOpenNode:
				open = append(open, n.IRI)
			}
		}
	}
	g, err := f.converter().NewLogGraph(s.IRI)
	if err != nil {
		return err
	}
	var rep reporter
	graph := rdf.NewIRI(s.IRI)
	err = writeFile(ctx, OutputName(f.Output, s.IRI, s.Index), func(w io.Writer) error {
		nq := rdf.NewNQuadsWriter(w)
		var triples []rdf.Triple
		_, err := readRange(ctx, s, pl.LineBase, func(rec *rpclog.Record, pos int) error {
			if !rec.Kept() {
				rep.report(convert.Skipped(s.Path, rec))
				return nil
			}
			m := rpclog.Classify(rec)
			p := convert.Pairing{First: pos == pl.First, Answers: answers[[2]int{pos, -1}]}
			if m.Kind == jsonrpc.KindBatch {
				p.Members = make([]string, len(m.Members))
				for i := range p.Members {
					p.Members[i] = answers[[2]int{pos, i}]
				}
			}
			var notices []diag.Diagnostic
			var err error
			triples, notices, err = g.Build(triples[:0], rec, pl.PosBase+pos, m, p)
			for _, d := range notices {
				d.File, d.Line = s.Path, rec.Line
				rep.report(d)
			}
			if err != nil {
				rep.report(diag.Diagnostic{File: s.Path, Line: rec.Line, Code: jsonrpc.CodeInvalidRequest, Severity: diag.Error, Message: "skipped: " + err.Error()})
			}
			if len(triples) == 0 {
				return nil
			}
			return nq.WriteGroup(graph, triples)
		})
		if err != nil {
			return err
		}
		slices.Sort(open)
		if ts := convert.UnansweredTriples(open); len(ts) > 0 {
			if err := nq.WriteGroup(graph, ts); err != nil {
				return err
			}
		}
		return nq.Close()
	})
	rep.flush(ctx, &f.convertConfig)
	return err
}

// Counts returns the lines skipped (not JSON: reported as errors, as jrpcld
// rdf reports them) and the warnings of a finished run, when its runner
// reports metrics; zero otherwise.
func Counts(res beam.PipelineResult) (skipped, warnings int64) {
	if res == nil {
		return 0, 0
	}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Key.Namespace != "jrpcld" {
			continue
		}
		switch c.Key.Name {
		case "skipped":
			skipped += c.Result()
		case "warnings":
			warnings += c.Result()
		}
	}
	return skipped, warnings
}
