package httpapi

import "testing"

func TestAPIMessage(t *testing.T) {
	for in, want := range map[string]string{
		"Memory not found: run `recall list` or `recall search` to find its id or key.":                                                      "Memory not found: call `GET /v1/memories` or `GET /v1/search` to find its id or key.",
		"No memory with id tr0123456789: run `recall list` to see ids (a deleted memory keeps its history: `recall versions tr0123456789`).": "No memory with id tr0123456789: call `GET /v1/memories` to see ids (a deleted memory keeps its history: `GET /v1/memories/tr0123456789/versions`).",
		"No memory with key \"deploy\": run `recall list` to see keys, or `recall search deploy`.":                                           "No memory with key \"deploy\": call `GET /v1/memories` to see keys, or `GET /v1/search?q=deploy`.",
		"Key taken in two collections: run `recall list --collection ops`.":                                                                  "Key taken in two collections: call `GET /v1/memories?collection=ops`.",
		"Run `recall session start --session ID` first.":                                                                                     "Call `POST /v1/sessions` first.",
		"Change it with `recall update deploy-rule --content FILE`.":                                                                         "Change it with `PATCH /v1/memories/deploy-rule`.",
		"No embedder: run `recall reindex`.":                                                                                                 "No embedder: run `recall reindex`.",
		"Plain message.":                                                                                                                     "Plain message.",
	} {
		if got := apiMessage(in); got != want {
			t.Errorf("apiMessage(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
