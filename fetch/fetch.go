// Package fetch is the only part of jrpcld that uses the network: "jrpcld
// fetch" downloads the official MCP schemas (MCPSchemas) and published
// building-block registers (Register) into the user's cache, where the
// other commands read them offline. It follows no URL a downloaded file
// names except those of the register asked for, and writes the cache so
// that a reader sees either the old files or the new ones, complete.
package fetch

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jrpcld/jrpcld/internal/atomicfile"
	"github.com/jrpcld/jrpcld/mcp"
)

// MaxBytes is the largest file Get downloads.
const MaxBytes = 64 << 20

// DefaultTimeout is the longest a file may take, from the request to the
// end of its body, when Fetcher.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// MirrorEnv names the environment variable that sends every download to a
// mirror: https://HOST/PATH is fetched from MIRROR/HOST/PATH instead (a
// local copy, or the tests' server). The cache keeps the original URLs.
const MirrorEnv = "JRPCLD_FETCH_MIRROR"

// Fetcher downloads files. The zero value uses http.DefaultClient's
// transport, no mirror, no progress and the default limits.
type Fetcher struct {
	// Client makes the requests; nil for a plain http.Client.
	Client *http.Client
	// Mirror, when set, is where every URL is fetched from (see MirrorEnv).
	Mirror string
	// Progress, when set, is told of each file fetched.
	Progress func(url string, bytes int64)
	// Timeout is the longest one file may take, from the request to the
	// end of its body (DefaultTimeout when zero).
	Timeout time.Duration
	// Limits bound what Register downloads; zero fields take the defaults.
	Limits Limits
}

// Get downloads u whole (MaxBytes at most). A redirect is followed only on
// the same host; a status other than 200 is an error.
func (f *Fetcher) Get(ctx context.Context, u string) ([]byte, error) {
	var b bytes.Buffer
	if _, err := f.download(ctx, u, &b, MaxBytes); err != nil {
		if errors.Is(err, errTooBig) {
			return nil, fmt.Errorf("%s: larger than %d bytes", u, MaxBytes)
		}
		return nil, err
	}
	return b.Bytes(), nil
}

// download writes the body of u to w as it arrives: max bytes at most, or
// errTooBig. A redirect is followed only on the same host; a status other
// than 200 is an error; so is a file that takes longer than the Fetcher's
// Timeout (a LimitError).
func (f *Fetcher) download(ctx context.Context, u string, w io.Writer, max int64) (int64, error) {
	target := u
	if f.Mirror != "" {
		pu, err := url.Parse(u)
		if err != nil {
			return 0, err
		}
		target = strings.TrimSuffix(f.Mirror, "/") + "/" + pu.Host + pu.EscapedPath()
		if pu.RawQuery != "" {
			target += "?" + pu.RawQuery
		}
	}
	var c http.Client
	if f.Client != nil {
		c = *f.Client
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		if req.URL.Host != via[0].URL.Host {
			return fmt.Errorf("redirected to another host (%s): not followed", req.URL.Host)
		}
		return nil
	}
	timeout := cmp.Or(f.Timeout, DefaultTimeout)
	fileCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	n, err := get(fileCtx, &c, target, w, max)
	if err != nil && ctx.Err() == nil && fileCtx.Err() == context.DeadlineExceeded {
		return n, &LimitError{URL: u, What: fmt.Sprintf("not downloaded within %v", timeout), Flag: "--timeout"}
	}
	if err != nil && !errors.Is(err, errTooBig) {
		return n, fmt.Errorf("%s: %w", u, err)
	}
	if err == nil && f.Progress != nil {
		f.Progress(u, n)
	}
	return n, err
}

// get makes the request and copies the body to w.
func get(ctx context.Context, c *http.Client, target string, w io.Writer, max int64) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "jrpcld-fetch")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, errors.New(resp.Status)
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, max+1))
	if err == nil && n > max {
		err = errTooBig
	}
	return n, err
}

// MCPSchemas downloads the schema of each released MCP version
// (mcp.Released, from mcp.SchemaURL) and checks the sha256 of
// its content (mcp.ContentSHA256) against the pin. Only when every one is right are they written, each
// atomically, to dir/VERSION/schema.json; otherwise nothing is written and
// the error says which are wrong. It returns the versions written.
func (f *Fetcher) MCPSchemas(ctx context.Context, dir string) ([]string, error) {
	got := make([][]byte, len(mcp.Released))
	var errs []error
	for i, v := range mcp.Released {
		u := fmt.Sprintf(mcp.SchemaURL, v.Name)
		data, err := f.Get(ctx, u)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		h, err := mcp.ContentSHA256(data)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u, err))
			continue
		}
		if h != v.SHA256 {
			errs = append(errs, &HashError{URL: u, Want: v.SHA256, Got: h})
			continue
		}
		got[i] = data
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("MCP schemas not fetched, the cache is unchanged: %w", errors.Join(errs...))
	}
	var done []string
	for i, v := range mcp.Released {
		if err := writeFile(filepath.Join(dir, v.Name, "schema.json"), got[i]); err != nil {
			return done, err
		}
		done = append(done, v.Name)
	}
	return done, nil
}

// writeFile writes data to path atomically, making its folder.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}
