/**
 * Shrink passes that know a machine's sequence (machine.ts records the trace they read on every case).
 *
 * The generic passes already delete step spans and lower rule indices, but a step's choices mean something
 * only against the steps before it: a bundle draw is an index into the values produced so far, a rule index is
 * a position among the rules applicable (and enabled) now. Deleting a step that produced a value shifts every
 * later index into that bundle, so a plain deletion makes later steps pick other values or other rules, and
 * usually stops failing. These passes rebuild the choices of the whole sequence from the trace instead, so
 * that the edited sequence calls the same rules on the same values:
 *
 * - "delete steps": each step, last first, deleted with every later reference re-pointed — to the value that
 *   came before the deleted one in its bundle — or, as a second candidate, with the steps that used the
 *   deleted value dropped too.
 * - "enable rules": each swarm flag that disabled a rule turned back on, rule indices recomputed so the steps
 *   still call the rules they called (swarm flags shrink toward all-enabled without scrambling the steps).
 * - "fold steps" (a fallback: only when the others are stuck): a later step of the same rule deleted, its one
 *   integer argument added to an earlier one's (`inc(1); mark(); inc(2)` → `inc(3); mark()`). A total that must
 *   stay large keeps its value with one step fewer; the generic passes get there only through a step lowered to
 *   a no-op, which a precondition or an assume() on the state in between (mark needs x ≥ 1) rejects.
 *
 * Relabelling (swapping two keys everywhere they occur) is generic, so it lives in the shrinker.
 * Preconditions are not modelled: a rebuilt candidate that no longer makes sense simply fails to reproduce
 * the failure and is rejected, like any candidate.
 */
import type { ChoiceValue, IntegerConstraints } from "../choice/types.ts";
import { permitted } from "../choice/domain.ts";
import type { DomainPass, ShrinkTarget } from "../core/shrinker.ts";
import { enoughEntries } from "./spec.ts";

export interface BundleDraw {
  /** Choice index of the draw. */
  readonly node: number;
  /** Bundle (index into the machine's bundles) and the entry drawn (its id in the sequence). */
  readonly bundle: number;
  readonly entry: number;
  readonly consumed: boolean;
}

export interface StepTrace {
  /** The step span's choices [start, end): the "another step?" flag at start, the rule index at ruleNode. */
  readonly start: number;
  readonly ruleNode: number;
  end: number;
  /** Index of the rule in the machine's rules. */
  readonly rule: number;
  /** The rules (indices) applicable at this step, swarm flags aside. */
  readonly open: readonly number[];
  draws: BundleDraw[];
  /** The entry id the step put into its target bundle, or -1. */
  produced: number;
}

export interface SequenceTrace {
  readonly steps: StepTrace[];
  /** Entry ids in each bundle after the initialize rules. */
  readonly initEntries: number[][];
  /** Choice index of the first swarm flag, or -1 (one rule: no flags). */
  swarmStart: number;
  /** The swarm flags: disabled[rule]. */
  readonly disabled: boolean[];
  /** Choice index where the steps begin. */
  stepsStart: number;
  end: number;
}

/** What the passes need of a machine. */
interface MachineShape {
  readonly rules: readonly { readonly needs: readonly number[]; readonly target: unknown }[];
  readonly bundles: readonly unknown[];
}

interface Edit {
  readonly deleted: ReadonlySet<number>;
  /** Drop the steps that used a deleted value (else re-point them). */
  readonly dropDependents: boolean;
  readonly disabled: readonly boolean[];
}

/**
 * The choices of the sequence with the edit applied, or undefined when it cannot be expressed (a kept step's
 * rule would no longer be applicable).
 */
export function rebuild(
  m: MachineShape,
  tr: SequenceTrace,
  values: readonly ChoiceValue[],
  edit: Edit,
): ChoiceValue[] | undefined {
  const out: ChoiceValue[] = values.slice(0, tr.swarmStart >= 0 ? tr.swarmStart : tr.stepsStart);
  if (tr.swarmStart >= 0)
    out.push(...edit.disabled, ...values.slice(tr.swarmStart + edit.disabled.length, tr.stepsStart));
  const lists = tr.initEntries.map((l) => l.slice());
  const targets = m.rules.map((r) => (r.target === undefined ? -1 : m.bundles.indexOf(r.target)));
  let changed = false;
  for (let si = 0; si < tr.steps.length; si++) {
    const s = tr.steps[si]!;
    if (edit.deleted.has(si)) {
      changed = true;
      continue;
    }
    const open = s.open.filter((r) => enoughEntries(m.rules[r]!.needs, (b) => lists[b]!.length));
    if (!open.includes(s.rule)) {
      if (!edit.dropDependents) return undefined;
      changed = true;
      continue;
    }
    let applicable = open.filter((r) => !edit.disabled[r]);
    if (applicable.length === 0) applicable = open;
    const ri = applicable.indexOf(s.rule);
    if (ri < 0) return undefined;
    const before = lists.map((l) => l.slice());
    const positions = new Map<number, number>();
    let drop = false;
    for (const d of s.draws) {
      const list = lists[d.bundle]!;
      let pos = list.indexOf(d.entry);
      if (pos < 0) {
        if (edit.dropDependents || list.length === 0) {
          drop = true;
          break;
        }
        // Re-point to the latest value produced before the deleted one (entry ids grow along the sequence).
        pos = 0;
        for (let i = list.length - 1; i >= 0; i--) {
          if (list[i]! < d.entry) {
            pos = i;
            break;
          }
        }
      }
      positions.set(d.node, pos);
      if (d.consumed) list.splice(pos, 1);
    }
    if (drop) {
      for (let b = 0; b < lists.length; b++) lists[b] = before[b]!;
      changed = true;
      continue;
    }
    out.push(values[s.start]!, ri);
    for (let i = s.ruleNode + 1; i < s.end; i++) out.push(positions.get(i) ?? values[i]!);
    if (s.produced >= 0 && targets[s.rule]! >= 0) lists[targets[s.rule]!]!.push(s.produced);
  }
  const last = tr.steps[tr.steps.length - 1];
  out.push(...values.slice(last === undefined ? tr.stepsStart : last.end));
  return changed || edit.disabled.some((d, i) => d !== tr.disabled[i]) ? out : undefined;
}

function traceOf(target: ShrinkTarget): SequenceTrace | undefined {
  const t = target.case?.trace as SequenceTrace | undefined;
  return t !== undefined && Array.isArray(t.steps) ? t : undefined;
}

function usedLater(tr: SequenceTrace, si: number): boolean {
  const id = tr.steps[si]!.produced;
  if (id < 0) return false;
  for (let j = si + 1; j < tr.steps.length; j++) if (tr.steps[j]!.draws.some((d) => d.entry === id)) return true;
  return false;
}

export function sequencePasses(m: MachineShape): DomainPass[] {
  return [
    {
      name: "delete steps",
      *candidates(target) {
        const tr = traceOf(target);
        if (tr === undefined) return;
        const values = target.nodes.map((n) => n.value);
        for (let si = tr.steps.length - 1; si >= 0; si--) {
          const deleted = new Set([si]);
          // Only where a plain span deletion would misread later steps: the generic pass covers the rest.
          const s = tr.steps[si]!;
          if (s.produced < 0 && !s.draws.some((d) => d.consumed)) continue;
          const a = rebuild(m, tr, values, { deleted, dropDependents: false, disabled: tr.disabled });
          if (a !== undefined) yield a;
          if (usedLater(tr, si)) {
            const b = rebuild(m, tr, values, { deleted, dropDependents: true, disabled: tr.disabled });
            if (b !== undefined) yield b;
          }
        }
      },
    },
    {
      name: "fold steps",
      fallback: true,
      *candidates(target) {
        const tr = traceOf(target);
        if (tr === undefined) return;
        const values = target.nodes.map((n) => n.value);
        // The position of a step's one integer argument, if that is all it draws (no bundle value).
        const only = (st: StepTrace): number | undefined => {
          if (st.draws.length > 0 || st.end - st.ruleNode !== 2) return undefined;
          const n = target.nodes[st.ruleNode + 1];
          return n !== undefined && n.type === "integer" && !n.forced ? st.ruleNode + 1 : undefined;
        };
        for (let j = tr.steps.length - 1; j > 0; j--) {
          const b = tr.steps[j]!;
          const kb = only(b);
          if (kb === undefined || b.produced >= 0) continue;
          for (let i = j - 1; i >= 0; i--) {
            const a = tr.steps[i]!;
            const ka = a.rule === b.rule ? only(a) : undefined;
            if (ka === undefined) continue;
            const sum = (values[ka] as number) + (values[kb] as number);
            if (!permitted("integer", sum, target.nodes[ka]!.constraints as IntegerConstraints)) continue;
            const c = rebuild(m, tr, values, { deleted: new Set([j]), dropDependents: false, disabled: tr.disabled });
            if (c === undefined) continue;
            c[ka] = sum;
            yield c;
            break;
          }
        }
      },
    },
    {
      name: "enable rules",
      *candidates(target) {
        const tr = traceOf(target);
        if (tr === undefined) return;
        const values = target.nodes.map((n) => n.value);
        for (let r = 0; r < tr.disabled.length; r++) {
          if (!tr.disabled[r]) continue;
          const disabled = tr.disabled.slice();
          disabled[r] = false;
          const c = rebuild(m, tr, values, { deleted: new Set(), dropDependents: false, disabled });
          if (c !== undefined) yield c;
        }
      },
    },
  ];
}
