// Package netrc reads the logins of a .netrc file, the file where curl,
// ftp and Go's own tools find the user name and password for a host:
//
//	machine store.example.com login alice password "s3cret pw"
//	default login anonymous password guest
//
// Tokens are separated by white space (line breaks included); a token may
// be written in double quotes, with \" and \\ inside. "macdef NAME" and the
// lines after it, up to an empty line, define an ftp macro: skipped.
// "account" and its value are skipped too.
package netrc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Login is the user and password a .netrc file gives for one host.
type Login struct {
	Machine  string // the host, or "" for the default entry
	User     string
	Password string
}

// Path returns the .netrc file to read: $NETRC when set, else .netrc in
// the user's home folder.
func Path() (string, error) {
	if p := os.Getenv("NETRC"); p != "" {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".netrc"), nil
}

// Lookup returns the login of the file at path for host (compared without
// regard to case): the first "machine host" entry, else the "default"
// entry. ok is false when neither is there, or when the file does not
// exist.
func Lookup(path, host string) (login Login, ok bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Login{}, false, nil
	}
	if err != nil {
		return Login{}, false, err
	}
	defer f.Close()
	logins, err := Parse(f)
	if err != nil {
		return Login{}, false, fmt.Errorf("%s: %w", path, err)
	}
	var def *Login
	for i, l := range logins {
		if l.Machine == "" {
			if def == nil {
				def = &logins[i]
			}
			continue
		}
		if strings.EqualFold(l.Machine, host) {
			return l, true, nil
		}
	}
	if def != nil {
		return *def, true, nil
	}
	return Login{}, false, nil
}

// Parse reads the entries of a .netrc file, in order. Its errors name the
// line, never a password.
func Parse(r io.Reader) ([]Login, error) {
	s := &scanner{r: bufio.NewReader(r), line: 1}
	var logins []Login
	var cur *Login
	for {
		tok, err := s.next()
		if err == io.EOF {
			return logins, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok {
		case "machine":
			name, err := s.value("machine")
			if err != nil {
				return nil, err
			}
			logins = append(logins, Login{Machine: name})
			cur = &logins[len(logins)-1]
		case "default":
			logins = append(logins, Login{})
			cur = &logins[len(logins)-1]
		case "login", "password", "account":
			v, err := s.value(tok)
			if err != nil {
				return nil, err
			}
			if cur == nil {
				return nil, fmt.Errorf("line %d: %q before any machine or default", s.line, tok)
			}
			switch tok {
			case "login":
				cur.User = v
			case "password":
				cur.Password = v
			}
		case "macdef":
			if _, err := s.value("macdef"); err != nil {
				return nil, err
			}
			if err := s.skipMacro(); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("line %d: unknown keyword (expected machine, default, login, password, account or macdef)", s.line)
		}
	}
}

// scanner splits a .netrc file into tokens.
type scanner struct {
	r    *bufio.Reader
	line int
}

// next returns the next token, or io.EOF.
func (s *scanner) next() (string, error) {
	// Skip white space.
	var c byte
	var err error
	for {
		c, err = s.r.ReadByte()
		if err != nil {
			return "", err
		}
		if c == '\n' {
			s.line++
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
	}
	var b strings.Builder
	if c == '"' {
		for {
			c, err = s.r.ReadByte()
			if err != nil {
				return "", fmt.Errorf("line %d: a quoted token does not end", s.line)
			}
			switch c {
			case '"':
				return b.String(), nil
			case '\\':
				if c, err = s.r.ReadByte(); err != nil {
					return "", fmt.Errorf("line %d: a quoted token does not end", s.line)
				}
			case '\n':
				s.line++
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte(c)
	for {
		c, err = s.r.ReadByte()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			s.r.UnreadByte()
			return b.String(), nil
		}
		b.WriteByte(c)
	}
}

// value returns the token that follows keyword.
func (s *scanner) value(keyword string) (string, error) {
	v, err := s.next()
	if err == io.EOF {
		return "", fmt.Errorf("line %d: %s has no value", s.line, keyword)
	}
	return v, err
}

// skipMacro skips the rest of a macdef line and the lines after it, up
// to an empty line.
func (s *scanner) skipMacro() error {
	if _, err := s.r.ReadString('\n'); err != nil {
		return nil // the macro is the end of the file
	}
	s.line++
	for {
		l, err := s.r.ReadString('\n')
		if err != nil {
			return nil
		}
		s.line++
		if strings.TrimRight(l, "\r\n") == "" {
			return nil
		}
	}
}
