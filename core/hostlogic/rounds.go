package hostlogic

import "github.com/kessho/kessho/core/wire"

// Rounds is the round loop's policy, one for every host (docs/HOSTS.md,
// section 1): what a host does with each round's need. The Go host
// (host/call) follows it natively, a call run as steps (the plugin)
// through the core.
type Rounds struct {
	Tool string
	// Max is how many rounds with a need a call may take.
	Max int
	// Counted is how many it took so far.
	Counted int
}

// Need is what a host does with a round's need, search the carry its
// answer came with (nil: none): batch, a batch of a search index's
// build (the host keeps the index that came with it under search's id,
// and starts its snapshot afresh: the files sent are indexed), which
// does not count; any other need counts, and the call is refused past
// Max. The host then answers the need's search, when it names one, and
// the need itself into its snapshot.
func (r *Rounds) Need(need wire.Need, search *wire.Carry) (batch bool, err error) {
	if need.Search == "batch" && search != nil {
		return true, nil
	}
	if r.Counted++; r.Counted >= r.Max {
		return false, TooManyRounds(r.Tool, r.Max)
	}
	return false, nil
}
