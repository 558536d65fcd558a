/**
 * The last outcome of each property run in this session, keyed by file and test path: what the diagnostics,
 * quick fixes, Test Explorer and the Debug command read; and the diagnostics' text for a failure (pure, so tested
 * in Node).
 */
import type { FailureReport } from "../shared/protocol.ts";

export interface StoredFailure {
  readonly file: string;
  readonly testPath: readonly string[];
  readonly failure: FailureReport;
}

export function failureKey(file: string, testPath: readonly string[]): string {
  return `${file}\u0000${testPath.join("\u0000")}`;
}

export class FailureStore {
  private readonly byKey = new Map<string, StoredFailure>();
  private readonly listeners = new Set<(file: string) => void>();

  set(file: string, testPath: readonly string[], failure: FailureReport | undefined): void {
    const key = failureKey(file, testPath);
    if (failure === undefined) this.byKey.delete(key);
    else this.byKey.set(key, { file, testPath, failure });
    for (const l of this.listeners) l(file);
  }

  get(file: string, testPath: readonly string[]): StoredFailure | undefined {
    return this.byKey.get(failureKey(file, testPath));
  }

  inFile(file: string): StoredFailure[] {
    return [...this.byKey.values()].filter((f) => f.file === file);
  }

  onDidChange(listener: (file: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/**
 * A failure in a few lines, for the diagnostic on the property: the minimal example (a property's arguments, or a
 * machine's steps with the Explanation and the state at the failing step) and the error it ends with.
 */
export function failureSummary(f: FailureReport): string {
  const error = `${f.error.name}: ${f.error.message}`;
  const p = f.presentation;
  if (p.kind !== "steps") return `Property fails. Minimal example: ${f.repro}\n${error}`;
  const lines = ["Machine fails. Minimal steps:", ...f.repro.split("\n").map((l) => `  ${l}`)];
  if (p.explanation !== undefined) lines.push(p.explanation);
  if (p.state !== undefined) lines.push(`State at the failing step: ${p.state}`);
  lines.push(error);
  return lines.join("\n");
}

/** For the diagnostic on the failing invariant's or rule's method: which test's minimal steps fail there, and how. */
export function failingMethodSummary(f: StoredFailure): string {
  const p = f.failure.presentation;
  const where =
    p.kind === "steps" && p.explanation !== undefined
      ? p.explanation
      : "Explanation: the machine's minimal steps fail here";
  return `${where} (machine test "${f.testPath.join(" › ")}")\n${f.failure.error.name}: ${f.failure.error.message}`;
}

/** A fenced Markdown code block that no backtick run in `text` can close early. */
function fence(text: string, lang = ""): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = "`".repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** The Test Explorer's message for a failure (Markdown): the minimal example, the error and the seed. */
export function failureMarkdown(f: FailureReport): string {
  const error = `${f.error.name}: ${f.error.message}`;
  const p = f.presentation;
  if (p.kind !== "steps")
    return `**Minimal failing example:** \`${f.repro}\`\n\n\`\`\`\n${error}\n\`\`\`\n\nseed ${f.seed}`;
  const parts = ["**Minimal failing steps:**", fence(f.repro, "ts")];
  if (p.explanation !== undefined) parts.push(p.explanation);
  if (p.state !== undefined) parts.push(`State at the failing step:\n\n${fence(p.state)}`);
  parts.push(fence(error), `seed ${f.seed}`);
  return parts.join("\n\n");
}
