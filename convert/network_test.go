package convert

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/register/toolchain/toolchaintest"

	"github.com/piprate/json-gold/ld"

	"github.com/jrpcld/jrpcld/bblock"
	ldctx "github.com/jrpcld/jrpcld/context"
	"github.com/jrpcld/jrpcld/rdf"
	"github.com/jrpcld/jrpcld/register/toolchain"
)

// recordingLoader records every document json-gold asks for.
type recordingLoader struct {
	mu   sync.Mutex
	urls []string
}

func (l *recordingLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	l.mu.Lock()
	l.urls = append(l.urls, u)
	l.mu.Unlock()
	return nil, errors.New("recording loader: no loads allowed")
}

var hostileRefs = []string{"file:///etc/passwd", "/etc/passwd", "../secret.jsonld", "http://169.254.169.254/latest", "https://example.com/context.jsonld"}

// TestMessagesNeverLoad: a message that names a context, or any other "@"
// key, never makes the processor load anything: no load is even attempted.
func TestMessagesNeverLoad(t *testing.T) {
	m, err := NewMapping(toolchaintest.DefaultContext(t), "http://example.com/log/")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingLoader{}
	m.opts.DocumentLoader = rec
	for _, ref := range hostileRefs {
		for _, msg := range []map[string]any{
			{"jsonrpc": "2.0", "method": "m", "@context": ref},
			{"jsonrpc": "2.0", "method": "m", "@context": []any{ref, map[string]any{"@import": ref}}},
			{"jsonrpc": "2.0", "method": "m", "@context": map[string]any{"@import": ref}},
			{"jsonrpc": "2.0", "method": "m", "params": map[string]any{"@context": ref}},
			{"jsonrpc": "2.0", "method": "m", "@type": ref, "@id": ref, "@graph": []any{map[string]any{"@context": ref}}},
		} {
			triples, notices, err := m.Triples(msg, "http://example.com/log#1", "b")
			if err != nil {
				t.Errorf("%v: %v", msg, err)
			}
			if len(triples) == 0 {
				t.Errorf("%v: the valid part was lost", msg)
			}
			for _, tr := range triples {
				if strings.Contains(tr.S.Value+tr.O.Value, "etc/passwd") && tr.P != rdf.JRPCNS+"hasParameters" {
					t.Errorf("%v: a reference became data outside params: %v", msg, tr)
				}
			}
			if _, isData := msg["@context"]; isData && len(notices) == 0 {
				t.Errorf("%v: no notice for the @ keys", msg)
			}
		}
	}
	if len(rec.urls) > 0 {
		t.Errorf("loads attempted: %v", rec.urls)
	}
}

// TestBlockContextsNeverLoad: a block whose context names another context
// fails with an error naming the reference and how to map it, and nothing
// is loaded.
func TestBlockContextsNeverLoad(t *testing.T) {
	for _, ref := range hostileRefs {
		b, err := bblock.Load(fstestBlock(`{"@context": ["`+ref+`", {"a": "http://example.com/a"}]}`), "t.remote")
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = toolchain.ForBlock(b, nil, nil)
		if err == nil || !strings.Contains(err.Error(), ref) || !strings.Contains(err.Error(), "--context-map") {
			t.Errorf("%s: %v", ref, err)
		}
	}
	// A context value with a reference is refused before json-gold sees it
	// (whose loader would refuse it too: see rdf/jsonld/gold).
	_, err := ldctx.Process([]any{"http://169.254.169.254/latest"})
	var ue *ldctx.UnmappedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "http://169.254.169.254/latest") {
		t.Errorf("a remote context: %v", err)
	}
}

func fstestBlock(context string) fstest.MapFS {
	return fstest.MapFS{
		"bblock.json":    {Data: []byte(`{"name": "R", "status": "stable", "dateTimeAddition": "2025-01-01T00:00:00Z", "itemClass": "schema", "version": "1"}`)},
		"schema.yaml":    {Data: []byte("type: object\nproperties:\n  a: {type: string}\n")},
		"context.jsonld": {Data: []byte(context)},
	}
}
