/**
 * The run header: the property's title, a status badge (running · phase, or the outcome), seed and the pass
 * running now. The status line is the panel's one live region, so screen readers hear outcomes, not every
 * frame's numbers.
 */
import type { PanelState } from "../model.ts";
import { attr, part, type Sel, text } from "./dom.ts";

/** `starting`: the title of the run that opened the panel, shown as starting until its messages arrive. */
export function drawHeader(host: Sel, s: PanelState, starting?: string): void {
  const r = s.run;
  const opening = r.status === "idle" && starting !== undefined;
  part(host, "h1", "title").call(text, opening ? starting : r.title || "Shrinkscope");
  const status = opening
    ? "running · starting"
    : r.status === "idle"
      ? "idle"
      : r.status === "running"
        ? `running · ${r.phase || "starting"}`
        : r.status;
  part(host, "span", "badge", (b) => b.call(attr, "role", "status").call(attr, "aria-live", "polite"))
    .call(attr, "class", `badge ${opening ? "running" : r.status}`)
    .call(text, status);
  const bits = [
    r.via !== "" ? `via ${r.via}` : "",
    r.seed !== undefined ? `seed ${r.seed}` : "",
    r.status === "running" && s.progress.currentPass ? `pass: ${s.progress.currentPass}` : "",
    s.stats.dropped > 0 ? `${s.stats.dropped} cases summarised` : "",
  ].filter((x) => x !== "");
  part(host, "span", "meta").call(text, bits.join(" · "));
}
