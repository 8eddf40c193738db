package jsonrpc

import "fmt"

// Direction is the way a message went between the two peers of a session.
type Direction uint8

// The directions of a message.
const (
	NoDirection    Direction = iota // the log does not record it
	ClientToServer                  // written "c2s" in logs
	ServerToClient                  // written "s2c" in logs
)

// String returns "c2s", "s2c", or "" for NoDirection: the spelling of
// envelope lines and of message IRIs.
func (d Direction) String() string {
	switch d {
	case ClientToServer:
		return "c2s"
	case ServerToClient:
		return "s2c"
	}
	return ""
}

// ParseDirection returns the direction spelled s ("c2s" or "s2c"); ok is
// false for any other text.
func ParseDirection(s string) (d Direction, ok bool) {
	switch s {
	case "c2s":
		return ClientToServer, true
	case "s2c":
		return ServerToClient, true
	}
	return NoDirection, false
}

// Opposite returns the direction a reply to a message sent in d travels
// in; NoDirection stays NoDirection.
func (d Direction) Opposite() Direction {
	switch d {
	case ClientToServer:
		return ServerToClient
	case ServerToClient:
		return ClientToServer
	}
	return d
}

// MarshalText returns the direction as String spells it.
func (d Direction) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads "c2s", "s2c", or "" for NoDirection.
func (d *Direction) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = NoDirection
		return nil
	}
	v, ok := ParseDirection(string(b))
	if !ok {
		return fmt.Errorf("direction %q: want \"c2s\" or \"s2c\"", b)
	}
	*d = v
	return nil
}
