//go:build !race

package testmode

const raceEnabled = false
