/**
 * The Steps view (machine runs only): the sequence as the statements of its repro, `const state = new M();`
 * then one row per call, each beside its block of choice cells (drawn by sequence.ts, the choice-sequence
 * view's own drawing), then the failing step marked, the Explanation and the machine's state.
 *
 * While shrinking, rows are joined by step id: a step the shrinker deleted fades out, a step it simplified keeps
 * its row and flashes once, and the caption says how many steps the sequence lost since the last drawing
 * ("−3 steps"). Changes closer together than ANIMATE_GAP_MS are drawn without motion, so a burst of shrinks is
 * a calm sequence of frames rather than a blur; the user's reduced-motion preference turns motion off.
 *
 * Everything from the run is set as text (textContent through d3's .text), never as markup; layout values go
 * through the CSSOM, which the panel's CSP allows.
 */
import { select } from "d3-selection";
import "d3-transition";
import type { PanelState } from "../model.ts";
import type { DrawnSteps, StepRowLayout } from "../layout/steps.ts";
import { layoutSteps } from "../layout/steps.ts";
import { drawSequence } from "./sequence.ts";
import { motion, part, type Sel } from "./dom.ts";

const ANIMATE_GAP_MS = 600;

const drawnBefore = new WeakMap<Element, DrawnSteps & { at: number }>();

/** The row's parts, made once when it enters: the number, the statement (code, "fails here", note), the cells. */
function makeRow(li: HTMLLIElement): void {
  const n = li.appendChild(document.createElement("span"));
  n.className = "n";
  n.setAttribute("aria-hidden", "true");
  const stmt = li.appendChild(document.createElement("div"));
  stmt.className = "stmt";
  stmt.appendChild(document.createElement("code")).className = "code";
  const fails = stmt.appendChild(document.createElement("span"));
  fails.className = "fails";
  fails.textContent = "fails here";
  stmt.appendChild(document.createElement("span")).className = "note";
  li.appendChild(document.createElement("div")).className = "block";
}

function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Update one row, writing only what changed: while a run streams, a case's rows are redrawn a few times a
 * second and mostly keep their statements, and every DOM write costs a style invalidation.
 */
function drawRow(li: HTMLLIElement, d: StepRowLayout, animate: boolean, detail: (t: string) => void): void {
  const [n, stmt, block] = Array.from(li.children) as HTMLElement[];
  const [code, fails, note] = Array.from(stmt.children) as HTMLElement[];
  const before = li.dataset.code;
  // A kept step whose statement changed was simplified in place: flash it once.
  const changed = animate && before !== undefined && before !== d.code;
  const cls = `step ${d.kind}${d.failed ? " failed" : ""}${changed ? " changed" : ""}`;
  if (li.className !== cls) li.className = cls;
  if (li.getAttribute("aria-label") !== d.label) li.setAttribute("aria-label", d.label);
  setText(n, d.failed ? "✗" : d.n);
  if (before !== d.code || code.childElementCount !== d.tokens.length) {
    li.dataset.code = d.code;
    code.replaceChildren(
      ...d.tokens.map((t) => {
        const span = document.createElement("span");
        span.className = `tok ${t.kind}`;
        span.textContent = t.text;
        return span;
      }),
    );
  }
  code.hidden = d.tokens.length === 0;
  fails.hidden = !d.failed;
  setText(note, d.note);
  note.hidden = d.note === "";
  block.hidden = d.cells === undefined;
  if (d.cells !== undefined)
    drawSequence(select(block), d.cells, {
      label: d.kind === "choices" ? d.note : `Choices of ${d.label.split(":")[0]}`,
      animate,
      onDetail: detail,
    });
}

/**
 * A list longer than its box scrolls, and a fade at its bottom says there is more below: shown while the last
 * row is not wholly in view. An IntersectionObserver tells, without forcing a layout in the middle of a frame.
 */
const lastRowWatch = new WeakMap<HTMLOListElement, IntersectionObserver>();
function watchOverflow(ol: HTMLOListElement): void {
  if (typeof IntersectionObserver !== "function") return;
  let io = lastRowWatch.get(ol);
  if (io === undefined) {
    io = new IntersectionObserver(
      (entries) => {
        const last = entries[entries.length - 1];
        if (last !== undefined) ol.classList.toggle("overflowing", last.intersectionRatio < 0.99);
      },
      { root: ol, threshold: [0, 0.99] },
    );
    lastRowWatch.set(ol, io);
  }
  io.disconnect();
  const rows = ol.querySelectorAll<HTMLLIElement>(":scope > li:not(.leaving)");
  const last = rows[rows.length - 1];
  if (last !== undefined) io.observe(last);
  else ol.classList.remove("overflowing");
}

export function drawSteps(host: Sel, s: PanelState, width: number): void {
  const node = host.node();
  if (node === null) return;
  const before = drawnBefore.get(node);
  const lay = layoutSteps(s, width, before);
  const now = performance.now();
  if (lay === undefined) {
    host.attr("data-phase", null);
    return;
  }
  drawnBefore.set(node, { phase: lay.phase, calls: lay.calls, at: now });
  const animate = lay.animate && before !== undefined && now - before.at >= ANIMATE_GAP_MS && motion(1) > 0;
  const ms = animate ? motion(350) : 0;
  host.attr("data-phase", lay.phase);

  const head = part(host, "div", "steps-head");
  part(head, "h3", "caption").text(lay.caption);
  // "−n steps" stays until the next change of length (re-made then, so its fade starts again); it belongs to
  // shrinking only.
  const delta = part(head, "span", "delta");
  if (lay.phase !== "shrinking") delta.text("");
  else if (lay.delta !== "") {
    delta.remove();
    part(head, "span", "delta").text(lay.delta);
  }
  part(host, "p", "summary").text(lay.summary);
  const detail = part(host, "div", "detail", (d) =>
    d.attr("aria-live", "polite").text("Hover over or focus a cell to see its value, index and constraints."),
  );
  const onDetail = (t: string): void => void detail.text(t);

  const list = part(host, "ol", "steps-list", (l) => l.attr("aria-label", "Steps"));
  list
    .classed("stacked", lay.stacked)
    .style("--steps-cells", `${lay.cellsWidth}px`)
    .style("--steps-code", `${lay.codeChars}ch`);
  list
    .selectAll<HTMLLIElement, StepRowLayout>(":scope > li:not(.leaving)")
    .data(lay.rows, (d) => d.key)
    .join(
      (enter) => {
        const li = enter.append("li").each(function () {
          makeRow(this);
        });
        if (ms > 0) li.style("opacity", "0").transition().duration(ms).style("opacity", "1");
        return li;
      },
      (update) => update,
      (exit) => {
        if (ms === 0) return exit.remove();
        exit.classed("leaving", true).transition().duration(ms).style("opacity", "0").remove();
        return exit;
      },
    )
    .order()
    .each(function (d) {
      drawRow(this, d, animate, onDetail);
    });

  const ol = list.node();
  if (ol !== null) watchOverflow(ol);

  part(host, "p", "explanation")
    .attr("hidden", lay.explanation === undefined ? "" : null)
    .text(lay.explanation ?? "");
  const state = part(host, "div", "machine-state");
  state.attr("hidden", lay.state === undefined ? "" : null);
  part(state, "h3", "state-title").text("State at the failing step");
  part(state, "pre", "state-text")
    .attr("tabindex", "0")
    .text(lay.state ?? "");
}
