package maintain

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
)

// Source gathers a plan's Input: the managed files, the store's memories,
// anchored file hashes and daily logs. It returns ECONFLICT when the files
// cannot be planned on (entries missing ids, duplicate ids).
type Source interface {
	Input(ctx context.Context) (*Input, error)
}

// Maintainer plans maintenance over a Source.
type Maintainer struct {
	Source Source
	Now    func() time.Time // the clock; nil means time.Now
	Budget int              // 0 means recall.DefaultBudgetWords
	Unit   string           // UnitWords (default) or UnitTokens
}

var _ recall.Maintainer = (*Maintainer)(nil)

// Plan loads the Source and plans on it, changing nothing.
func (m *Maintainer) Plan(ctx context.Context) (*recall.MaintainPlan, error) {
	in, err := m.Source.Input(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	in.Now = now().UTC()
	if m.Budget > 0 {
		in.Budget = m.Budget
	}
	if m.Unit != "" {
		in.Unit = m.Unit
	}
	return Plan(*in), nil
}
