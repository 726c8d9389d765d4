// Package lazy holds values built at their first use: calc's key table.
package lazy

import "sync"

// Value is a value built at its first use. A package variable's initializer runs in the
// package's init, so whatever it calls is linked into every program that imports the package; a
// lazy value is linked only into one that uses it: a program that only computes a schedule links
// no key table.
type Value[T any] struct {
	once sync.Once
	v    T
}

// Get returns the value, built by build at the first call.
func (l *Value[T]) Get(build func() T) T {
	l.once.Do(func() { l.v = build() })
	return l.v
}
