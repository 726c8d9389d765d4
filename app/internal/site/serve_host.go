//go:build !js

package site

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// loopbackOnly answers 421 Misdirected Request to a request whose Host is not a loopback name
// or address. A page on another site can rename itself onto 127.0.0.1 (DNS rebinding: its
// name first resolves to its server, then to 127.0.0.1) and then read serve's answers as its
// own; its requests still carry its own name in Host, which no loopback server should answer.
func loopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "serve answers only links to localhost, 127.0.0.1 or [::1]", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names this machine: localhost, an address of
// 127.0.0.0/8 or ::1, with or without a port. Anything else, an empty Host included, is not.
func loopbackHost(host string) bool {
	name, port, err := net.SplitHostPort(host)
	if err != nil { // no port
		name, port = host, ""
		if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
			name = name[1 : len(name)-1]
		}
	}
	if strings.Trim(port, "0123456789") != "" {
		return false
	}
	if strings.EqualFold(name, "localhost") {
		return true
	}
	addr, err := netip.ParseAddr(name)
	return err == nil && addr.IsLoopback()
}
