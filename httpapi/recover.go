package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
)

// recoverPanics turns a handler that panics into a 500 with the usual error
// body and logs the panic with its stack. net/http would recover too, but
// by dropping the connection, and a panic in a goroutine a handler starts
// would end the process; one bad request must not cost the other clients
// their server.
func recoverPanics(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v) // the documented way to abort a response
			}
			log.Error("request panicked", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			if rw.wrote {
				return // too late for a status: the client sees a cut response
			}
			// A plain error is internal: the client gets the generic message.
			writeError(rw, r, slog.New(slog.DiscardHandler), fmt.Errorf("panic: %v", v))
		}()
		h.ServeHTTP(rw, r)
	})
}

// trackingWriter remembers whether the response has begun.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer
// (flushing, deadlines).
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
