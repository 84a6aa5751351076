package server

// OnAppend sets a function each append of s calls once it holds the
// session (in shared mode, its lease), before it appends.
func OnAppend(s *Server, f func()) { s.hooks.appending.Store(&f) }

// OnAppended sets a function each append of s calls once its messages
// are committed, before anything else.
func OnAppended(s *Server, f func()) { s.hooks.appended.Store(&f) }
