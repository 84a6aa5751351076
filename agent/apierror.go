package agent

import (
	"github.com/condense-dev/condense/summarize"
)

// ClassifyHTTPError returns a provider's error answer as a
// *summarize.APIError whose Kind the loop branches on; see
// summarize.ClassifyHTTP. Model adapters use it.
func ClassifyHTTPError(provider string, status int, errType, code, message string) *summarize.APIError {
	return summarize.ClassifyHTTP(provider, status, errType, code, message)
}
