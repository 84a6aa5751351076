package server

import (
	"context"
	"os"
	"sync"
	"time"
)

// serverState is where the server keeps what it knows of its sessions
// beside their logs: each session's record (settings, owner), its usage
// series, its event stream, and the logins. Two implementations: a
// directory on the server's machine (dirState, the default), and tables in
// PostgreSQL shared by every replica (pgState).
type serverState interface {
	// records reads every session's record, its usage series included.
	records(ctx context.Context) ([]*record, error)
	// record reads one record; (nil, nil) when there is none. A replica
	// asks for a session another replica created.
	record(ctx context.Context, id string) (*record, error)
	// put writes a record durably (its Series aside).
	put(ctx context.Context, rec *record) error
	// remove forgets a session's record, usage series and events.
	remove(ctx context.Context, id string) error
	// addUsage adds a rendered request's point to the usage series of
	// rec (whose Series already ends with it).
	addUsage(ctx context.Context, rec *record, p UsagePoint) error
	// releaseUsage lets go of what addUsage keeps open for session id
	// while the session is open (called when it closes).
	releaseUsage(id string)
	// series reads the usage series when other processes add to it (ok
	// true); a state that only this process writes answers ok false, and
	// the record's Series is the series.
	series(ctx context.Context, id string) (s []UsagePoint, ok bool, err error)
	// openEvents opens a session's event stream.
	openEvents(id string) (eventStream, error)
	// logins keeps the login cookies.
	logins() loginStore
	// shared reports whether other processes (replicas) use the same
	// state: records, events and logins may then change under this one.
	shared() bool
	// watch calls fn with the id of each session whose record another
	// process changed or removed, until the state is closed. A state only
	// this process writes never calls it.
	watch(fn func(id string))
	close() error
}

// eventStream is a session's event stream: the events kept for clients
// that reconnect, and the clients waiting for more.
type eventStream interface {
	// publish adds an event and makes it durable (sync false lets the
	// stream leave it unsynced: an appended event, made again from the
	// log after a crash) before it is shown.
	publish(typ string, data any, sync bool)
	// after returns the kept events with ids above id, whether events
	// between id and the oldest kept are gone, and a channel closed when
	// there are more.
	after(id int64) (evs []Event, gap bool, changed <-chan struct{})
	// appendedTo returns the log length the kept appended events account
	// for, and false when it cannot be told.
	appendedTo() (int, bool)
	// lastID returns the id of the newest event shown, 0 when none.
	lastID() int64
	close()
}

// loginStore keeps login cookies (as hashes) across restarts.
type loginStore interface {
	// add makes a login for owner, who gave token, and returns its cookie
	// and expiry.
	add(owner, token string) (string, time.Time, error)
	// owner returns the owner of a cookie's login, if it is valid.
	owner(cookie string) (string, bool)
	// remove forgets a cookie's login.
	remove(cookie string) error
}

// dirState is the server's state in a directory (stateDir): records and
// usage series as files, events in per-session files behind the
// group-committed event journal, logins in logins.json.
type dirState struct {
	st   *stateDir
	wal  *eventWAL
	lg   *logins
	keep int
	now  func() time.Time
	// umu guards usage and files.
	umu   sync.Mutex
	usage map[string]int // lines of each usage file since it was last rewritten
	// files are the usage files kept open for appends while their session
	// is open (one write per rendered request instead of an open, a write
	// and a close); releaseUsage closes one.
	files map[string]*os.File
}

// openDirState opens the state in dir: replays the event journal left by
// a crash and drops the logins whose token is gone.
func openDirState(dir string, keep int, tokens map[string]string, now func() time.Time, s *Server) (*dirState, error) {
	st, err := openStateDir(dir)
	if err != nil {
		return nil, err
	}
	recs, err := st.all()
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	for _, rec := range recs {
		live[rec.ID] = true
	}
	gen, err := replayEventWAL(st, live, keep)
	if err != nil {
		return nil, errJournal(err)
	}
	wal, err := openEventWAL(st.dir, gen, s.log)
	if err != nil {
		return nil, errJournal(err)
	}
	lg, err := openLogins(st.dir, tokens, now)
	if err != nil {
		wal.close()
		return nil, err
	}
	return &dirState{st: st, wal: wal, lg: lg, keep: keep, now: now, usage: map[string]int{}, files: map[string]*os.File{}}, nil
}

func (d *dirState) records(context.Context) ([]*record, error) { return d.st.all() }

func (d *dirState) record(_ context.Context, id string) (*record, error) {
	// Only this process writes the directory: the records read at start
	// and made since are all there are.
	return nil, nil
}

func (d *dirState) put(_ context.Context, rec *record) error { return d.st.put(rec) }

func (d *dirState) remove(_ context.Context, id string) error {
	d.umu.Lock()
	delete(d.usage, id)
	d.closeUsage(id)
	d.umu.Unlock()
	return d.st.remove(id)
}

// closeUsage closes session id's usage file if it is open; d.umu held.
func (d *dirState) closeUsage(id string) {
	if f := d.files[id]; f != nil {
		f.Close()
		delete(d.files, id)
	}
}

func (d *dirState) releaseUsage(id string) {
	d.umu.Lock()
	d.closeUsage(id)
	d.umu.Unlock()
}

// addUsage appends p to the usage file, unsynced: the series is a record
// of what was rendered, for the page's chart, and a crash of the machine
// may cost its newest points (a crash of the server alone costs none).
// When the file has grown to twice what the series keeps, it is rewritten
// with the series.
func (d *dirState) addUsage(_ context.Context, rec *record, p UsagePoint) error {
	d.umu.Lock()
	defer d.umu.Unlock()
	lines, ok := d.usage[rec.ID]
	if !ok {
		lines = len(rec.Series) - 1
	}
	lines++
	if lines > 2*maxSeries {
		// The points that follow go to the new file, not the one it
		// replaced.
		d.usage[rec.ID] = len(rec.Series)
		d.closeUsage(rec.ID)
		return d.st.rewriteUsage(rec.ID, rec.Series)
	}
	d.usage[rec.ID] = lines
	f := d.files[rec.ID]
	if f == nil {
		var err error
		if f, err = d.st.openUsage(rec.ID); err != nil {
			return err
		}
		d.files[rec.ID] = f
	}
	return d.st.appendUsage(rec.ID, f, p)
}

func (d *dirState) series(context.Context, string) ([]UsagePoint, bool, error) {
	return nil, false, nil
}

func (d *dirState) openEvents(id string) (eventStream, error) {
	return openEventLog(d.st.eventsPath(id), id, d.wal, d.keep, d.now)
}

func (d *dirState) logins() loginStore { return d.lg }
func (d *dirState) shared() bool       { return false }
func (d *dirState) watch(func(string)) {}
func (d *dirState) close() error {
	d.umu.Lock()
	for id := range d.files {
		d.closeUsage(id)
	}
	d.umu.Unlock()
	return d.wal.close()
}
