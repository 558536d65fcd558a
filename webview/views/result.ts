/**
 * The result view: the headline, the minimal example as highlighted TypeScript with Copy, Convert to test
 * and Debug, the error and its location (a link-styled button that opens it), and the runs of this session.
 * Buttons only post messages; the host does the work (and validates them).
 */
import type { WebviewMessage } from "../../src/shared/protocol.ts";
import type { ResultLayout, Token } from "../layout/result.ts";
import { attr, part, type Sel, text } from "./dom.ts";

type HistoryRow = ResultLayout["history"][number];

export function drawResult(host: Sel, lay: ResultLayout, post: (m: WebviewMessage) => void): void {
  host.call(attr, "data-state", lay.state);
  part(host, "p", "headline").call(text, lay.headline);
  const ex = part(host, "div", "example");
  ex.call(attr, "hidden", lay.repro === undefined ? "" : null);
  part(ex, "h3", "example-title").call(text, "Minimal example (TypeScript)");
  part(ex, "pre", "repro", (p) => p.call(attr, "tabindex", "0").append("code"))
    .call(attr, "aria-label", `Minimal failing ${lay.noun}`)
    .select("code")
    .selectAll<HTMLSpanElement, Token>("span")
    .data(lay.repro ?? [])
    .join("span")
    .call(attr, "class", (d) => `tok ${d.kind}`)
    .call(text, (d) => d.text);
  part(ex, "div", "buttons", (b) => {
    const buttons: [string, WebviewMessage, string][] = [
      ["Copy", { type: "copy-repro" }, "Copy the minimal example to the clipboard"],
      ["Convert to test", { type: "convert-to-test" }, "Write the minimal example as a regression test"],
      ["Debug", { type: "debug" }, "Replay the minimal example under the debugger"],
    ];
    for (const [label, message, title] of buttons)
      b.append("button")
        .call(attr, "type", "button")
        .call(attr, "class", message.type)
        .call(attr, "title", title)
        .call(text, label)
        .on("click", () => post(message));
  });
  // A replayed failure: why the run generated nothing and shrank little, and how to generate anew.
  const replayed = part(host, "div", "replayed", (d) => {
    d.append("p");
    d.append("button")
      .call(attr, "type", "button")
      .call(attr, "class", "run-fresh")
      .call(attr, "title", "Run the property again without replaying the saved failure")
      .call(text, "Run fresh")
      .on("click", () => post({ type: "run-fresh" }));
  });
  replayed.call(attr, "hidden", lay.replayed !== undefined ? null : "");
  replayed.select("p").call(text, lay.replayed ?? "");
  const err = part(host, "div", "failure");
  err.call(attr, "hidden", lay.error === undefined ? "" : null);
  part(err, "pre", "error").call(text, lay.error ?? "");
  const loc = lay.location;
  part(err, "button", "location", (b) =>
    b.call(attr, "type", "button").on("click", function () {
      const l = (this as HTMLButtonElement & { __loc?: typeof loc }).__loc;
      if (l) post({ type: "open-location", file: l.file, line: l.line, column: l.column });
    }),
  )
    .property("__loc", loc)
    .call(attr, "hidden", loc === undefined ? "" : null)
    .call(attr, "title", loc ? `Open ${loc.file}` : null)
    .call(text, loc ? `thrown at ${loc.label}` : "");
  part(err, "p", "warning")
    .call(attr, "hidden", lay.flaky ? null : "")
    .call(text, `Flaky: the same ${lay.noun} did not always give the same outcome, so this example is not minimal.`);

  const hist = part(host, "div", "history");
  part(hist, "h3", "history-title").call(text, `Runs this session (${lay.history.length})`);
  part(hist, "ol", "runs")
    .selectAll<HTMLLIElement, HistoryRow>("li")
    .data(lay.history, (d) => String(d.n))
    .join("li")
    .call(attr, "class", (d) => `${d.outcome}${d.current ? " current" : ""}`)
    .call(attr, "title", (d) => d.repro ?? "")
    .call(text, (d) => d.text)
    .order();
}
