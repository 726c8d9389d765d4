package libs

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// ExportKey is the query key that picks the library the Export panel shows: export=grpc. It is
// the libraries' part of a link, so it is read here, by calc's rules (calc.DecodeKey), and calc
// knows nothing of it.
const ExportKey = "export"

// VsKey is the query key of a second policy, B, to compare with the link's own, A: its value is
// B's own query, percent-encoded, read from the defaults as Decode reads A's:
// vs=preset%3Daws-go-v2 or vs=base%3D1s%26cap%3D30s.
const VsKey = "vs"

// Link is a shared link as the page reads it: the policy, the library whose configuration
// the Export panel shows (a Library's Lib), and the policy to compare it with, if any.
type Link struct {
	Params calc.Params
	Export string
	// Vs is policy B's query as the link writes it (VsKey), "" when there is no B; B is B's
	// policy (with the default in place of a bad key of B's), zero when there is no B.
	Vs string
	B  calc.Params
}

// DecodeLink is Decode with the export key and B's. Without the export key, Export is
// DefaultExport of the policy; a bad one keeps that default and is a *policy.FieldError joined
// after Decode's: `calc: export "nope": must be one of grpc, cenkalti, …`. A bad key of B's is
// named as B's, "vs." and its key (`calc: vs.base "abc": …`), and leaves A as it is; so is every
// key of B's that is none of a policy's, as calc.UnknownKeys names it
// (`calc: vs.bse "1s": unknown key; did you mean base?`); a vs key given twice, empty, or whose
// percent-encoding is broken is an error on vs, and there is no B. Every other key is named
// last, as calc.UnknownKeys names it: `calc: bse "1s": unknown key; did you mean base?`.
func DecodeLink(query string) (Link, error) {
	p, err := Decode(query)
	l := Link{Params: p, Export: DefaultExport(p)}
	var errB error
	err = errors.Join(err, calc.DecodeKey(query, ExportKey, l.setExport), calc.DecodeKey(query, VsKey, l.setVs(&errB)), errB,
		calc.UnknownKeys(query, linkKeys...))
	return l, err
}

// DecodeLinkValues is DecodeLink for a form's inputs, as DecodeValues is for Decode.
func DecodeLinkValues(v url.Values) (Link, error) {
	p, err := DecodeValues(v)
	l := Link{Params: p, Export: DefaultExport(p)}
	var errB error
	err = errors.Join(err, calc.DecodeKeyValues(v, ExportKey, l.setExport), calc.DecodeKeyValues(v, VsKey, l.setVs(&errB)), errB,
		calc.UnknownKeyValues(v, linkKeys...))
	return l, err
}

// linkKeys are the keys of a link that are not calc's: the libraries' own. go-app's wasm key is
// not one: the page's app.js (app/js) never reads it, so wasm=false changes nothing and is named.
var linkKeys = []string{ExportKey, VsKey}

// setVs returns the decoder of B's query. B's own errors go to errB, each renamed as B's, its
// unknown keys among them: A's link may carry keys of others (export, vs, a tracker's), B's query
// has no reason to, and a key mistyped in B's box would otherwise be dropped without a word. The
// decoder itself only fails when calc.DecodeKey does (the key repeated, empty or broken), which
// names the key vs.
func (l *Link) setVs(errB *error) func(v string) error {
	return func(v string) error {
		b, err := calc.DecodeUnsampled(v, named...) // B has no sampled percentiles
		l.Vs, l.B = v, b
		var errs []error
		for _, fe := range policy.FieldErrors(errors.Join(err, calc.UnknownKeys(v))) {
			errs = append(errs, &policy.FieldError{Key: VsKey + "." + fe.Key, Value: fe.Value, Err: fe.Err})
		}
		*errB = errors.Join(errs...)
		return nil
	}
}

func (l *Link) setExport(v string) error {
	for _, x := range libraries {
		if x.Lib == v {
			l.Export = v
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", libraryNames)
}

var libraryNames = func() string {
	names := make([]string, len(libraries))
	for i, l := range libraries {
		names[i] = l.Lib
	}
	return strings.Join(names, ", ")
}()

// DefaultExport is the library the Export panel shows for p when the link does not say: the home
// of p's preset (HomeOf), else the first library, gRPC's.
func DefaultExport(p calc.Params) string {
	if lib, ok := HomeOf(p.Preset); ok {
		return lib
	}
	return libraries[0].Lib
}

// Values returns the keys of l that Encode writes: A's canonical keys (calc.Params.Values), the
// export key, and B's query as given, not made canonical: links stay short, and "copy A to B" on
// the page gives B A's canonical query.
func (l Link) Values() url.Values {
	v := l.Params.Values()
	v.Set(ExportKey, l.Export)
	if l.Vs != "" {
		v.Set(VsKey, l.Vs)
	}
	return v
}

// HasB says whether the link compares its policy with a second one.
func (l Link) HasB() bool { return l.Vs != "" }

// Encode returns the canonical query: calc's keys, the export key and B's, sorted. For a valid
// l, DecodeLink(l.Encode()) returns l.
func (l Link) Encode() string { return l.Values().Encode() }
