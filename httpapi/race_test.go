//go:build race

package httpapi_test

// loadRequests is smaller under the race detector, which slows each
// request tenfold: the concurrency still gets checked, the figures are
// not meaningful there anyway.
const loadRequests = 320
