package httpapi_test

import (
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/recalltest"
)

// TestClient_MemoryServiceContract runs the same contract as the SQLite
// store against the HTTP client talking to a real server over that store.
func TestClient_MemoryServiceContract(t *testing.T) {
	recalltest.TestMemoryService(t, func(t *testing.T) recall.MemoryService {
		_, c := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true, Token: "s3cret"})
		return c
	})
}

// TestClient_ObservationServiceContract runs the observation contract
// through the REST API.
func TestClient_ObservationServiceContract(t *testing.T) {
	recalltest.TestObservationService(t, func(t *testing.T) recall.ObservationService {
		_, c := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
		return c
	})
}

// TestClient_SessionServiceContract runs the session contract through the
// REST API over an engine on real SQLite.
func TestClient_SessionServiceContract(t *testing.T) {
	recalltest.TestSessionService(t, func(t *testing.T, o recall.SessionOptions) recall.SessionService {
		e := openEngine(t)
		if o.HotSessions > 0 {
			e.Config.Session.HotSessions = o.HotSessions
		}
		_, c := newServer(t, &httpapi.Server{Engine: e, Loopback: true})
		return c
	}, nil)
}

// TestClient_TextSearchContract runs the full-text contract through the
// REST API: the engine's hybrid search must keep what the store's text
// candidates promise.
func TestClient_TextSearchContract(t *testing.T) {
	recalltest.TestTextSearch(t, func(t *testing.T) recalltest.TextSearch {
		_, c := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
		return c
	})
}
