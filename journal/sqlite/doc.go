// Package sqlite is a journal.Store in an SQLite database (the pure-Go
// modernc.org/sqlite driver, so no C toolchain is needed): one row per
// event in the table journal_events, keyed by run and sequence number.
//
// Each Append is one transaction, committed with synchronous=FULL in WAL
// mode, so an append that returned survives a crash, and a failed one
// stores nothing. Write transactions take the database lock when they
// begin, so a second writer waits instead of failing half-way.
//
// The database may be the one that holds the sessions (store/sqlite): the
// table name is the journal's own.
package sqlite
