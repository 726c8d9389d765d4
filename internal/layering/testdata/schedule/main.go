// A program that computes one schedule and nothing else: TestScheduleAlone checks what it links.
package main

import (
	"fmt"

	"backoffcalc/calc"
)

func main() {
	fmt.Println(len(calc.Default().Schedule().Rows))
}
