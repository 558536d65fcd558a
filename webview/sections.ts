/**
 * The panel's skeleton: the run's header, the idle paragraph, the section links and one section per view, each
 * with a mount the view draws into; and which sections are in or near the viewport, so that a run streaming
 * skips drawing what nobody sees.
 */

export const SECTIONS = [
  ["result", "Result"],
  // A state machine's run only (PanelState.steps.machine); property runs never show it.
  ["steps", "Steps"],
  // A failure found by exploring schedules only (PanelState.timeline): the failing seed's run, task by task.
  ["timeline", "Timeline"],
  ["choices", "Choice sequence"],
  ["comparison", "Sort-key comparison"],
  ["progress", "Shrink progress"],
  ["datatree", "DataTree"],
  ["stats", "Generation statistics"],
] as const;
export type SectionId = (typeof SECTIONS)[number][0];

export interface Skeleton {
  readonly header: HTMLElement;
  /** The page's own paragraph, shown while no run does. */
  readonly idle: HTMLElement;
  /** `data-starting` on the app: a run a panel opened for, shown as starting until its first message. */
  readonly starting: string | undefined;
  readonly nav: HTMLElement;
  /** Where each view draws (inside its section), and its link in the nav. */
  readonly mounts: Record<SectionId, HTMLElement>;
  readonly links: Record<SectionId, HTMLAnchorElement>;
  /** Whether a section is in or near the viewport (always true where IntersectionObserver is missing). */
  inSight(section: SectionId): boolean;
}

/** Build the skeleton in `app`; `onSight` is called when a section comes into or goes out of sight. */
export function buildSkeleton(app: HTMLElement, onSight: () => void): Skeleton {
  // The host marks the whole panel live; that would read out every frame. One status badge is live instead.
  app.removeAttribute("aria-live");
  // The page's own paragraph (src/extension/panelHtml.ts) stays while no run shows: "Run a property…", or, for a
  // panel a run opened, that run as starting until its first message (the host replays it once we are ready).
  const idle = app.querySelector("p") ?? document.createElement("p");
  app.replaceChildren();
  const header = document.createElement("header");
  header.className = "run";
  idle.className = "muted idle";
  const nav = document.createElement("nav");
  nav.setAttribute("aria-label", "Sections");
  const mounts = {} as Record<SectionId, HTMLElement>;
  const sections: HTMLElement[] = [];
  const links = {} as Record<SectionId, HTMLAnchorElement>;
  for (const [id, title] of SECTIONS) {
    const link = nav.appendChild(document.createElement("a"));
    link.href = `#sec-${id}`;
    link.textContent = title;
    links[id] = link;
    const sec = document.createElement("section");
    sec.id = `sec-${id}`;
    sec.setAttribute("aria-labelledby", `h-${id}`);
    const h = sec.appendChild(document.createElement("h2"));
    h.id = `h-${id}`;
    h.textContent = title;
    const body = sec.appendChild(document.createElement("div"));
    body.id = id;
    body.className = `view ${id}`;
    mounts[id] = body;
    sections.push(sec);
  }
  app.append(header, idle, nav, ...sections);
  /**
   * Sections in or near the viewport. While a run streams, a view scrolled out of sight is not drawn (nobody
   * sees it, and its DOM work would still cost the frame); it is drawn when it comes near, and every view is
   * drawn once the run ends.
   */
  const inSight = new Set<Element>();
  const sight =
    typeof IntersectionObserver === "function"
      ? new IntersectionObserver(
          (entries) => {
            for (const e of entries)
              if (e.isIntersecting) inSight.add(e.target);
              else inSight.delete(e.target);
            onSight();
          },
          { rootMargin: "200px 0px" },
        )
      : undefined;
  for (const sec of sections) sight?.observe(sec);
  return {
    header,
    idle,
    starting: app.dataset.starting,
    nav,
    mounts,
    links,
    inSight: (section) => sight === undefined || inSight.has(mounts[section].parentElement!),
  };
}
