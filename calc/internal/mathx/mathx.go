// Package mathx holds pure-Go Exp, Exp2 and Tanh, so that calc's decorrelatedv2 and the
// contention's normal draws give the same bits natively and in WebAssembly, and the uniform draw
// and the rounding to nanoseconds every model shares (draw.go): math.Exp is assembly
// on amd64 and pure Go under GOOS=js, and the two can differ in the last bit. These are ports of
// Go's own pure-Go code (src/math/exp.go and tanh.go), which is what math.Exp2 and math.Tanh run
// on amd64 and wasm, with one change: every product that meets a sum is rounded explicitly
// (float64(x*y)), because the Go spec lets a compiler fuse x*y+z into one FMA on some
// architectures, which would change the last bit again. math.Sqrt, math.Ldexp and the four
// operations are exact or correctly rounded everywhere.
package mathx

import "math"

// The notices below come with the original code.
//
// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be found in Go's LICENSE
// file: https://go.dev/LICENSE.
//
// exp and exp2 are from FreeBSD's /usr/src/lib/msun/src/e_exp.c, which came with this notice:
//
//	====================================================
//	Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
//
//	Permission to use, copy, modify, and distribute this
//	software is freely granted, provided that this notice
//	is preserved.
//	====================================================
//
// tanh is from the Cephes Math Library Release 2.8 (June 2000), Copyright 1984, 1987, 1989,
// 1992, 2000 by Stephen L. Moshier, whose readme at http://netlib.sandia.gov/cephes/ says: "Some
// software in this archive may be from the book _Methods and Programs for Mathematical
// Functions_ (Prentice-Hall or Simon & Schuster International, 1989) or from the Cephes
// Mathematical Library, a commercial product. In either event, it is copyrighted by the author.
// What you see here may be used freely but it comes with no support or guarantee."

// Exp returns e**x, with an error under 1 ulp (see Go's math/exp.go for the method).
func Exp(x float64) float64 {
	const (
		Ln2Hi = 6.93147180369123816490e-01
		Ln2Lo = 1.90821492927058770002e-10
		Log2e = 1.44269504088896338700e+00

		Overflow  = 7.09782712893383973096e+02
		Underflow = -7.45133219101941108420e+02
		NearZero  = 1.0 / (1 << 28) // 2**-28
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > Overflow: // handles +Inf
		return math.Inf(1)
	case x < Underflow: // handles -Inf
		return 0
	case -NearZero < x && x < NearZero:
		return 1 + x
	}
	// Reduce: x = k*ln2 + r, r computed as hi - lo for extra precision.
	var k int
	switch {
	case x < 0:
		k = int(float64(Log2e*x) - 0.5)
	case x > 0:
		k = int(float64(Log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*Ln2Hi)
	lo := float64(k) * Ln2Lo
	return expmulti(hi, lo, k)
}

// Exp2 returns 2**x, with an error under 1 ulp (see Go's math/exp.go).
func Exp2(x float64) float64 {
	const (
		Ln2Hi = 6.93147180369123816490e-01
		Ln2Lo = 1.90821492927058770002e-10

		Overflow  = 1.0239999999999999e+03
		Underflow = -1.0740e+03
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > Overflow: // handles +Inf
		return math.Inf(1)
	case x < Underflow: // handles -Inf
		return 0
	}
	// Reduce: x = k + t with |t| <= 1/2, exactly; 2**t = e**(t*ln2), t*ln2 = hi - lo.
	var k int
	switch {
	case x > 0:
		k = int(x + 0.5)
	case x < 0:
		k = int(x - 0.5)
	}
	t := x - float64(k)
	hi := t * Ln2Hi
	lo := -t * Ln2Lo
	return expmulti(hi, lo, k)
}

// expmulti returns e**r * 2**k where r = hi - lo and |r| <= ln(2)/2.
func expmulti(hi, lo float64, k int) float64 {
	const (
		P1 = 1.66666666666666657415e-01  /* 0x3FC55555; 0x55555555 */
		P2 = -2.77777777770155933842e-03 /* 0xBF66C16C; 0x16BEBD93 */
		P3 = 6.61375632143793436117e-05  /* 0x3F11566A; 0xAF25DE2C */
		P4 = -1.65339022054652515390e-06 /* 0xBEBBBD41; 0xC5D26BF1 */
		P5 = 4.13813679705723846039e-08  /* 0x3E663769; 0x72BEA4D0 */
	)
	r := hi - lo
	t := r * r
	c := r - float64(t*(P1+float64(t*(P2+float64(t*(P3+float64(t*(P4+float64(t*P5)))))))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

var tanhP = [...]float64{
	-9.64399179425052238628e-1,
	-9.92877231001918586564e1,
	-1.61468768441708447952e3,
}

var tanhQ = [...]float64{
	1.12811678491632931402e2,
	2.23548839060100448583e3,
	4.84406305325125486048e3,
}

// Tanh returns the hyperbolic tangent of x: a rational function for |x| < 0.625, else
// 1 - 2/(e**(2|x|) + 1), with the sign of x (see Go's math/tanh.go).
func Tanh(x float64) float64 {
	const MAXLOG = 8.8029691931113054295988e+01 // log(2**127)
	z := math.Abs(x)
	switch {
	case z > 0.5*MAXLOG:
		if x < 0 {
			return -1
		}
		return 1
	case z >= 0.625:
		s := Exp(2 * z)
		z = 1 - 2/(s+1)
		if x < 0 {
			z = -z
		}
	default:
		if x == 0 {
			return x
		}
		s := x * x
		p := float64(float64(float64(tanhP[0]*s)+tanhP[1])*s) + tanhP[2]
		q := float64(float64(float64((s+tanhQ[0])*s)+tanhQ[1])*s) + tanhQ[2]
		z = x + x*s*p/q
	}
	return z
}
