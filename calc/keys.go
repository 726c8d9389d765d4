package calc

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"backoffcalc/calc/policy"
)

// A link is read by more than one decoder (calc's keys here, the libraries' export and vs in
// calc/libs), and each reads only its own keys: a key that none of them reads would be dropped
// without a word, and bse=1s would show the defaults. UnknownKeys names every such key, with the
// known key it is probably a typo of.

// UnknownKeyError is the Err of a *FieldError whose Key is none of the link's keys. Suggest is
// the known key it is closest to ("" when none is close): base for bse, BASE or bsae.
type UnknownKeyError struct {
	Suggest string
	More    int // the unknown keys after this one, which are not named (maxUnknownNamed)
}

func (e *UnknownKeyError) Error() string {
	s := "unknown key"
	if e.Suggest != "" {
		s += "; did you mean " + e.Suggest + "?"
	}
	if e.More > 0 {
		s += " (and " + strconv.Itoa(e.More) + " more unknown keys, not named)"
	}
	return s
}

// maxUnknownNamed is how many unknown keys a link's errors name: a link of 45,000 made-up keys,
// within serve's and the page's size limits, made a list of 45,000 messages (3 MB of page).
const maxUnknownNamed = 20

// IsUnknownKey reports whether fe is about a key that no decoder reads (UnknownKeys).
func IsUnknownKey(fe *policy.FieldError) bool {
	_, ok := fe.Err.(*UnknownKeyError)
	return ok
}

// UnknownKeys reports every key of query that is neither one of Keys, nor preset, nor one of
// others (the keys another package reads from the same link), as a *FieldError whose Err is an
// *UnknownKeyError, joined with errors.Join in the order of the query; a key given more than
// once is reported once, with its values joined by commas. Only the first maxUnknownNamed are
// named: the last of those counts the others (UnknownKeyError.More). A key whose percent-encoding is broken
// is named as written. Keys are case-sensitive: UnknownKeys("BASE=1s&bse=2s") reports
// `calc: BASE "1s": unknown key; did you mean base?` and `calc: bse "2s": …`.
func UnknownKeys(query string, others ...string) error {
	var keys []string
	vals := map[string][]string{}
	for pair := range strings.SplitSeq(query, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if key, err := url.QueryUnescape(k); err == nil {
			k = key
		}
		if text, err := url.QueryUnescape(v); err == nil {
			v = text
		}
		if _, seen := vals[k]; !seen {
			keys = append(keys, k)
		}
		vals[k] = append(vals[k], v)
	}
	return unknownKeys(keys, vals, others)
}

// UnknownKeyValues is UnknownKeys for values already unescaped, as DecodeValues is for Decode.
func UnknownKeyValues(v url.Values, others ...string) error {
	return unknownKeys(slices.Sorted(func(yield func(string) bool) {
		for k := range v {
			if !yield(k) {
				return
			}
		}
	}), v, others)
}

func unknownKeys(keys []string, vals map[string][]string, others []string) error {
	known := knownKeys(others)
	var errs []error
	var last *UnknownKeyError
	for _, k := range keys {
		switch {
		case slices.Contains(known, k):
		case len(errs) == maxUnknownNamed:
			last.More++
		default:
			last = &UnknownKeyError{Suggest: nearestKey(k, known)}
			errs = append(errs, &policy.FieldError{Key: k, Value: strings.Join(vals[k], ","), Err: last})
		}
	}
	return errors.Join(errs...)
}

// knownKeys are calc's keys in the form's order, then preset, then others.
func knownKeys(others []string) []string {
	return slices.Concat(Keys(), []string{"preset"}, others)
}

// nearestKey returns the key of known that k is most likely a typo of, or "" when none is close:
// the same key in other case (BASE), one a letter missing, added, changed or swapped with its
// neighbour away (bse, bsae, capat2), two for a key of six letters or more (atempst), or one that
// k begins (att for attempts); never one that would change most of a short k (x for add, wasm
// for base). Among equally close keys the first in known wins.
func nearestKey(k string, known []string) string {
	lower := strings.ToLower(k)
	best, bestDist := "", 3
	for _, key := range known {
		d := editDistance(lower, key, bestDist)
		if len(lower) >= 3 && strings.HasPrefix(key, lower) {
			d = min(d, 1)
		}
		if d < bestDist && 3*d <= len(lower) {
			best, bestDist = key, d
		}
	}
	return best
}

// editDistance is the number of single-byte insertions, deletions, substitutions and swaps of
// neighbours that turn a into b (optimal string alignment), or limit when it is at least limit:
// a 100 KB key costs no more than a short one.
func editDistance(a, b string, limit int) int {
	if len(a)-len(b) >= limit || len(b)-len(a) >= limit {
		return limit
	}
	// rows[i%3][j] is the distance between a[:i] and b[:j].
	var rows [3][]int
	for r := range rows {
		rows[r] = make([]int, len(b)+1)
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur, prev, prev2 := rows[i%3], rows[(i-1)%3], rows[(i+1)%3]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
	}
	return min(rows[len(a)%3][len(b)], limit)
}

// BareMillis reports whether key reads v as a number of milliseconds: a duration key given a
// bare decimal, such as budget=20 (20ms, not 20 s). A form says so beside the field.
func BareMillis(key, v string) bool {
	i := slices.IndexFunc(keyTable(), func(k keyRow) bool { return k.Name == key })
	return i >= 0 && keyTable()[i].Duration && policy.BareNumber(v)
}
