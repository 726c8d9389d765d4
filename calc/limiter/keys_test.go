package limiter

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestEveryParamHasAKey fails for a field of Params that no Key sets, so that a new limiter's
// parameter has its key in this package (calc's key table draws its rows from Keys), and for
// two keys of one name or one field.
func TestEveryParamHasAKey(t *testing.T) {
	var p Params
	set := map[uintptr]string{} // field offset → key
	names := map[string]bool{}
	for _, k := range Keys() {
		var addr unsafe.Pointer
		switch {
		case k.Float != nil:
			addr = unsafe.Pointer(k.Float(&p))
		case k.Int != nil:
			addr = unsafe.Pointer(k.Int(&p))
		case k.Duration != nil:
			addr = unsafe.Pointer(k.Duration(&p))
		default:
			t.Errorf("%s sets no field", k.Name)
			continue
		}
		off := uintptr(addr) - uintptr(unsafe.Pointer(&p))
		if was, ok := set[off]; ok {
			t.Errorf("%s and %s set the same field", was, k.Name)
		}
		if names[k.Name] {
			t.Errorf("two keys are named %s", k.Name)
		}
		set[off], names[k.Name] = k.Name, true
		if k.Range.Hi < k.Range.Lo || k.Range.Most < k.Range.Least {
			t.Errorf("%s: an empty range %+v", k.Name, k.Range)
		}
	}
	typ := reflect.TypeFor[Params]()
	for i := range typ.NumField() {
		if f := typ.Field(i); set[f.Offset] == "" {
			t.Errorf("Params.%s has no Key", f.Name)
		}
	}
}
