package main

import (
	"context"
	"fmt"
	"time"
)

// embeddingCheck reports the embedding queue and the provider's last
// failure, as recorded in the store by whichever process last tried it.
// Memories waiting while the provider fails are a warning: they are
// stored and found by full text, but not by meaning.
func (a *app) embeddingCheck(ctx context.Context) checkResult {
	r := checkResult{Name: "embeddings", Status: checkOK}
	if a.eng.VectorStore() == nil {
		return r
	}
	st, err := a.eng.VectorStore().VectorStats(ctx)
	if err != nil {
		return checkResult{Name: r.Name, Status: checkFail, Details: []string{err.Error()}}
	}
	if st.Model == "none" {
		r.Status = checkInfo
		r.Details = []string{"no embedder ([retrieval] embedder = \"none\"): search is by full text only"}
		return r
	}
	r.Details = append(r.Details, fmt.Sprintf("%s: %d of %d memories embedded; queue: %d", st.Model, st.Embedded, st.Memories, st.Queued))
	if st.StoredModel != "" && st.StoredModel != st.Model {
		r.Status = checkWarn
		r.Details = append(r.Details, fmt.Sprintf("the stored vectors are of %s, not %s: run `recall reindex`", st.StoredModel, st.Model))
	}
	if st.ProviderError != "" {
		when := ""
		if st.ProviderErrorAt != nil {
			when = " at " + st.ProviderErrorAt.Local().Format(time.DateTime)
		}
		r.Details = append(r.Details, fmt.Sprintf("the provider's last error%s: %s", when, st.ProviderError))
	}
	switch {
	case st.Queued > 0 && (st.ProviderError != "" || st.Failing > 0):
		r.Status = checkWarn
		r.Details = append(r.Details, fmt.Sprintf("%d memories wait for embedding and search ranks them by full text only: start the provider or fix [retrieval] in config.toml, then run `recall reindex`", st.Queued))
	case st.Queued > 0:
		r.Status = worst(r.Status, checkInfo)
		r.Details = append(r.Details, fmt.Sprintf("%d memories wait for embedding: a search or a running server embeds them, or run `recall reindex`", st.Queued))
	case st.ProviderError != "":
		r.Status = worst(r.Status, checkInfo) // nothing waits for it
	}
	return r
}
