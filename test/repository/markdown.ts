/**
 * Markdown read the way the repository's own checks need it (docs-links, package-readme, readme-examples): the
 * prose apart from the fenced code, the anchors GitHub gives headings, the relative links and images a page makes,
 * and the fenced blocks with the comment that marks each. A small reader, not a Markdown parser: the docs keep to
 * the forms it knows (fences of three backticks, inline links and images, reference definitions).
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
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
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

export interface CodeBlock {
  /** The fence's language (its info string's first word), "" when it has none. */
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The text of an HTML comment `<!-- example: … -->` on the line right above the fence, without the prefix. */
  readonly example: string | undefined;
}

/** The fenced code blocks of a page, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const out: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    const marker = /^\s*<!--\s*example:\s*(.*?)\s*-->\s*$/.exec(lines[start - 1] ?? "");
    out.push({
      lang: open[1].trim().split(/\s+/)[0] ?? "",
      code: body.join("\n") + "\n",
      line: start + 1,
      example: marker?.[1],
    });
  }
  return out;
}
