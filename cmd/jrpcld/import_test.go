package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
)

// TestImportHostile: import of a recording of each format that goes wrong
// after many good entries writes nothing, on standard output as into -o
// LOG (an earlier LOG stays as it was), and says where (line and column);
// one with entries to guess at writes every message and names each guess
// with FILE: /pointer.
func TestImportHostile(t *testing.T) {
	dir := t.TempDir()
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	var entries []string
	for range 2000 {
		entries = append(entries, `{"timestamp":"2026-06-08T15:19:14.029Z","message":`+ping+`}`)
	}
	many := strings.Join(entries, ",\n")
	tests := []struct {
		from, rec string
		code      int
		out       int      // lines written
		errs      []string // in stderr
	}{
		{"inspector", "[" + many + ",\n{oops}]", cli.ExitUsage, 0, []string{"rec: line 2001, column 2: not JSON: invalid character 'o'"}},
		{"inspector", "[" + many + "]\n[]", cli.ExitUsage, 0, []string{"rec: line 2001, column 1: not JSON: invalid character '['"}},
		{"inspector", "[" + many + ",\n{\"message\":\"\xff\"}]", cli.ExitUsage, 0, []string{"rec: line 2001, column 13: not JSON: byte 0xff is not UTF-8"}},
		{"mcp-recorder", `{"interactions":[` + strings.Repeat(`{"request":`+ping+`},`, 2000) + `{"request":` + ping + `}`, cli.ExitUsage, 0,
			// After "{"interactions":[", 2,001 entries of 52 bytes and 2,000 commas.
			[]string{"rec: line 1, column " + strconv.Itoa(len(`{"interactions":[`)+2001*52+2000+1) + ": not JSON: the recording ends after an array element"}},
		{"vcr", `{"session":{"interactions":[` + strings.Repeat(`{"request":`+ping+`},`, 2000) + `7]}}`, cli.ExitOK, 2000,
			[]string{"rec: warning: an interaction that is not an object: skipped (at /session/interactions/2000)"}},
		{"vcr", `{"session":{"interactions":[{"request":` + ping + `,"direction":"up","timestamp":5}]}}`, cli.ExitOK, 1,
			[]string{`rec: warning: "up" is neither client_to_server nor server_to_client: taken as client_to_server (at /session/interactions/0/direction)`,
				"rec: warning: 5 is not a time (a string): the message is written without one (at /session/interactions/0/timestamp)"}},
	}
	for _, tt := range tests {
		rec := filepath.Join(dir, "rec")
		write(t, rec, tt.rec)
		for _, toFile := range []bool{false, true} {
			log := filepath.Join(dir, "log.jsonl")
			write(t, log, "earlier\n")
			args := []string{"import", "--from", tt.from, rec}
			if toFile {
				args = append(args, "-o", log)
			}
			t.Chdir(dir) // FILE named "rec" in messages
			args[3] = "rec"
			code, out, errOut := jrpcld(t, "", args...)
			got := out
			if toFile {
				b, _ := os.ReadFile(log)
				got = string(b)
				if tt.code != cli.ExitOK && got != "earlier\n" {
					t.Errorf("%s, -o: LOG is %.80q, want it as it was", tt.from, got)
				}
			}
			if code != tt.code || tt.code == cli.ExitOK && strings.Count(got, "\n") != tt.out || !toFile && tt.code != cli.ExitOK && out != "" {
				t.Errorf("%s (-o %v): exit %d, %d lines out (%.80q); want %d, %d", tt.from, toFile, code, strings.Count(got, "\n"), got, tt.code, tt.out)
			}
			for _, w := range tt.errs {
				if !strings.Contains(errOut, w) {
					t.Errorf("%s: stderr %.300q lacks %q", tt.from, errOut, w)
				}
			}
			if strings.Contains(errOut, "goroutine") {
				t.Errorf("a stack trace: %s", errOut)
			}
		}
	}
}
