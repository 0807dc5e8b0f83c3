package engine

import "net"

// ListenAddr is the HOST:PORT to print for a server asked to listen on
// asked and listening on actual: the host as asked (Go reports 0.0.0.0 as
// [::], and an empty host means every interface), the port as bound
// (asked may say 0).
func ListenAddr(asked string, actual net.Addr) string {
	host, _, err := net.SplitHostPort(asked)
	_, port, err2 := net.SplitHostPort(actual.String())
	if err != nil || err2 != nil {
		return actual.String()
	}
	if host == "" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, port)
}
