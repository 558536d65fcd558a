/**
 * The sort-key comparison view: the latest shrink candidate aligned under the target it was compared with
 * (differing cells marked, the deciding position outlined), the comparison in words, the verdict and the pass
 * that proposed it; then the recent candidates of one pass, newest first, with a button per pass to switch.
 */
import type { CandidateRow, CandidatesModel } from "../models/candidates.ts";
import { layoutCandidateList, layoutComparison, LINE_H } from "../layout/comparison.ts";
import { CELL_H, CELL_W, summarise } from "../layout/sequence.ts";
import { drawSequence } from "./sequence.ts";
import { attr, classed, part, type Sel, text } from "./dom.ts";
import type { RunStatus } from "../model.ts";

const LABEL_W = 78;
/** Rows of the candidate list shown while a run streams: what its box (panel.css, max-height 220px) holds. */
const LIVE_ROWS = 12;

export interface ComparisonOptions {
  readonly selectedPass: string | undefined;
  readonly onSelectPass: (pass: string) => void;
  /** The run's status: an empty view says why it is empty. */
  readonly status: RunStatus;
}

/** Why there is no candidate to show, for a run in `status`. */
export function noCandidatesText(status: RunStatus): string {
  switch (status) {
    case "failed":
      return "No shrink candidates: the failing case had nothing simpler to try (it was already minimal).";
    case "passed":
      return "No shrink candidates: the property passed, so nothing was shrunk.";
    case "running":
    case "idle":
      return "No shrink candidates yet: the shrinker starts once a failing case is found.";
    default:
      return "No shrink candidates: the run ended before a failing case was found.";
  }
}

function verdictText(d: CandidateRow): string {
  return (
    (d.verdict === "accepted" ? "✓ accepted" : d.verdict === "not-simpler" ? "✗ not simpler" : `✗ ${d.verdict}`) +
    (d.cached ? " · cached" : "")
  );
}

export function drawComparison(host: Sel, m: CandidatesModel, width: number, opts: ComparisonOptions): void {
  const lay = layoutComparison(m, width - LABEL_W);
  const head = part(host, "div", "verdict-line");
  const detail = part(host, "div", "detail");
  // Made (hidden when empty) in this order on the first draw, so the parts keep their order.
  const aligned = part(host, "div", "aligned");
  const windowNote = part(host, "p", "window");
  const latest = m.latest;
  if (lay === undefined || latest === undefined) {
    head.call(text, noCandidatesText(opts.status));
    aligned.call(attr, "hidden", "");
    windowNote.call(text, "");
  } else {
    // (the "no candidates" sentence is a text node the spans' join would leave beside them)
    for (const n of [...head.node()!.childNodes]) if (n.nodeType === Node.TEXT_NODE) n.remove();
    head
      .selectAll<HTMLSpanElement, string>("span")
      .data([lay.pass, lay.comparison, lay.verdictText, lay.cached ? "cached (answered by the DataTree)" : ""])
      .join("span")
      .call(attr, "class", (_d, i) => ["pass", "comparison", `verdict ${lay.verdict}`, "cached"][i])
      .call(text, (d) => d);
    aligned.call(attr, "hidden", null);
    part(aligned, "div", "labels", (l) =>
      l
        .selectAll("div")
        .data(["target", "candidate"])
        .join("div")
        .call(text, (d) => d),
    );
    const body = part(aligned, "div", "rows");
    const summary = `target ${latest.target ? summarise(latest.target) : "none"}; candidate ${summarise(latest.candidate)}`;
    // Candidate keys are offset so the two rows' cells (keyed by position) never collide.
    const cells = [...lay.target, ...lay.candidate.map((c) => ({ ...c, key: c.key + 1e9 }))];
    const row = drawSequence(
      part(body, "div", "cells"),
      { cells, spans: [], width: width - LABEL_W, height: lay.height, more: 0, summary },
      { label: "Candidate aligned under the target", animate: false, onDetail: (t) => void detail.call(text, t) },
    );
    // The deciding column: one outline around both cells.
    part(row, "div", "decider")
      .style("transform", `translate(${lay.markX - 3}px,-3px)`)
      .style("width", `${CELL_W + 6}px`)
      .style("height", `${LINE_H + CELL_H + 6}px`)
      .call(attr, "hidden", lay.markX >= 0 ? null : "");
    const longest = Math.max(latest.candidate.cells.length, latest.target?.cells.length ?? 0);
    windowNote.call(
      text,
      lay.from > 0 || longest > lay.to ? `positions ${lay.from}–${Math.min(lay.to, longest) - 1} of ${longest}` : "",
    );
  }

  const list = layoutCandidateList(m, opts.selectedPass);
  // While a run streams the list is a ticker: the rows its box shows without scrolling, so a draw touches a
  // dozen rows rather than ROWS_PER_PASS; all of them once the run ends.
  const rows = opts.status === "running" ? list.rows.slice(0, LIVE_ROWS) : list.rows;
  const tabs = part(host, "div", "pass-tabs", (s) =>
    s.call(attr, "role", "toolbar").call(attr, "aria-label", "Show recent candidates of pass"),
  );
  tabs
    .selectAll<HTMLButtonElement, (typeof list.passes)[number]>("button")
    .data(list.passes, (d) => d.name)
    .join((enter) =>
      enter
        .append("button")
        .call(attr, "type", "button")
        .on("click", (_e, d) => opts.onSelectPass(d.name)),
    )
    .call(attr, "aria-pressed", (d) => String(d.selected))
    .call(classed, "selected", (d) => d.selected)
    .call(text, (d) => d.name);
  const ol = part(host, "ol", "candidates", (s) =>
    s.call(attr, "tabindex", "0").call(attr, "aria-label", "Recent candidates, newest first"),
  );
  // Rows are reused by position: while a run streams, each draw shows mostly new candidates, and rewriting a
  // row's three texts costs the frame far less than making and removing rows.
  ol.selectAll<HTMLLIElement, CandidateRow>("li")
    .data(rows)
    .join((enter) => {
      const li = enter.append("li");
      li.append("span").call(attr, "class", "seq");
      li.append("span").call(attr, "class", "comparison");
      li.append("span").call(attr, "class", "verdict");
      return li;
    })
    .each(function (d) {
      const [seq, comparison, verdict] = this.children as unknown as HTMLElement[];
      setText(seq, `#${d.seq}`);
      setText(comparison, d.comparison);
      setText(verdict, verdictText(d));
      const cls = `${d.verdict}${d.cached ? " cached" : ""}`;
      if (this.className !== cls) this.className = cls;
    });
}

/** Write a text only when it changed (an unchanged write would still invalidate the row's layout). */
function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
