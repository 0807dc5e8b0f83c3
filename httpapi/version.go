package httpapi

import (
	"net/http"

	"github.com/recall-mem/recall/internal/buildinfo"
)

// versionPath says which recall answers: the same build information as
// `recall version` and MCP's serverInfo.version.
const versionPath = "/v1/version"

func (s *Server) version(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, buildinfo.Read())
}
