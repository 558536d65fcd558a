// How the library-comparison benches print: markdown tables, rounded figures, and the command that made them
// (so a table pasted into the README carries its own provenance).

export const num = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "—");

/** A rate with k / M suffixes. */
export function rate(x) {
  if (!Number.isFinite(x)) return "—";
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(x >= 1e4 ? 0 : 1)} k`;
  return x.toFixed(0);
}

export const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "—");

export function table(header, rows) {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

/** `npm run SCRIPT -- args` when npm started this bench through that script, else `node FILE args`. */
export function commandLine(npmScript, file) {
  const args = process.argv.slice(2);
  return process.env.npm_lifecycle_event === npmScript
    ? `npm run ${npmScript}${args.length ? ` -- ${args.join(" ")}` : ""}`
    : `node ${file}${args.length ? ` ${args.join(" ")}` : ""}`;
}
