package history

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"
)

// A walk runs in three stages, so that the commits of a range are located
// on every core, not one commit at a time:
//
//   - the producer (one goroutine) goes through the nodes in order and
//     decides, for each walker, whether the commit's inputs differ from
//     its parent's (inputsDiffer, which keeps state from node to node);
//   - workers locate the records of the commits to compare, and of their
//     parents, several commits at once (locate.Extractor.ExtractEach is
//     safe for concurrent use), each commit and definition once (memo);
//   - the consumer (walkAll's goroutine) takes the nodes back in order,
//     compares the records and notes the paths they were found at.
//
// The producer runs at most lookahead nodes ahead of the consumer.

// due is a walker that compares the records at a commit: its position
// in walkAll's walkers, and whether it lists the commit as touched when the
// records are alike.
type due struct {
	w       int
	touched bool
}

// reuse is a walker's comparison at a commit from an earlier pass.
type reuse struct {
	w       int
	entries []*Entry
}

// job is one node of the walk at which some walker compares.
type job struct {
	k int
	n node
	// compared are the walkers whose inputs differ at n; of them, reused
	// take an earlier pass's comparison, dues compare now.
	compared []int
	reused   []reuse
	dues     []due
	// at holds the records located for dues at n (at[0]) and at its first
	// parent (at[1], when it has one), by definition id; set by a worker.
	at [2]map[string]*locatedAt
	// err is the producer's or a worker's error; ready is closed when
	// the job is complete.
	err   error
	ready chan struct{}
}

// locatedAt is one definition's records at one commit, as ExtractEach gave
// them: filled by the worker that created it, then done is closed.
type locatedAt struct {
	done chan struct{}
	doc  *findings.Document
	recs []*findings.Record
	err  error
	// last is the position of the last node that reads the commit in the
	// pass that created or last used the entry (see memo.evict).
	last int
	// counted marks the walkers whose Stats.Located count it (consumer
	// only).
	counted map[*walker]bool
}

// memoKey names a definition's records at a commit.
type memoKey struct {
	commit plumbing.Hash
	def    string
}

// memo holds the records located at commits the walk has yet to compare
// (a commit is located as a node's parent and, soon after, as a node), and
// a few more: a later pass compares again some of the commits an earlier
// one did. It is shared by the walk's workers and kept across passes.
type memo struct {
	mu      sync.Mutex
	entries map[memoKey]*locatedAt
	// bound is the number of entries past which those no node still
	// reads are dropped.
	bound int
}

// statesPerWalker bounds, by the number of walkers, what the memo keeps of
// the commits the walk no longer reads.
const statesPerWalker = 32

func newMemo(walkers int) *memo {
	return &memo{entries: map[memoKey]*locatedAt{}, bound: statesPerWalker * max(walkers, 1)}
}

// evict drops, once the memo holds more than its bound, the entries of
// the commits no node after position k reads.
func (m *memo) evict(k int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.entries) <= m.bound {
		return
	}
	for key, e := range m.entries {
		if e.last <= k {
			delete(m.entries, key)
		}
	}
}

// lookahead is how many nodes per worker the producer may run ahead of
// the consumer: enough to keep every worker busy while the consumer waits
// for the oldest node.
const lookahead = 4

// walkAll compares, for each walker, the records at each commit that needs
// it with its parent's: the entries of each walker's ids, newest first.
// At each commit the walkers that need records located are located
// together, each definition once (see locateJob).
func walkAll(ws []*walker, nodes []node, last map[plumbing.Hash]int, m *memo) ([][][]*Entry, []Stats, error) {
	out := make([][][]*Entry, len(ws))
	st := make([]Stats, len(ws))
	for i, w := range ws {
		out[i] = make([][]*Entry, len(w.ids))
		st[i].Commits = len(nodes)
	}
	add := func(i int, es []*Entry) {
		for j, e := range es {
			if e != nil {
				out[i][j] = append(out[i][j], e)
			}
		}
	}
	// One worker more than the cores: a worker also waits, for a commit
	// another worker is locating (the memo) and for the disk, and the
	// Extractor still computes records on at most one per core. On the
	// 2-vCPU VM the catalog's first 40 records over the whole history
	// kept the cores 1.64 busy with three workers, 1.56–1.59 with two.
	workers := par.Workers() + 1
	jobs := make(chan *job, lookahead*workers)
	work := make(chan *job, lookahead*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func() {
		defer wg.Done()
		produce(ws, nodes, last, jobs, work, stop)
	}()
	for range workers {
		go func() {
			defer wg.Done()
			for j := range work {
				select {
				case <-stop:
					j.err = errStopped
				default:
					j.err = locateJob(ws, j, last, m)
				}
				close(j.ready)
			}
		}()
	}
	err := consume(ws, jobs, m, st, add)
	close(stop)
	for range jobs {
		// Let the producer end.
	}
	wg.Wait()
	if err != nil {
		return nil, nil, err
	}
	for i, w := range ws {
		st[i].Located = w.located
	}
	return out, st, nil
}

// errStopped marks the jobs left when a walk ends early.
var errStopped = errors.New("walk stopped")

// produce sends, in order, a job for each node at which some walker's
// inputs differ: on jobs for the consumer and, when it has records to
// locate, on work for the workers. It closes both when done or stopped;
// an error ends the walk as the last job's.
func produce(ws []*walker, nodes []node, last map[plumbing.Hash]int, jobs, work chan<- *job, stop <-chan struct{}) {
	defer close(jobs)
	defer close(work)
	send := func(ch chan<- *job, j *job) bool {
		select {
		case ch <- j:
			return true
		case <-stop:
			return false
		}
	}
	for k, n := range nodes {
		j := &job{k: k, n: n, ready: make(chan struct{})}
		for i, w := range ws {
			touched, err := w.inputsDiffer(n)
			if err != nil {
				j.err = err
				close(j.ready)
				send(jobs, j)
				return
			}
			if touched == unchangedInputs {
				continue
			}
			j.compared = append(j.compared, i)
			listTouched := touched == filesChanged && w.q.AllCommits
			// A later pass, which compares at least the commits an
			// earlier one did, locates only the commits it adds (see
			// walker.compared).
			w.mu.Lock()
			c, ok := w.compared[n.hash]
			w.mu.Unlock()
			if ok && c.touched == listTouched {
				j.reused = append(j.reused, reuse{w: i, entries: c.entries})
				continue
			}
			j.dues = append(j.dues, due{w: i, touched: listTouched})
		}
		for _, w := range ws {
			w.forget(n, k, last)
		}
		if len(j.compared) == 0 {
			continue
		}
		if len(j.dues) == 0 {
			close(j.ready)
		} else if !send(work, j) {
			return
		}
		if !send(jobs, j) {
			return
		}
	}
}

// consume takes the jobs in order as they become ready and compares the
// records of each due walker, passing each walker's entries to add.
func consume(ws []*walker, jobs <-chan *job, m *memo, st []Stats, add func(int, []*Entry)) error {
	for j := range jobs {
		<-j.ready
		if j.err != nil {
			return j.err
		}
		for _, i := range j.compared {
			st[i].Compared++
		}
		for _, r := range j.reused {
			add(r.w, r.entries)
		}
		if err := compare(ws, j, add); err != nil {
			return err
		}
		m.evict(j.k)
	}
	return nil
}

// compare compares the records of the walkers j.dues names at j's commit
// with their parent's.
func compare(ws []*walker, j *job, add func(int, []*Entry)) error {
	n := j.n
	// The commit is read for its first entry only: most commits
	// compared list none.
	var c *object.Commit
	for _, d := range j.dues {
		w := ws[d.w]
		cur := w.keep(j.at[0][w.q.Definition.ID])
		var old *state
		if n.hasParent {
			old = w.keep(j.at[1][w.q.Definition.ID])
		}
		es := make([]*Entry, len(w.ids))
		for i := range w.ids {
			kind := classify(old, cur, i)
			if kind == "" && d.touched {
				kind = KindTouched
			}
			if kind == "" {
				continue
			}
			if c == nil {
				var err error
				if c, err = w.repo.CommitObject(n.hash); err != nil {
					return fmt.Errorf("read commit %s: %w", n.hash, err)
				}
			}
			es[i] = w.entry(n, c, old, cur, i, kind)
		}
		// Only whether touched commits are listed can differ for the
		// same commit between passes (a path found in between makes a
		// change of that file a touch), so it is part of what is
		// remembered.
		w.mu.Lock()
		w.compared[n.hash] = comparison{touched: d.touched, entries: es}
		w.mu.Unlock()
		add(d.w, es)
	}
	return nil
}

// locateJob fills j.at: the records of the definitions j.dues follow at
// j's commit and its first parent. A commit and definition the memo holds
// (or that another worker is locating) is not located again; the others
// are located in one ExtractEach call per commit, so a file several
// definitions read is parsed once for all.
func locateJob(ws []*walker, j *job, last map[plumbing.Hash]int, m *memo) error {
	var ids []string
	for _, d := range j.dues {
		if id := ws[d.w].q.Definition.ID; !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	commits := []plumbing.Hash{j.n.hash}
	if j.n.hasParent {
		commits = append(commits, j.n.parent)
	}
	// Claim what no one holds, then locate it, then wait for the rest:
	// a worker waits only for entries whose owner is locating them.
	var mine [2][]string
	var mineAt [2][]*locatedAt
	m.mu.Lock()
	for s, h := range commits {
		j.at[s] = make(map[string]*locatedAt, len(ids))
		for _, id := range ids {
			key := memoKey{h, id}
			e, ok := m.entries[key]
			if !ok {
				e = &locatedAt{done: make(chan struct{}), counted: map[*walker]bool{}}
				m.entries[key] = e
				mine[s] = append(mine[s], id)
				mineAt[s] = append(mineAt[s], e)
			}
			e.last = max(e.last, last[h])
			j.at[s][id] = e
		}
	}
	m.mu.Unlock()
	w0 := ws[j.dues[0].w]
	for s, h := range commits {
		if len(mine[s]) == 0 {
			continue
		}
		doc, recs, err := extractAt(w0, h, mine[s])
		for i, e := range mineAt[s] {
			e.err = err
			if err == nil {
				e.doc, e.recs = doc, recs[i]
			}
			close(e.done)
		}
	}
	for s := range commits {
		for _, e := range j.at[s] {
			<-e.done
			if e.err != nil {
				return e.err
			}
		}
	}
	return nil
}

// extractAt locates the definitions ids at commit h, in one ExtractEach
// call.
func extractAt(w *walker, h plumbing.Hash, ids []string) (*findings.Document, [][]*findings.Record, error) {
	c, err := w.repo.CommitObject(h)
	if err != nil {
		return nil, nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	snap, err := source.NewGitSnapshotIn(w.repo, c, w.hist)
	if err != nil {
		return nil, nil, err
	}
	doc, recs, err := w.x.ExtractEach(snap, locate.Meta{Repo: w.q.Repo, Ref: h.String(), WebURL: w.q.WebURL}, ids)
	if err != nil {
		return nil, nil, fmt.Errorf("locate %s at %s: %w", strings.Join(ids, ", "), h, err)
	}
	return doc, recs, nil
}

// seedBoundary notes the paths the records have at the parents the range
// leaves out (git log From..To: a node whose first parent is reachable
// from From). Along a line of first parents the walk learns a record's
// paths at the commits it compares; a line that enters the range from
// outside starts with a record nothing compared, so a path it reads there
// (a file: target, a moved file) would be unknown, and a later change to
// it missed. Without From every line starts at a root commit, which is
// always compared, and nothing is left out. The records are kept in the
// memo for the nodes that compare against those parents.
func seedBoundary(ws []*walker, nodes []node, last map[plumbing.Hash]int, m *memo) error {
	if len(ws) == 0 {
		return nil
	}
	in := make(map[plumbing.Hash]bool, len(nodes))
	for _, n := range nodes {
		in[n.hash] = true
	}
	var ids []string
	for _, w := range ws {
		if id := w.q.Definition.ID; !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	seen := map[plumbing.Hash]bool{}
	for _, n := range nodes {
		h := n.parent
		if !n.hasParent || in[h] || seen[h] {
			continue
		}
		seen[h] = true
		doc, recs, err := extractAt(ws[0], h, ids)
		if err != nil {
			return err
		}
		for i, id := range ids {
			e := &locatedAt{done: make(chan struct{}), doc: doc, recs: recs[i], last: last[h], counted: map[*walker]bool{}}
			close(e.done)
			m.entries[memoKey{h, id}] = e
		}
		for _, w := range ws {
			w.keep(m.entries[memoKey{h, w.q.Definition.ID}])
		}
	}
	return nil
}

// keep makes the walker's state from the records its definition has at a
// commit (e.doc holds no records) and notes the paths they were found at.
func (w *walker) keep(e *locatedAt) *state {
	if !e.counted[w] {
		e.counted[w] = true
		w.located++
	}
	s := &state{doc: e.doc, recs: make([]*findings.Record, len(w.ids))}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, id := range w.ids {
		r := find(e.recs, w.q.Definition, id)
		s.recs[i] = r
		if r == nil {
			continue
		}
		if r.Location != nil && !w.isPath(r.Location.Path) {
			w.extra[r.Location.Path] = true
		}
		for _, c := range r.Candidates {
			if !w.isPath(c.Path) {
				w.extra[c.Path] = true
			}
		}
	}
	return s
}
