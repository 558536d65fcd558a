"""The ledger and LRU state machines of bench/machines/ (ledger.mjs, lru.mjs) in Hypothesis, for bench/stateful.mjs.

Same systems, models, rules and invariants as the JavaScript fixtures; each machine runs on seeds 1..N with
@seed(n) and settings(database=None, max_examples=100, stateful_step_count=50, deadline=None), with every phase
but "explain": that phase traces coverage (several times slower on Python 3.11) to print which lines only the
failing example ran; it comes after shrinking (on these machines, with and without it, the same minimal examples
and the same machine runs after the first failure). Hypothesis's storage
(its constants cache) goes to a temporary folder, removed at the end, not to ./.hypothesis. Per seed it records:
  found         -- the machine failed at all;
  normal        -- the final steps are exactly the normal form (the rule calls Hypothesis prints, with keyword
                   arguments in any order; its invariant and teardown lines are left out of the comparison);
  shrink_runs   -- test cases Hypothesis ran in its shrink phase (its observability callbacks; None when this
                   Hypothesis has no add_observability_callback);
  runs_after    -- machine constructions after the one whose run first failed (shrinking, then Hypothesis's
                   replays of the minimal example), counted by the machines themselves.
Prints one JSON object on stdout: {"hypothesis": version, "python": version, "fixtures": {name: [per seed]}}.

Usage: python3 bench/machines/hypothesis_machines.py [--seeds N] [--only ledger,lru]
"""

import json
import re
import shutil
import sys
import tempfile

import hypothesis
from hypothesis import Phase, seed, settings, strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

try:
    from hypothesis.internal import observability
    from hypothesis.internal.observability import add_observability_callback, remove_observability_callback

    # Only the phase of each test case is wanted: no per-case coverage tracing (it would slow every case).
    observability.OBSERVABILITY_COLLECT_COVERAGE = False
except ImportError:  # older Hypothesis: no per-phase counts, constructions only
    add_observability_callback = remove_observability_callback = None

SETTINGS = settings(
    database=None,
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    phases=[p for p in Phase if p.name != "explain"],
)


class Counts:
    def __init__(self):
        self.reset()

    def reset(self):
        self.constructions = 0
        self.first_failure_at = None

    def failed(self):
        if self.first_failure_at is None:
            self.first_failure_at = self.constructions


# ------------------------------------------------------------------------------------------------ the ledger

ledger_counts = Counts()


class Ledger:
    def __init__(self):
        self.balances = {}

    def open(self, name):
        self.balances.setdefault(name, 100)

    def transfer(self, src, dst, amount):
        self.balances[src] -= amount
        # The bug: a transfer to the same account credits it twice.
        self.balances[dst] += amount + (amount if src == dst else 0)

    def total(self):
        return sum(self.balances.values())


class LedgerModel:
    def __init__(self):
        self.balances = {}

    def open(self, name):
        self.balances.setdefault(name, 100)

    def total(self):
        return sum(self.balances.values())


class AccountRef:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"AccountRef({self.name!r})"


class LedgerMachine(RuleBasedStateMachine):
    accounts = Bundle("accounts")

    def __init__(self):
        super().__init__()
        ledger_counts.constructions += 1
        self.ledger = Ledger()
        self.model = LedgerModel()

    @rule(target=accounts, name=st.sampled_from(["a", "b", "c", "d"]))
    def open(self, name):
        self.ledger.open(name)
        self.model.open(name)
        return AccountRef(name)

    @rule(src=accounts, dst=accounts, amount=st.integers(min_value=0, max_value=100))
    def transfer(self, src, dst, amount):
        self.ledger.transfer(src.name, dst.name, amount)

    @invariant()
    def totalsMatch(self):
        if self.ledger.total() != self.model.total():
            ledger_counts.failed()
        assert self.ledger.total() == self.model.total()

    def teardown(self):
        pass


LEDGER_NORMAL_FORM = ["accounts_0 = state.open(name='a')", "state.transfer(amount=1, dst=accounts_0, src=accounts_0)"]

# ------------------------------------------------------------------------------------------------ the LRU cache

lru_counts = Counts()
CAPACITY = 2


class LruCache:
    """Entries in a dict, least recently used first (a dict keeps insertion order)."""

    def __init__(self, capacity=CAPACITY):
        self.capacity = capacity
        self.entries = {}

    def put(self, key, value):
        if key in self.entries:
            del self.entries[key]
        elif len(self.entries) >= self.capacity:
            del self.entries[next(iter(self.entries))]
        self.entries[key] = value

    def get(self, key):
        # The bug: reading a key does not make it the most recently used.
        return self.entries.get(key)

    def keys(self):
        return list(self.entries)


class LruModel:
    def __init__(self, capacity=CAPACITY):
        self.capacity = capacity
        self.map = {}

    def put(self, key, value):
        self.map.pop(key, None)
        self.map[key] = value
        if len(self.map) > self.capacity:
            del self.map[list(self.map)[0]]

    def get(self, key):
        if key not in self.map:
            return None
        value = self.map.pop(key)
        self.map[key] = value
        return value

    def keys(self):
        return list(self.map)


K = st.integers(min_value=0, max_value=9).map(str)


class LruMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        lru_counts.constructions += 1
        self.cache = LruCache(CAPACITY)
        self.model = LruModel(CAPACITY)

    @rule(key=K, value=st.integers(min_value=0, max_value=100))
    def put(self, key, value):
        self.cache.put(key, value)
        self.model.put(key, value)

    @rule(key=K)
    def get(self, key):
        self.cache.get(key)
        self.model.get(key)

    @invariant()
    def keysMatch(self):
        if sorted(self.cache.keys()) != sorted(self.model.keys()):
            lru_counts.failed()
        assert sorted(self.cache.keys()) == sorted(self.model.keys())


LRU_NORMAL_FORM = [
    "state.put(key='0', value=0)",
    "state.put(key='1', value=0)",
    "state.get(key='0')",
    "state.put(key='2', value=0)",
]

FIXTURES = {
    "ledger": (LedgerMachine, ledger_counts, LEDGER_NORMAL_FORM, ["totalsMatch"]),
    "lru": (LruMachine, lru_counts, LRU_NORMAL_FORM, ["keysMatch"]),
}

# ------------------------------------------------------------------------------------------------ running

CALL = re.compile(r"^(?:(\w+) = )?state\.(\w+)\((.*)\)$")


def normalize(line):
    """A printed rule call with its keyword arguments sorted, so that their order does not matter."""
    m = CALL.match(line.strip())
    if m is None:
        return line.strip()
    target, name, args = m.groups()
    parts = sorted(p.strip() for p in args.split(",")) if args.strip() else []
    return f"{target + ' = ' if target else ''}state.{name}({', '.join(parts)})"


def rule_calls(lines, skip):
    """The rule calls among the printed steps: no `state = ...`, invariant or teardown lines."""
    out = []
    for line in lines:
        m = CALL.match(line.strip())
        if m is None or m.group(2) in skip or m.group(2) == "teardown":
            continue
        out.append(normalize(line))
    return out


def run_one(name, n):
    Machine, counts, normal_form, invariants = FIXTURES[name]
    counts.reset()
    phases = {}

    def observe(obs, *_):
        how = getattr(obs, "how_generated", None) or ""
        if getattr(obs, "type", None) == "test_case" and how.startswith("during "):
            phase = how[len("during "):].split(" phase")[0]
            phases[phase] = phases.get(phase, 0) + 1

    seed(n)(Machine)
    if add_observability_callback is not None:
        add_observability_callback(observe)
    steps = None
    error = None
    try:
        run_state_machine_as_test(Machine, settings=SETTINGS)
    except AssertionError as e:
        notes = getattr(e, "__notes__", None) or []
        steps = [line for line in notes if line.strip() and not line.startswith("Falsifying")]
    except Exception as e:  # anything else (Flaky, a health check) is reported, not hidden
        error = f"{type(e).__name__}: {e}"
    finally:
        if remove_observability_callback is not None:
            remove_observability_callback(observe)
    found = steps is not None
    calls = rule_calls(steps, set(invariants)) if found else None
    return {
        "seed": n,
        "found": found,
        "normal": found and calls == [normalize(s) for s in normal_form],
        "steps": steps,
        "shrink_runs": phases.get("shrink", 0) if add_observability_callback is not None and found else None,
        "runs_after": counts.constructions - counts.first_failure_at if counts.first_failure_at is not None else None,
        "error": error,
    }


def main(argv):
    seeds = 20
    only = list(FIXTURES)
    i = 0
    while i < len(argv):
        if argv[i] == "--seeds":
            seeds = int(argv[i + 1])
            i += 2
        elif argv[i] == "--only":
            only = [s for s in argv[i + 1].split(",") if s in FIXTURES]
            i += 2
        else:
            raise SystemExit(f"unknown argument {argv[i]}")
    home = tempfile.mkdtemp(prefix="shrinkscope-bench-hypothesis-")
    set_hypothesis_home_dir(home)
    try:
        out = {
            "hypothesis": hypothesis.__version__,
            "python": sys.version.split()[0],
            "settings": "database=None, max_examples=100, stateful_step_count=50, deadline=None, explain phase off",
            "fixtures": {name: [run_one(name, n) for n in range(1, seeds + 1)] for name in only},
        }
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
