package httpapi

import (
	"net/http"

	"github.com/recall-mem/recall"
)

func (s *Server) memoryRoutes(mux router) {
	mux.HandleFunc("POST /v1/memories", s.putMemory)
	mux.HandleFunc("GET /v1/memories", s.listMemories)
	mux.HandleFunc("GET /v1/memories/{id}", s.getMemory)
	mux.HandleFunc("PATCH /v1/memories/{id}", s.updateMemory)
	mux.HandleFunc("DELETE /v1/memories/{id}", s.deleteMemory)
	mux.HandleFunc("GET /v1/memories/{id}/versions", s.memoryVersions)
	mux.HandleFunc("POST /v1/memories/{id}/restore", s.restoreMemory)
	mux.HandleFunc("POST /v1/import", s.importMemories)
}

func (s *Server) putMemory(w http.ResponseWriter, r *http.Request) {
	var m recall.Memory
	if err := decodeBody(r, &m); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	res, err := s.Engine.Put(r.Context(), &m)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	status := http.StatusOK
	if res.Created {
		status = http.StatusCreated
	}
	writeJSON(w, status, putResult{Memory: res.Memory, Created: res.Created})
}

func (s *Server) listMemories(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	ms, total, err := s.Engine.List(r.Context(), f)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	if ms == nil {
		ms = []*recall.Memory{}
	}
	writeJSON(w, http.StatusOK, memoryList{Memories: ms, Total: total})
}

// findMemory resolves the {id} path value (an id or a key) and the
// optional ?collection= the way the CLI does.
func (s *Server) findMemory(r *http.Request) (*recall.Memory, error) {
	return s.Engine.Get(r.Context(), r.PathValue("id"), r.URL.Query().Get(qCollection))
}

func (s *Server) getMemory(w http.ResponseWriter, r *http.Request) {
	m, err := s.findMemory(r)
	s.reply(w, r, http.StatusOK, m, err)
}

// target is the id a write acts on: the path value when it is an id
// (outside any ?collection=), else the id its key resolves to, since the
// service's writes take ids.
func (s *Server) target(r *http.Request) (string, error) {
	if ref := r.PathValue("id"); r.URL.Query().Get(qCollection) == "" && recall.IsID(ref) {
		return ref, nil
	}
	m, err := s.findMemory(r)
	if err != nil {
		return "", err
	}
	return m.ID, nil
}

func (s *Server) updateMemory(w http.ResponseWriter, r *http.Request) {
	var p memoryPatch
	if err := decodeBody(r, &p); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	ref, err := s.target(r)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	m, err := s.Engine.Update(r.Context(), ref, p.update())
	s.reply(w, r, http.StatusOK, m, err)
}

func (s *Server) deleteMemory(w http.ResponseWriter, r *http.Request) {
	ref, err := s.target(r)
	if err == nil {
		err = s.Engine.Delete(r.Context(), ref)
	}
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// versionList is the response to GET /v1/memories/{id}/versions.
type versionList struct {
	Versions []*recall.MemoryVersion `json:"versions"`
}

func (s *Server) memoryVersions(w http.ResponseWriter, r *http.Request) {
	ref, err := s.target(r)
	var vs []*recall.MemoryVersion
	if err == nil {
		vs, err = s.Engine.Versions(r.Context(), ref)
	}
	s.reply(w, r, http.StatusOK, versionList{Versions: vs}, err)
}

func (s *Server) restoreMemory(w http.ResponseWriter, r *http.Request) {
	var b restoreBody
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	ref, err := s.target(r)
	var m *recall.Memory
	if err == nil {
		m, err = s.Engine.Restore(r.Context(), ref, b.Version)
	}
	s.reply(w, r, http.StatusOK, m, err)
}

// importBody is the body of POST /v1/import.
type importBody struct {
	Memories []*recall.Memory `json:"memories"`
}

func (s *Server) importMemories(w http.ResponseWriter, r *http.Request) {
	var b importBody
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	res, err := s.Engine.Import(r.Context(), b.Memories)
	s.reply(w, r, http.StatusOK, res, err)
}
