package rank

import "github.com/recall-mem/recall/prose"

// stopwords are the words ranking ignores in feedback terms, names, the
// text embedded for vector search and time-only queries: the shared list
// less a few it keeps as words. Dropping "she" from the text embedded for
// vector search cost the paraphrase probe a query (TestParaphraseProbe:
// 41% → 38% in the top 3); the rest keep ranking as measured on LoCoMo.
var stopwords = prose.Except("s she should t us whom")
