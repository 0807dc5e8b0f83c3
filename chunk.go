package recall

// Chunk is one passage of a memory's content: the unit that is embedded
// and searched, so that the best passage of a long memory can be found and
// shown while the memory itself stays whole.
type Chunk struct {
	Index   int    `json:"index"`             // position among the memory's chunks, from 0
	Start   int    `json:"start"`             // byte offset of the passage in the content
	End     int    `json:"end"`               // byte offset just past the passage
	Heading string `json:"heading,omitempty"` // the headings above the passage, joined by " > "
}

// Chunker splits content into passages that cover it in order. It never
// fails: content with no structure is one chunk.
type Chunker interface {
	Chunk(content string) []Chunk
}
