package bench

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// processMemory returns process pid's peak resident set (VmHWM) and the
// part of its resident set now that is its own memory (RssAnon), not
// pages of files it maps, which the kernel shares with every process
// mapping them and can drop; both in bytes, and false where /proc does
// not say (not Linux, or the process is gone). A server that maps its
// database counts the pages it touched in its resident set.
func processMemory(pid int) (peak, anon int64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, false
	}
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, _ := bytes.Cut(sc.Bytes(), []byte(":"))
		var into *int64
		switch string(name) {
		case "VmHWM":
			into = &peak
		case "RssAnon":
			into = &anon
		default:
			continue
		}
		// "  123456 kB"
		kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(value), []byte(" kB"))), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		*into = kb << 10
		found++
	}
	return peak, anon, found == 2
}
