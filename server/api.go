package server

import (
	"encoding/json"
	"time"

	"github.com/condense-dev/condense"
)

// SessionConfig is a session's settings: the model its requests name, the
// budget, the strategy and summarizer, and the request template (system
// text, tools, output cap). Zero fields take the defaults.
type SessionConfig struct {
	Model string `json:"model"`
	// Provider is the model client of hosted runs: "fake" and the ones the
	// server was configured with ("anthropic", "openai"); "" means the
	// server's default.
	Provider string `json:"provider,omitempty"`
	// Window, ReservedOutput, Safety, Fraction and LowWater are the budget
	// (condense.Settings); Window defaults to the model's registered window.
	Window         int     `json:"window,omitempty"`
	ReservedOutput int     `json:"reserved_output,omitempty"`
	Safety         int     `json:"safety,omitempty"`
	Fraction       float64 `json:"fraction,omitempty"`
	LowWater       float64 `json:"low_water,omitempty"`
	// Strategy is "pipeline" (the default), "mask", "drop-oldest",
	// "clear-tool-uses", "summarize", "segments" or "minify".
	Strategy string `json:"strategy,omitempty"`
	// Summarizer writes summaries: "extractive" (the default: no model, no
	// network) or "model" (the session's model, through the provider).
	Summarizer      string          `json:"summarizer,omitempty"`
	System          string          `json:"system,omitempty"`
	Tools           []condense.Tool `json:"tools,omitempty"`
	MaxOutputTokens int             `json:"max_output_tokens,omitempty"`
}

func (c SessionConfig) settings() condense.Settings {
	return condense.Settings{Window: c.Window, ReservedOutput: c.ReservedOutput, Safety: c.Safety, Fraction: c.Fraction, LowWater: c.LowWater}
}

func (c SessionConfig) template() condense.Request {
	return condense.Request{Model: c.Model, System: c.System, Tools: c.Tools, MaxOutputTokens: c.MaxOutputTokens}
}

// CreateRequest is the body of POST /v1/sessions: the settings and the
// first messages (pinned ones survive every compaction verbatim).
type CreateRequest struct {
	SessionConfig
	Messages []condense.Message `json:"messages,omitempty"`
}

// ConfigChange is the body of PATCH /v1/sessions/{id}: the fields to
// change (model, provider, window and the other budget settings, strategy,
// summarizer, system, max output); absent fields stay.
type ConfigChange struct {
	Model           *string  `json:"model,omitempty"`
	Provider        *string  `json:"provider,omitempty"`
	Window          *int     `json:"window,omitempty"`
	ReservedOutput  *int     `json:"reserved_output,omitempty"`
	Safety          *int     `json:"safety,omitempty"`
	Fraction        *float64 `json:"fraction,omitempty"`
	LowWater        *float64 `json:"low_water,omitempty"`
	Strategy        *string  `json:"strategy,omitempty"`
	Summarizer      *string  `json:"summarizer,omitempty"`
	System          *string  `json:"system,omitempty"`
	MaxOutputTokens *int     `json:"max_output_tokens,omitempty"`
}

// Snapshot is a session's state: GET /v1/sessions/{id}, and what compact,
// undo and the settled event return.
type Snapshot struct {
	ID       string        `json:"id"`
	Created  time.Time     `json:"created"`
	Config   SessionConfig `json:"config"`
	Messages int           `json:"messages"`
	// Checkpoint is the latest live checkpoint, when there is one.
	Checkpoint *CheckpointSummary `json:"checkpoint,omitempty"`
	// CompactionAvailable: a manual compaction could do something now.
	// Not computed (absent) while the session is busy.
	CompactionAvailable *bool `json:"compaction_available,omitempty"`
	Busy                bool  `json:"busy"`
	// Activity is what keeps it busy: "prompt" or "compaction".
	Activity string `json:"activity,omitempty"`
	// Run is the hosted run in progress or last run.
	Run     string `json:"run,omitempty"`
	Unsaved bool   `json:"unsaved"`
	// Usage is the estimate of the next request, before any compaction.
	Usage Usage `json:"usage"`
	// LastEventID is the id of the newest event.
	LastEventID int64 `json:"last_event_id"`
}

// CheckpointSummary is the latest checkpoint of a snapshot.
type CheckpointSummary struct {
	ID string `json:"id"`
	// Boundary is the lowest log index rendered after the checkpoint's last
	// summary or drop marker.
	Boundary     int       `json:"boundary"`
	HistoryCount int       `json:"history_count"`
	Time         time.Time `json:"time"`
	Strategy     string    `json:"strategy"`
}

// Usage is the estimated context usage of a request.
type Usage struct {
	Tokens     int     `json:"tokens"`
	InputLimit int     `json:"input_limit"`
	Threshold  int     `json:"threshold"`
	Window     int     `json:"window"`
	Percent    float64 `json:"percent"`
	Counter    string  `json:"counter"`
	Exact      bool    `json:"exact"`
}

// SessionList is a page of GET /v1/sessions.
type SessionList struct {
	Sessions []SessionItem `json:"sessions"`
	// Next is the cursor of the next page (?after=), "" on the last.
	Next string `json:"next,omitempty"`
}

// SessionItem is one session of a list.
type SessionItem struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Model   string    `json:"model"`
}

// AppendRequest is the body of POST …/messages: messages in the condense
// JSON form, or a provider request body ("format": "openai" or
// "anthropic", "body": the JSON a client would send the provider). A
// provider body holds the whole conversation, as those APIs take it: its
// messages must start with the session's history, and those beyond it are
// appended.
type AppendRequest struct {
	Messages []condense.Message `json:"messages,omitempty"`
	Format   string             `json:"format,omitempty"`
	Body     json.RawMessage    `json:"body,omitempty"`
}

// AppendResponse says where the messages went.
type AppendResponse struct {
	From     int `json:"from"`
	Count    int `json:"count"`
	Messages int `json:"messages"`
}

// RenderRequest is the body of POST …/render (optional): the format of
// the request returned and messages to append first.
type RenderRequest struct {
	// Format is "openai", "anthropic" or "condense" (the default); ?format=
	// works too.
	Format   string             `json:"format,omitempty"`
	Messages []condense.Message `json:"messages,omitempty"`
}

// RenderResponse is the request to send, in the format asked for, and how
// it came to be.
type RenderResponse struct {
	Format string `json:"format"`
	// Request is the request body in that format.
	Request json.RawMessage `json:"request"`
	Usage   Usage           `json:"usage"`
	// TokensBefore is the estimate before this render's compactions.
	TokensBefore int `json:"tokens_before"`
	// Compactions are the compactions this render made (each saved as a
	// checkpoint before the answer).
	Compactions []condense.Record `json:"compactions"`
	Pressured   bool              `json:"pressured"`
	Suppressed  bool              `json:"suppressed"`
	Messages    int               `json:"messages"`
}

// CompactRequest is the optional body of POST …/compact.
type CompactRequest struct {
	// Instructions focus the summary ("keep the failing test's output").
	Instructions string `json:"instructions,omitempty"`
}

// CompactResponse is the settled snapshot and what the compaction did.
type CompactResponse struct {
	Snapshot    Snapshot          `json:"snapshot"`
	Compactions []condense.Record `json:"compactions"`
}

// CheckpointInfo is one checkpoint of GET …/checkpoints.
type CheckpointInfo struct {
	ID           string            `json:"id"`
	Strategy     string            `json:"strategy"`
	Boundary     int               `json:"boundary"`
	HistoryCount int               `json:"history_count"`
	Time         time.Time         `json:"time"`
	Summary      string            `json:"summary,omitempty"`
	Provider     string            `json:"provider,omitempty"`
	Model        string            `json:"model,omitempty"`
	Usage        []condense.Usage  `json:"usage,omitempty"`
	Edits        []EditInfo        `json:"edits"`
	Records      []condense.Record `json:"records"`
	Unsaved      bool              `json:"unsaved,omitempty"`
}

// EditInfo is one change a checkpoint makes over the log span [start, end).
type EditInfo struct {
	Edit  string `json:"edit"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// UndoResponse lists the checkpoints undone and the settled snapshot.
type UndoResponse struct {
	Undone   []string `json:"undone"`
	Snapshot Snapshot `json:"snapshot"`
}

// RecallResponse holds the original messages behind a reference.
type RecallResponse struct {
	Spans []RecallSpan `json:"spans"`
}

// RecallSpan is a run of original log messages from log index Start.
type RecallSpan struct {
	Start    int                `json:"start"`
	Messages []condense.Message `json:"messages"`
}

// MessagesPage is a page of GET …/messages.
type MessagesPage struct {
	From     int                `json:"from"`
	Messages []condense.Message `json:"messages"`
	Total    int                `json:"total"`
}

// PromptRequest is the body of POST …/prompt: a user message for a hosted
// run.
type PromptRequest struct {
	Text     string             `json:"text,omitempty"`
	Message  *condense.Message  `json:"message,omitempty"`
	Settings *condense.Settings `json:"-"`
}

// PromptResponse names the run started; its progress is on the event
// stream and GET …/runs/{run}.
type PromptResponse struct {
	Run string `json:"run"`
}

// RunInfo is the state of a hosted run.
type RunInfo struct {
	ID          string            `json:"id"`
	State       string            `json:"state"` // running, done, failed, aborted
	Error       *Error            `json:"error,omitempty"`
	Text        string            `json:"text,omitempty"`
	ModelCalls  int               `json:"model_calls"`
	ToolCalls   int               `json:"tool_calls"`
	Usage       condense.Usage    `json:"usage"`
	Compactions []condense.Record `json:"compactions,omitempty"`
	Appended    int               `json:"appended"`
}

// UsagePoint is one rendered request of the usage series.
type UsagePoint struct {
	Time         time.Time `json:"time"`
	Messages     int       `json:"messages"`
	Tokens       int       `json:"tokens"`
	TokensBefore int       `json:"tokens_before"`
	Threshold    int       `json:"threshold"`
	InputLimit   int       `json:"input_limit"`
	// Compactions names the checkpoints this request made, if any.
	Compactions []string `json:"compactions,omitempty"`
}

// OverlayItem is one message of the current rendering, for the page:
// how a log message (or span) is rendered.
type OverlayItem struct {
	// Index is the log index rendered; -1 for a synthesized summary or
	// marker.
	Index int `json:"index"`
	// Rendering is "verbatim", "masked", "cleared", "minified",
	// "truncated", "summary" or "dropped".
	Rendering string `json:"rendering"`
	// Covers is the log span [start, end) a summary or drop marker stands
	// for.
	Covers *[2]int `json:"covers,omitempty"`
	// Recall is the reference that gives the original back.
	Recall string `json:"recall,omitempty"`
	// Checkpoint is the checkpoint that made this rendering, if any.
	Checkpoint string `json:"checkpoint,omitempty"`
}
