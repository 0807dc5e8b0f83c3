package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"unicode/utf8"

	"github.com/recall-mem/recall"
)

// statusCodes maps each domain error code to its HTTP status: the one place
// where the REST transport translates errors. The client reads the code back
// from the body, so the status is for people and proxies.
var statusCodes = map[string]int{
	recall.ECONFLICT:     http.StatusConflict,
	recall.EINTERNAL:     http.StatusInternalServerError,
	recall.EINVALID:      http.StatusBadRequest,
	recall.ENOTFOUND:     http.StatusNotFound,
	recall.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	recall.EUNAUTHORIZED: http.StatusUnauthorized,
	recall.EFORBIDDEN:    http.StatusForbidden,
	recall.EUNAVAILABLE:  http.StatusServiceUnavailable,
	recall.ENOTIMPL:      http.StatusNotImplemented,
}

// errorCodeFor returns the domain code for an HTTP status, for responses
// that did not come from this server (a proxy, a wrong URL).
func errorCodeFor(status int) string {
	for code, s := range statusCodes {
		if s == status {
			return code
		}
	}
	if status >= 400 && status < 500 {
		return recall.EINVALID
	}
	return recall.EINTERNAL
}

// errorBody is the JSON form of every error response.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// StatusClientLeft is the status of a request whose client hung up before
// its answer (nginx's 499): no one reads it, but a recorder or an access
// log sees why the request ended.
const StatusClientLeft = 499

// ClientLeft reports whether err is r's own context ending because its
// client hung up (a search that gave up its place in the gate's queue):
// not a failure of the server, so nothing to log as one. A deadline
// that passed is not this.
func ClientLeft(r *http.Request, err error) bool {
	return errors.Is(err, context.Canceled) && errors.Is(r.Context().Err(), context.Canceled)
}

// writeError writes err as {"error":{"code","message"}}. Internal errors are
// logged with their chain and answered with a generic message. A request
// whose client left gets a bare StatusClientLeft, logged at debug level.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if ClientLeft(r, err) {
		log.Debug("client left", "method", r.Method, "path", r.URL.Path)
		w.WriteHeader(StatusClientLeft)
		return
	}
	code := recall.ErrorCode(err)
	if code == recall.EINTERNAL {
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	status, ok := statusCodes[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	writeErrorStatus(w, status, code, recall.ErrorMessage(err))
}

// writeErrorStatus writes an error body with an explicit status, for
// answers of the transport itself (405) that no domain code maps to. The
// message is put in API terms (apiMessage).
func writeErrorStatus(w http.ResponseWriter, status int, code, message string) {
	var body errorBody
	body.Error.Code, body.Error.Message = code, apiMessage(message)
	writeJSON(w, status, body)
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// decodeBody reads a JSON request body into v. Unknown fields, trailing
// data and oversized bodies are the caller's mistakes.
func decodeBody(r *http.Request, v any) error { return decodeJSON(r, v, false) }

// decodeOptionalBody is decodeBody for routes whose body may be left out:
// an empty body leaves v as it is.
func decodeOptionalBody(r *http.Request, v any) error { return decodeJSON(r, v, true) }

func decodeJSON(r *http.Request, v any, optional bool) error {
	buf, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return recall.Errorf(recall.ETOOLARGE, "Request body is over %d bytes: send less at once.", tooBig.Limit)
	} else if err != nil {
		return recall.Errorf(recall.EINVALID, "Cannot read the request body: %v. Retry.", err)
	}
	// The decoder would turn bytes that are not UTF-8 into U+FFFD, so the
	// stored text would differ from what was sent.
	if !utf8.Valid(buf) {
		return recall.Errorf(recall.EINVALID, "The request body is not valid UTF-8: JSON text must be UTF-8; convert it and retry.")
	}
	if optional && len(bytes.TrimSpace(buf)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(buf))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return recall.Errorf(recall.EINVALID, "Empty request body: send a JSON object.")
		}
		return recall.Errorf(recall.EINVALID, "Malformed JSON body: %v. Fix it and retry.", err)
	}
	if dec.More() {
		return recall.Errorf(recall.EINVALID, "Trailing data after the JSON body: send one JSON value.")
	}
	return nil
}

// readError turns an error response back into a domain error.
func readError(resp *http.Response) error {
	var body errorBody
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err := json.Unmarshal(b, &body); err != nil || body.Error.Code == "" {
		return recall.Errorf(errorCodeFor(resp.StatusCode), "The server answered %s: %s", resp.Status, fmt.Sprintf("%.200q", b))
	}
	return recall.Errorf(body.Error.Code, "%s", body.Error.Message)
}

// reply writes v with status, or err as an error response when it is set.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	writeJSON(w, status, v)
}
