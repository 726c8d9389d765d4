package calc

import "fmt"

// BreakerAt says where a client's breaker sits around its retries: at each attempt (inside
// the retries, every attempt asks and counts; the .NET standard pipeline's order) or around the
// whole call (outside: one logical call asks once and counts once).
type BreakerAt uint8

const (
	BreakerAtAttempt BreakerAt = iota
	BreakerAtCall
)

var breakerAtNames = [...]string{"attempt", "call"}

func (a BreakerAt) String() string {
	if int(a) < len(breakerAtNames) {
		return breakerAtNames[a]
	}
	return fmt.Sprintf("BreakerAt(%d)", a)
}

// BreakerScope says whose breaker a call asks: its client process's own (as limiters are) or
// one shared by every process.
type BreakerScope uint8

const (
	BreakerPerClient BreakerScope = iota
	BreakerShared
)

var breakerScopeNames = [...]string{"client", "shared"}

func (s BreakerScope) String() string {
	if int(s) < len(breakerScopeNames) {
		return breakerScopeNames[s]
	}
	return fmt.Sprintf("BreakerScope(%d)", s)
}
