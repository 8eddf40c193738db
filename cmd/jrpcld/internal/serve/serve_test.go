package serve

import (
	"net"
	"testing"
)

// TestServedHost: the names a server answers to, for the addresses it may
// listen on: on an address open to the network, any IP address (the
// machine's, as the network reaches it) too, and a name only when --addr
// gives it.
func TestServedHost(t *testing.T) {
	tests := []struct {
		addr, bound, host string
		ok                bool
	}{
		{"localhost:8000", "127.0.0.1", "localhost:8000", true},
		{"localhost:8000", "127.0.0.1", "127.0.0.1:9000", true},
		{"localhost:8000", "::1", "[::1]", true},
		{"localhost:8000", "127.0.0.1", "192.168.1.5:8000", false},
		{"register.lan:8000", "192.168.1.9", "register.lan:8000", true},
		{"register.lan:8000", "192.168.1.9", "REGISTER.LAN.", true},
		{"register.lan:8000", "192.168.1.9", "192.168.1.9:8000", true},
		{"register.lan:8000", "192.168.1.9", "other.lan:8000", false},
		{"0.0.0.0:8000", "0.0.0.0", "192.168.1.5:8000", true},
		{"0.0.0.0:8000", "0.0.0.0", "[fe80::1]:8000", true},
		{"0.0.0.0:8000", "0.0.0.0", "evil.example:8000", false},
		{":8000", "::", "192.168.1.5", true},
		{"[::1]:8000", "::1", "[::1]:8000", true},
		{"[::1]:8000", "::1", "evil.example", false},
		{"127.0.0.1:8000", "127.0.0.1", "", false},
		{"127.0.0.1:8000", "127.0.0.1", "[::1", false},
	}
	for _, tt := range tests {
		if got := servedHost(tt.addr, net.ParseIP(tt.bound), tt.host); got != tt.ok {
			t.Errorf("--addr %s bound to %s, Host %q: %v, want %v", tt.addr, tt.bound, tt.host, got, tt.ok)
		}
	}
}
