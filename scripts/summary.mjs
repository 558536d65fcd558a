// The closing lines of `npm test` (scripts/test.mjs), from what its stages printed and how they exited. A
// stage that failed without a failing test — the unit runner crashing, the VS Code toolchain not installing —
// is named on a line of its own and not counted as a test: "2 failed" when no test failed misleads.

/**
 * @param {{ unit: { out: string, code: number }, e2e: { out: string, code: number } }} stages
 * @returns {{ passed: number, failed: number, stageFailures: string[], text: string, exitCode: number }}
 */
export function summarize({ unit, e2e }) {
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)`, "m").exec(unit.out)?.[1] ?? 0);
  let passed = count("pass");
  let failed = count("fail");
  const stageFailures = [];
  if (unit.code !== 0 && failed === 0)
    stageFailures.push(
      `the unit tests (node --test) exited with code ${unit.code} and no failing test: see their output above`,
    );
  const m = /^(\d+) passed, (\d+) failed$/m.exec(e2e.out);
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
    if (e2e.code !== 0 && Number(m[2]) === 0)
      stageFailures.push(
        `the VS Code e2e checks exited with code ${e2e.code} after they all passed: see their output above`,
      );
  } else {
    // What run-e2e.mjs says when it cannot start its checks (an install that failed, code-server missing).
    const said = /^vscode-e2e: ((?:VS Code toolchain install failed|code-server is not installed).*)$/m.exec(
      e2e.out,
    )?.[1];
    stageFailures.push(
      said ?? `the VS Code e2e checks exited with code ${e2e.code} before reporting: see their output above`,
    );
  }
  const text = [
    ...stageFailures.map((f) => `stage failed: ${f}`),
    "unit tests (node:test) and VS Code e2e checks together:",
    `${passed} passed, ${failed} failed`,
  ].join("\n");
  return { passed, failed, stageFailures, text, exitCode: failed > 0 || stageFailures.length > 0 ? 1 : 0 };
}
