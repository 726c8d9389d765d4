# Runs the published simulator's model (backoff_simulator.py, imported unchanged but for
# xrange->range and the __main__ guard) and prints per (clients, algorithm) the mean, the
# standard deviation and the standard error of calls and of completion time over runs.
# Usage: python3 contention-aws-driver.py SEED RUNS N... (backoff_simulator.py beside it)
import json, math, random, sys
import backoff_simulator as sim

class Null:
    def write(self, s): pass

def main():
    seed, runs, ns = int(sys.argv[1]), int(sys.argv[2]), [int(a) for a in sys.argv[3:]]
    random.seed(seed)
    out = []
    for n in ns:
        for cls, name in sim.backoff_types:
            calls, times = [], []
            for _ in range(runs):
                stats = sim.Stats()
                queue, stats = sim.setup_sim(n, cls, Null(), stats)
                times.append(sim.run_sim(queue))
                calls.append(stats.calls)
            row = {"clients": n, "algorithm": name, "runs": runs}
            for key, xs in (("calls", calls), ("time_ms", times)):
                m = sum(xs) / runs
                sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (runs - 1))
                row[key] = {"mean": m, "sd": sd, "se": sd / math.sqrt(runs)}
            out.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    print(json.dumps(out, indent=1))

main()
