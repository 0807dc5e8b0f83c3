// Package openaitest serves the OpenAI-compatible API that package openai
// calls, for tests in other packages: a real HTTP server, up or failing on
// demand.
package openaitest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Dim is the size of the vectors Handler returns.
const Dim = 4

// Summary is what Handler's chat completions answer.
const Summary = "The user's current value, as the test server words it."

// Handler answers POST …/chat/completions with Summary and POST
// …/embeddings with one Dim-dimensional vector per input (its first
// component the text's length), or either with HTTP 500 and an
// OpenAI-style error while down reports true (nil: never down).
func Handler(down func() bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down != nil && down() {
			http.Error(w, `{"error": {"message": "model is loading"}}`, http.StatusInternalServerError)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			_, _ = w.Write([]byte(`{"choices": [{"message": {"role": "assistant", "content": ` + quote(Summary) + `}}]}`))
			return
		}
		var req struct{ Input []string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var out struct {
			Data []item `json:"data"`
		}
		for i, s := range req.Input {
			out.Data = append(out.Data, item{Index: i, Embedding: []float32{float32(len(s)), 1, 2, 3}})
		}
		_ = json.NewEncoder(w).Encode(out)
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
