// The panel's HTML (src/extension/panelHtml.ts): a strict CSP, and a run's title — user text — shown from the
// first paint, escaped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { panelHtml } from "../../src/extension/panelHtml.ts";

const page = {
  nonce: "bm9uY2U=",
  script: "https://r.vscode-cdn.net/ext/dist/webview.js",
  style: "https://r.vscode-cdn.net/ext/media/panel.css",
  cspSource: "https://*.vscode-cdn.net",
};

test("the CSP allows only the nonce'd script, the extension's own resources and a blob: worker", () => {
  const html = panelHtml(page);
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1].replace(/&#39;/g, "'");
  assert.equal(
    csp,
    "default-src 'none'; style-src https://*.vscode-cdn.net; script-src 'nonce-bm9uY2U='; img-src https://*.vscode-cdn.net data:; font-src https://*.vscode-cdn.net; worker-src blob:",
  );
  assert.match(html, /<script nonce="bm9uY2U=" src="https:\/\/r\.vscode-cdn\.net\/ext\/dist\/webview\.js"><\/script>/);
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(html, /<p class="muted">Run a property to see it here\.<\/p>/);
  assert.doesNotMatch(html, /data-starting/);
});

test("opened by a run: its title from the first paint, escaped in the text and the attribute", () => {
  const title = `"><img src=x onerror=alert(1)> & 'it'`;
  const html = panelHtml({ ...page, starting: title });
  assert.doesNotMatch(html, /<img/);
  assert.equal(html.match(/<script/g)?.length, 1);
  const main = /<main id="app" aria-live="polite" data-starting="([^"]*)"><p class="muted">([^<]*)<\/p><\/main>/.exec(
    html,
  );
  assert.ok(main, html);
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
  assert.equal(unescape(main[1]), title);
  assert.equal(unescape(main[2]), `Starting ${title}…`);
});
