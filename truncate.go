package condense

// Truncation says which tool results of the newest step a preflight cut to
// their head and tail because the request could not fit its input limit
// otherwise (the one exception to keeping the newest step verbatim).
type Truncation struct {
	// Results counts the tool results cut.
	Results int `json:"results"`
	// TokensCut is how many tokens were cut from them, by the request's
	// counter.
	TokensCut int `json:"tokens_cut"`
	// Refs are the recall references of the results cut, in request
	// order: the originals stay in the log and are recalled through them.
	Refs []string `json:"refs,omitempty"`
}
