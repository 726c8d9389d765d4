package libs

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"backoffcalc/calc"
)

// ExportKey is the query key that picks the library the Export panel shows: export=grpc. It is
// the libraries' part of a link, so it is read here, by calc's rules (calc.DecodeKey), and calc
// knows nothing of it.
const ExportKey = "export"

// Link is a shared link as the page reads it: the policy, and the library whose configuration
// the Export panel shows (a Library's Lib).
type Link struct {
	Params calc.Params
	Export string
}

// DecodeLink is Decode with the export key. Without the key, Export is DefaultExport of the
// policy; a bad one keeps that default and is a *calc.FieldError joined after Decode's:
// `calc: export "nope": must be one of grpc, cenkalti, …`.
func DecodeLink(query string) (Link, error) {
	p, err := Decode(query)
	l := Link{Params: p, Export: DefaultExport(p)}
	err = errors.Join(err, calc.DecodeKey(query, ExportKey, l.setExport))
	return l, err
}

// DecodeLinkValues is DecodeLink for a form's inputs, as DecodeValues is for Decode.
func DecodeLinkValues(v url.Values) (Link, error) {
	p, err := DecodeValues(v)
	l := Link{Params: p, Export: DefaultExport(p)}
	err = errors.Join(err, calc.DecodeKeyValues(v, ExportKey, l.setExport))
	return l, err
}

func (l *Link) setExport(v string) error {
	for _, x := range exporters {
		if x.Lib == v {
			l.Export = v
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", libNames)
}

var libNames = func() string {
	names := make([]string, len(exporters))
	for i, x := range exporters {
		names[i] = x.Lib
	}
	return strings.Join(names, ", ")
}()

// DefaultExport is the library the Export panel shows for p when the link does not say: the home
// of p's preset (HomeOf), else the first library, gRPC's.
func DefaultExport(p calc.Params) string {
	if lib, ok := HomeOf(p.Preset); ok {
		return lib
	}
	return exporters[0].Lib
}

// Values returns every key of l, as Encode writes them.
func (l Link) Values() url.Values {
	v := l.Params.Values()
	v.Set(ExportKey, l.Export)
	return v
}

// Encode returns the canonical query: calc's keys and the export key, sorted. For a valid l,
// DecodeLink(l.Encode()) returns l.
func (l Link) Encode() string { return l.Values().Encode() }
