package engine

import (
	"strings"
	"time"
)

// QueueInterval is how often a server drains the embedding queue: the
// built-in encoder is local, so its queue is drained every second; a
// remote provider's every 30 seconds, to batch its requests.
func QueueInterval(r RetrievalConfig) time.Duration {
	if r.QueueIntervalSeconds > 0 {
		return time.Duration(r.QueueIntervalSeconds) * time.Second
	}
	if IsBuiltin(r) {
		return time.Second
	}
	return 30 * time.Second
}

// IsBuiltin reports whether [retrieval] names the built-in sentence encoder.
func IsBuiltin(r RetrievalConfig) bool {
	e := strings.ToLower(r.Embedder)
	return e == "" || e == "builtin"
}
