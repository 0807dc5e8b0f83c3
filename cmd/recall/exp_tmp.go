package main

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/recall-mem/recall/retrieve"
)

// TEMPORARY experiment knobs; removed before the final commit.
func expOptions(o *retrieve.Options) {
	for _, kv := range strings.Split(os.Getenv("RECALL_EXP"), ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		f, _ := strconv.ParseFloat(v, 64)
		switch k {
		case "fusion":
			o.Fusion = v
		case "mmr":
			o.MMRLambda = f
		case "recency":
			o.Weights.Recency = f
		case "episode":
			o.Episode = f
		case "window":
			o.EpisodeWindow = time.Duration(f * float64(time.Hour))
		case "tw":
			o.TextWeight = f
		case "vw":
			o.VectorWeight = f
		case "cand":
			o.Candidates = int(f)
		case "rrfk":
			o.RRFK = f
		}
	}
}
