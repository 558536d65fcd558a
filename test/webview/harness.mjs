// The panel in a real headless Chromium, as VS Code would host it: the same HTML shape and CSP as
// src/extension/panel.ts (nonce'd script, stylesheets only from the resource origin, so any inline style the
// views tried to use would be blocked and reported), VS Code's theme classes and variables on the body, and
// a fake acquireVsCodeApi that records what the panel posts and keeps getState/setState in sessionStorage, so
// a reload restores state like a real webview reload. Shared by test/webview/render.test.ts and
// bench/panel-replay.mjs (plain JS so the benchmark runs without a TypeScript loader).
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { webviewBuildOptions } from "../../tools/webview-bundle.mjs";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Theme variables for the three kinds of VS Code theme (a subset of what VS Code defines; enough to see). */
const THEMES = {
  dark: {
    "--vscode-font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "--vscode-font-size": "13px",
    "--vscode-editor-font-family": "'DejaVu Sans Mono', monospace",
    "--vscode-editor-font-size": "13px",
    "--vscode-foreground": "#cccccc",
    "--vscode-descriptionForeground": "#9d9d9d",
    "--vscode-editor-background": "#1f1f1f",
    "--vscode-errorForeground": "#f85149",
    "--vscode-badge-background": "#616161",
    "--vscode-badge-foreground": "#f8f8f8",
    "--vscode-button-background": "#0078d4",
    "--vscode-button-foreground": "#ffffff",
    "--vscode-button-hoverBackground": "#026ec1",
    "--vscode-button-secondaryBackground": "#313131",
    "--vscode-button-secondaryForeground": "#cccccc",
    "--vscode-button-secondaryHoverBackground": "#3c3c3c",
    "--vscode-focusBorder": "#0078d4",
    "--vscode-panel-border": "#2b2b2b",
    "--vscode-widget-border": "#313131",
    "--vscode-textLink-foreground": "#4daafc",
    "--vscode-textLink-activeForeground": "#4daafc",
    "--vscode-textCodeBlock-background": "#2b2b2b",
    "--vscode-charts-blue": "#3794ff",
    "--vscode-charts-purple": "#b180d7",
    "--vscode-charts-green": "#89d185",
    "--vscode-charts-orange": "#d18616",
    "--vscode-charts-yellow": "#cca700",
    "--vscode-charts-red": "#f14c4c",
    "--vscode-testing-iconFailed": "#f14c4c",
    "--vscode-testing-iconPassed": "#73c991",
    "--vscode-editorWarning-foreground": "#cca700",
    "--vscode-list-activeSelectionBackground": "#04395e",
    "--vscode-list-activeSelectionForeground": "#ffffff",
    "--vscode-list-hoverBackground": "#2a2d2e",
    "--vscode-editorWidget-background": "#202020",
    "--vscode-inputValidation-warningBackground": "#352a05",
    "--vscode-debugTokenExpression-number": "#b5cea8",
    "--vscode-debugTokenExpression-string": "#ce9178",
    "--vscode-debugTokenExpression-boolean": "#4e94ce",
    "--vscode-debugTokenExpression-name": "#c586c0",
    "--vscode-disabledForeground": "#888888",
  },
  light: {
    "--vscode-font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "--vscode-font-size": "13px",
    "--vscode-editor-font-family": "'DejaVu Sans Mono', monospace",
    "--vscode-editor-font-size": "13px",
    "--vscode-foreground": "#3b3b3b",
    "--vscode-descriptionForeground": "#717171",
    "--vscode-editor-background": "#ffffff",
    "--vscode-errorForeground": "#f85149",
    "--vscode-badge-background": "#cccccc",
    "--vscode-badge-foreground": "#3b3b3b",
    "--vscode-button-background": "#005fb8",
    "--vscode-button-foreground": "#ffffff",
    "--vscode-button-hoverBackground": "#0258a8",
    "--vscode-button-secondaryBackground": "#e5e5e5",
    "--vscode-button-secondaryForeground": "#3b3b3b",
    "--vscode-button-secondaryHoverBackground": "#cccccc",
    "--vscode-focusBorder": "#005fb8",
    "--vscode-panel-border": "#e5e5e5",
    "--vscode-widget-border": "#e5e5e5",
    "--vscode-textLink-foreground": "#005fb8",
    "--vscode-textLink-activeForeground": "#005fb8",
    "--vscode-textCodeBlock-background": "#f8f8f8",
    "--vscode-charts-blue": "#1a85ff",
    "--vscode-charts-purple": "#652d90",
    "--vscode-charts-green": "#388a34",
    "--vscode-charts-orange": "#d18616",
    "--vscode-charts-yellow": "#bf8803",
    "--vscode-charts-red": "#e51400",
    "--vscode-testing-iconFailed": "#f14c4c",
    "--vscode-testing-iconPassed": "#388a34",
    "--vscode-editorWarning-foreground": "#bf8803",
    "--vscode-list-activeSelectionBackground": "#e8e8e8",
    "--vscode-list-activeSelectionForeground": "#000000",
    "--vscode-list-hoverBackground": "#f2f2f2",
    "--vscode-editorWidget-background": "#f8f8f8",
    "--vscode-inputValidation-warningBackground": "#f6f5d2",
    "--vscode-debugTokenExpression-number": "#098658",
    "--vscode-debugTokenExpression-string": "#a31515",
    "--vscode-debugTokenExpression-boolean": "#0000ff",
    "--vscode-debugTokenExpression-name": "#001080",
    "--vscode-disabledForeground": "#616161",
  },
  "high-contrast": {
    "--vscode-font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "--vscode-font-size": "13px",
    "--vscode-editor-font-family": "'DejaVu Sans Mono', monospace",
    "--vscode-editor-font-size": "13px",
    "--vscode-foreground": "#ffffff",
    "--vscode-descriptionForeground": "#ffffff",
    "--vscode-editor-background": "#000000",
    "--vscode-errorForeground": "#f48771",
    "--vscode-contrastBorder": "#6fc3df",
    "--vscode-badge-background": "#000000",
    "--vscode-badge-foreground": "#ffffff",
    "--vscode-button-background": "#000000",
    "--vscode-button-foreground": "#ffffff",
    "--vscode-button-border": "#6fc3df",
    "--vscode-button-secondaryBackground": "#000000",
    "--vscode-button-secondaryForeground": "#ffffff",
    "--vscode-focusBorder": "#f38518",
    "--vscode-panel-border": "#6fc3df",
    "--vscode-widget-border": "#6fc3df",
    "--vscode-textLink-foreground": "#21a6ff",
    "--vscode-textLink-activeForeground": "#21a6ff",
    "--vscode-textCodeBlock-background": "#000000",
    "--vscode-charts-blue": "#3794ff",
    "--vscode-charts-purple": "#b180d7",
    "--vscode-charts-green": "#89d185",
    "--vscode-charts-orange": "#d18616",
    "--vscode-charts-yellow": "#ffd700",
    "--vscode-charts-red": "#f14c4c",
    "--vscode-testing-iconFailed": "#f48771",
    "--vscode-testing-iconPassed": "#89d185",
    "--vscode-editorWarning-foreground": "#ffd700",
    "--vscode-list-activeSelectionBackground": "#000000",
    "--vscode-list-activeSelectionForeground": "#ffffff",
    "--vscode-disabledForeground": "#a5a5a5",
  },
};

function themeCss() {
  return Object.entries(THEMES)
    .map(
      ([name, vars]) =>
        `body.vscode-${name} {\n${Object.entries(vars)
          .map(([k, v]) => `  ${k}: ${v};`)
          .join("\n")}\n}`,
    )
    .join("\n");
}

/** Bundle webview/main.ts as the extension's build does (a fresh bundle: tests see the current source). */
export async function bundleWebview() {
  const r = await build({ ...(await webviewBuildOptions()), write: false, logLevel: "silent" });
  return r.outputFiles[0].text;
}

/**
 * The host's side of the events' wire format (src/shared/eventWire.ts), for the page: posted messages carry their
 * events encoded as the extension host posts them (`window.__shrinkscopeHost.posted(message)`).
 */
async function bundleHostWire() {
  const r = await build({
    entryPoints: [path.join(repo, "src/shared/eventWire.ts")],
    bundle: true,
    platform: "browser",
    target: "es2022",
    format: "iife",
    globalName: "__shrinkscopeHost",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return r.outputFiles[0].text;
}

const NONCE = "dGVzdC1ub25jZQ";

/** src/extension/panelHtml.ts, bundled and loaded here: the harness serves the extension's own page. */
async function loadPanelHtml() {
  const r = await build({
    entryPoints: [path.join(repo, "src/extension/panelHtml.ts")],
    bundle: true,
    platform: "neutral",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  return (await import(`data:text/javascript;base64,${Buffer.from(r.outputFiles[0].text).toString("base64")}`))
    .panelHtml;
}

/**
 * The extension's page (its CSP, markup and script), served from `origin`, with what VS Code adds around it:
 * a theme's variables and body classes, the fake VS Code API (a postMessage recorder; state in sessionStorage,
 * which survives a reload in the same tab), and the host's side of the events' wire format.
 */
function page(panelHtml, origin, theme, starting) {
  const api = `
window.__posted = []; window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + (e.blockedURI || e.sample || "")));
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(m),
  getState: () => { const s = sessionStorage.getItem("state"); return s === null ? undefined : JSON.parse(s); },
  setState: (s) => { sessionStorage.setItem("state", JSON.stringify(s)); window.__saves = (window.__saves || 0) + 1; },
});`;
  const html = panelHtml({
    nonce: NONCE,
    script: `${origin}/dist/webview.js`,
    style: `${origin}/media/panel.css`,
    cspSource: origin,
    ...(starting === null ? {} : { starting }),
  });
  const parts = [
    ['<link rel="stylesheet"', `<link rel="stylesheet" href="${origin}/theme.css">\n<link rel="stylesheet"`],
    ["<body>", `<body class="vscode-${theme}" data-vscode-theme-kind="vscode-${theme}">`],
    [
      "<script nonce=",
      `<script nonce="${NONCE}">${api}</script>\n<script nonce="${NONCE}" src="${origin}/dist/host-wire.js"></script>\n<script nonce=`,
    ],
  ];
  return parts.reduce((h, [at, put]) => {
    if (!h.includes(at)) throw new Error(`the panel's HTML has no ${at}`);
    return h.replace(at, put);
  }, html);
}

/** Serve the harness; `script` is the bundled webview. Returns { origin, url(theme), close() }. */
export async function serve(script) {
  const hostWire = await bundleHostWire();
  const panelHtml = await loadPanelHtml();
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const send = (type, body) => {
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    if (u.pathname === "/" || u.pathname === "/index.html")
      return send(
        "text/html",
        page(panelHtml, origin, u.searchParams.get("theme") ?? "dark", u.searchParams.get("starting")),
      );
    if (u.pathname === "/theme.css") return send("text/css", themeCss());
    if (u.pathname === "/media/panel.css") return send("text/css", readFileSync(path.join(repo, "media/panel.css")));
    if (u.pathname === "/dist/webview.js") return send("text/javascript", script);
    if (u.pathname === "/dist/host-wire.js") return send("text/javascript", hostWire);
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const origin = `http://127.0.0.1:${addr.port}`;
  // `starting`: the page as the host writes it when a run opens the panel (src/extension/panelHtml.ts).
  return {
    origin,
    url: (theme = "dark", starting) =>
      `${origin}/?theme=${theme}${starting === undefined ? "" : `&starting=${encodeURIComponent(starting)}`}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launch(extraArgs = []) {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Wait until the page has rendered what it received (two animation frames). */
// Page-side code is passed as strings: a TypeScript loader (tsx) may rewrite functions with helpers (__name)
// that exist in Node but not in the page.
export function frames(page, n = 2) {
  return page.evaluate(
    `new Promise((resolve) => { let i = ${Number(n)}; const step = () => (i-- === 0 ? resolve(undefined) : requestAnimationFrame(step)); step(); })`,
  );
}

/** Post messages to the panel as the host does, in the page's own message queue. */
export async function post(page, messages) {
  const fn = await page.evaluateHandle(
    "(ms) => { for (const m of ms) window.postMessage(window.__shrinkscopeHost.posted(m), '*'); }",
  );
  await fn.evaluate((f, ms) => f(ms), messages);
  await fn.dispose();
}
