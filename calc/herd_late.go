package calc

// lateKey is an attempt added to the window being run, and where its client is in the batch.
type lateKey struct {
	key  uint64
	slot int
}

// pushLate adds k to the min-heap h.
func pushLate(h []lateKey, k lateKey) []lateKey {
	h = append(h, k)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].key <= k.key {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = k
	return h
}

// popLate removes the least key, h[0], from the min-heap h.
func popLate(h []lateKey) []lateKey {
	n := len(h) - 1
	k := h[n]
	h = h[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].key < h[c].key {
			c++
		}
		if k.key <= h[c].key {
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
