/**
 * Markdown read the way the repository's own checks need it (docs-links, package-readme): the prose apart from
 * the fenced code, the anchors GitHub gives headings, and the relative links and images a page makes. A small
 * reader, not a Markdown parser: the docs keep to the forms it knows (fences of three backticks, inline links
 * and images, reference definitions).
 */

/** The text outside fenced code blocks, and the fenced blocks' text, line by line (line numbers kept). */
export function split(text: string): { prose: string[]; code: string[] } {
  const prose: string[] = [];
  const code: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      prose.push("");
      code.push("");
      continue;
    }
    (fenced ? code : prose).push(line);
    (fenced ? prose : code).push("");
  }
  return { prose, code };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of split(markdown).prose) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  /** As written: a path relative to the page, with an optional #anchor. */
  readonly target: string;
  /** 1-based. */
  readonly line: number;
}

/**
 * The relative links and images of a page's prose (inline `[text](target)`, `![alt](target)`, reference
 * definitions and HTML `src`/`href` attributes), leaving out absolute URLs and whatever stands in inline code.
 */
export function relativeLinks(markdown: string): Link[] {
  const out: Link[] = [];
  split(markdown).prose.forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, "");
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|^\s*\[[^\]]+\]:\s*(\S+)|\b(?:src|href)="([^"]+)"/g)) {
      const target = m[1] ?? m[2] ?? m[3];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      out.push({ target, line: i + 1 });
    }
  });
  return out;
}
