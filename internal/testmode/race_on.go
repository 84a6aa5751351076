//go:build race

package testmode

const raceEnabled = true
