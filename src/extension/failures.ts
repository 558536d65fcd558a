/**
 * The last outcome of each property run in this session, keyed by file and test path: what the diagnostics,
 * quick fixes, Test Explorer and the Debug command read.
 */
import type { FailureReport } from "../protocol.ts";

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
