//go:build !race

package httpapi_test

// loadRequests is how many requests TestServer_Load sends.
const loadRequests = 2000
