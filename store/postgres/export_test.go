package postgres

import "time"

// StopRenewal makes the logs s opens from now on never renew their
// leases (a holder that hung).
func StopRenewal(s *Store) {
	s.hooks.renewTick = func() <-chan time.Time { return nil }
}

// OnWait sets a function called each time a Lock or shared Append of s
// finds the lease held elsewhere and waits.
func OnWait(s *Store, f func(id string)) { s.hooks.waiting = f }
