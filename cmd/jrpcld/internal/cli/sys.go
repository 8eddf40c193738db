package cli

import (
	"net"
	"os"
	"os/signal"
	"syscall"
)

// SignalName returns the usual name of sig, e.g. "SIGINT".
func SignalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// Network returns the network to listen on addr: tcp4 or tcp6 when its host
// is an IP address of that family, so that 0.0.0.0 is bound as written
// (Go would bind it as [::], IPv6 as well), and tcp otherwise.
func Network(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "tcp"
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return "tcp"
	case ip.To4() != nil:
		return "tcp4"
	}
	return "tcp6"
}

// Notify relays to c each of sigs that the process was not started to
// ignore: under nohup, SIGHUP stays ignored rather than caught, so a closed
// terminal does not stop a command the user meant to outlive it.
func Notify(c chan<- os.Signal, sigs ...os.Signal) {
	for _, sig := range sigs {
		if !signal.Ignored(sig) {
			signal.Notify(c, sig)
		}
	}
}
