"""Modern Hypothesis's mean shrink calls on the shrinking challenges, measured live (docs/benchmarks.md).

The same challenges as definitions.mjs, with the same strategy bounds, over seeds 0..N-1 with the database
off and at most 1000 examples. Shrink calls = calls of the test function after the first failing one, less
the final replay Hypothesis makes to report the minimal example. Only the generate and shrink phases run
(no explain phase: it would add calls that are not shrinking). Prints one JSON object:
{"version": "...", "seeds": N, "results": {name: {"mean": calls, "ideal": k, "found": k}}}.

    python3 bench/challenges/hypothesis_calls.py [--seeds 20] [--only reverse,coupling]
"""
import argparse
import json
import math

from hypothesis import Phase, assume, given, seed, settings, strategies as st
import hypothesis


def to_int16(x):
    return ((x + 32768) & 0xFFFF) - 32768


def sum16(xs):
    acc = 0
    for x in xs:
        acc = to_int16(acc + x)
    return acc


INT16 = st.integers(-32768, 32767)
BOUND5_LIST = st.lists(INT16).filter(lambda xs: sum16(xs) < 256)


def bound5_ideal(p):
    non_empty = sorted(repr(xs) for xs in p if xs)
    return len(p) == 5 and non_empty == ["[-1]", "[-32768]"]


def deletion_fails(ls, i):
    assume(i < len(ls))
    return ls[i] in ls[:i] + ls[i + 1 :]


# name: (strategies, fails(*args), is_ideal(args))
CHALLENGES = {
    "bound5": (
        [st.tuples(*[BOUND5_LIST] * 5)],
        lambda p: sum16([x for xs in p for x in xs]) >= 5 * 256,
        lambda a: bound5_ideal(a[0]),
    ),
    "large_union_list": (
        [st.lists(st.lists(st.integers()))],
        lambda ls: len({x for xs in ls for x in xs}) >= 5,
        lambda a: a == ([[0, 1, -1, 2, -2]],),
    ),
    "reverse": ([st.lists(st.integers())], lambda xs: xs[::-1] != xs, lambda a: a == ([0, 1],)),
    "lengthlist": (
        [st.integers(1, 100).flatmap(lambda n: st.lists(st.integers(0, 1000), min_size=n, max_size=n))],
        lambda xs: max(xs) >= 900,
        lambda a: a == ([900],),
    ),
    "difference_zero": (
        [st.integers(min_value=1), st.integers(min_value=1)],
        lambda a, b: a >= 10 and a == b,
        lambda a: a == (10, 10),
    ),
    "difference_small": (
        [st.integers(min_value=1), st.integers(min_value=1)],
        lambda a, b: a >= 10 and 1 <= abs(a - b) <= 4,
        lambda a: a == (10, 6),
    ),
    "difference_one": (
        [st.integers(min_value=1), st.integers(min_value=1)],
        lambda a, b: a >= 10 and abs(a - b) == 1,
        lambda a: a == (10, 9),
    ),
    "coupling": (
        [st.lists(st.integers(0, 10)).filter(lambda xs: all(v < len(xs) for v in xs))],
        lambda xs: any(i != j and xs[j] == i for i, j in enumerate(xs)),
        lambda a: a == ([1, 0],),
    ),
    "deletion": ([st.lists(st.integers()), st.integers(0, 10)], deletion_fails, lambda a: a == ([0, 0], 0)),
    "distinct": (
        [st.lists(st.integers())],
        lambda xs: len(set(xs)) >= 3,
        lambda a: a in (([0, 1, -1],), ([0, 1, 2],)),
    ),
    "replacement": (
        [st.integers(1, 100000), st.lists(st.integers(1, 10))],
        lambda n, ps: n * math.prod(ps) >= 10**6,
        lambda a: a == (100000, [10]),
    ),
}


class Falsified(Exception):
    pass


def run(name, s):
    strategies, fails, is_ideal = CHALLENGES[name]
    state = {"calls": 0, "first": None, "last": None}

    @seed(s)
    @settings(database=None, max_examples=1000, deadline=None, phases=[Phase.generate, Phase.shrink], report_multiple_bugs=False)
    @given(st.tuples(*strategies))
    def test(args):
        state["calls"] += 1
        if fails(*args):
            if state["first"] is None:
                state["first"] = state["calls"]
            state["last"] = args
            raise Falsified()

    try:
        test()
    except Falsified:
        # The last failing call is the final replay of the minimal example.
        return state["calls"] - state["first"] - 1, is_ideal(state["last"])
    return None, False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--only", default="")
    opts = parser.parse_args()
    names = [n for n in opts.only.split(",") if n] or list(CHALLENGES)
    results = {}
    for name in names:
        calls = []
        ideal = 0
        for s in range(opts.seeds):
            c, ok = run(name, s)
            if c is not None:
                calls.append(c)
                ideal += ok
        results[name] = {"mean": sum(calls) / len(calls) if calls else None, "ideal": ideal, "found": len(calls)}
    print(json.dumps({"version": hypothesis.__version__, "seeds": opts.seeds, "results": results}))


if __name__ == "__main__":
    main()
