package journal

import "github.com/condense-dev/condense/internal/faultfs"

// Faults makes d write its runs' files through p, a process of a
// simulated disk. named says whether a file's name was durable before p
// opened it.
func Faults(d *Dir, p *faultfs.Proc, named func(path string) bool) {
	d.wrap = func(path string, f file) file {
		return p.Wrap(path, f, named(path))
	}
	d.syncDir = p.SyncDir
}
