/**
 * The panel's HTML, pure (unit-tested without VS Code): a strict CSP — nothing but the nonce'd script, the
 * extension's own styles, images and fonts, and the fold's worker from a blob: URL — and, when a run opens the
 * panel, that run's title from the first paint (the script shows it until the run's messages arrive) rather
 * than the idle text. Every value written into the page is escaped.
 */
export interface PanelPage {
  readonly nonce: string;
  /** The webview's URIs of dist/webview.js and media/panel.css, and its CSP source. */
  readonly script: string;
  readonly style: string;
  readonly cspSource: string;
  /** The title of the run that opens the panel. */
  readonly starting?: string;
}

export function panelHtml(p: PanelPage): string {
  const csp = [
    "default-src 'none'",
    `style-src ${p.cspSource}`,
    `script-src 'nonce-${p.nonce}'`,
    `img-src ${p.cspSource} data:`,
    `font-src ${p.cspSource}`,
    // The panel folds its messages in a worker started from its own script's text (webview/fold.ts).
    "worker-src blob:",
  ].join("; ");
  const starting = p.starting === undefined ? "" : ` data-starting="${escapeHtml(p.starting)}"`;
  const text = p.starting === undefined ? "Run a property to see it here." : `Starting ${escapeHtml(p.starting)}…`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(p.style)}">
<title>Shrinkscope</title>
</head>
<body>
<main id="app" aria-live="polite"${starting}><p class="muted">${text}</p></main>
<script nonce="${escapeHtml(p.nonce)}" src="${escapeHtml(p.script)}"></script>
</body>
</html>`;
}

/** Text for HTML content and attribute values. */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
