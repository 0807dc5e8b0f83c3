package recall

import "context"

// Embedder turns texts into vectors of a fixed dimension. It must be safe
// for concurrent use: searches embed queries while writes embed memories.
type Embedder interface {
	Model() string // name stored next to every vector
	Dim() int
	// Embed returns one vector per text. Returns EUNAVAILABLE when a remote
	// provider cannot be reached.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
