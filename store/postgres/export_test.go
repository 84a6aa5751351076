package postgres

import "time"

// StopRenewal makes the logs s opens from now on never renew their
// leases (a holder that hung).
func StopRenewal(s *Store) {
	s.hooks.renewTick = func() <-chan time.Time { return nil }
}
