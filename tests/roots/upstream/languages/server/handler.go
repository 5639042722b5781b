package server

import (
	"encoding/json"
	"net/http"
)

// Request is what the front end sends.
type Request struct {
	Task   string `json:"task"`
	Source string `json:"report_source"`
}

// Handler queues research requests.
type Handler struct {
	queue chan Request
}

// ServeHTTP decodes a request and queues it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch req.Source {
	case "web", "local", "hybrid":
		h.queue <- req
		w.WriteHeader(http.StatusAccepted)
	default:
		msg := "unknown report source: " + req.Source
		http.Error(w, msg, http.StatusBadRequest)
	}
}
