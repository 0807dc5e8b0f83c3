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
