package eventq

// Late is an event made for the window being run, and where its owner is in the caller's
// batch (the herd's; 0 where the caller keeps none).
type Late struct {
	Key  uint64
	Slot int
}

// PushLate adds k to the min-heap h.
func PushLate(h []Late, k Late) []Late {
	h = append(h, k)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].Key <= k.Key {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = k
	return h
}

// PopLate removes the least key, h[0], from the min-heap h.
func PopLate(h []Late) []Late {
	n := len(h) - 1
	k := h[n]
	h = h[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].Key < h[c].Key {
			c++
		}
		if k.Key <= h[c].Key {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = k
	}
	return h
}
