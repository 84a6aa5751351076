// Package agenttest is the testing kit of the agent package: a fake model
// answering from a script, and a runner that injects a crash at the Nth
// call of a kind and resumes the run from its journal. With them, the
// behaviours that matter most in production — compaction inside the tool
// loop, recovery from "context too large", crash and resume, replay — are
// tested offline and deterministically.
//
// A FakeModel answers Generate and Stream calls from its script in order
// (Text, CallTools, Fail, each optionally billed WithUsage), falls back to
// its Func for calls the script does not cover, and records every request
// it was sent (Calls), so a test can check what the model actually saw
// after compaction.
//
// A Runner runs an agent under one run id with a journal (in memory by
// default). CrashAt makes the next Run stop before its Nth live call of a
// kind with ErrCrash, as if the process had died: nothing more is written
// to the journal. Running again resumes from the journal, serving what it
// recorded — summaries made for compaction included — instead of asking
// for it again; Verify replays the whole run without calling the model or
// any tool and reports the first divergence.
package agenttest
