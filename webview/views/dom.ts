/**
 * Small d3 helpers shared by the views: `part` returns a child element made once and found again on every
 * draw (a data join of one), so draw functions stay idempotent — call them with new data, they update in place.
 * Motion follows the user's reduced-motion preference. A row of many items (cells, events) is one tab stop with
 * a roving focus inside.
 */
import { select, type BaseType, type Selection } from "d3-selection";

export type Sel<E extends BaseType = HTMLElement> = Selection<E, unknown, null, undefined>;

/** The child `tag.cls` of `parent` (cls may name several classes), created on first use. */
export function part<K extends keyof HTMLElementTagNameMap, P extends BaseType>(
  parent: Sel<P>,
  tag: K,
  cls: string,
  init?: (s: Sel<HTMLElementTagNameMap[K]>) => void,
): Sel<HTMLElementTagNameMap[K]> {
  const found = parent.select<HTMLElementTagNameMap[K]>(`:scope > ${tag}.${cls.trim().split(/\s+/).join(".")}`);
  if (!found.empty()) return found as unknown as Sel<HTMLElementTagNameMap[K]>;
  const made = parent.append(tag).attr("class", cls) as unknown as Sel<HTMLElementTagNameMap[K]>;
  init?.(made);
  return made;
}

/** The SVG child `tag.cls` of `parent`, created on first use. */
export function svgPart<K extends keyof SVGElementTagNameMap, P extends BaseType>(
  parent: Sel<P>,
  tag: K,
  cls: string,
  init?: (s: Sel<SVGElementTagNameMap[K]>) => void,
): Sel<SVGElementTagNameMap[K]> {
  const found = parent.select<SVGElementTagNameMap[K]>(`:scope > ${tag}.${cls.trim().split(/\s+/).join(".")}`);
  if (!found.empty()) return found as unknown as Sel<SVGElementTagNameMap[K]>;
  const made = parent.append(tag).attr("class", cls) as unknown as Sel<SVGElementTagNameMap[K]>;
  init?.(made);
  return made;
}

export function root(el: HTMLElement): Sel {
  return select(el) as unknown as Sel;
}

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : undefined;

/** Transition length in ms: 0 when the user asked for less motion. */
export function motion(ms: number): number {
  return reduced?.matches ? 0 : ms;
}

/** Arrow keys, Home and End move the focus among the `selector` items inside `box`. */
function roving(box: Element, selector: string, ev: KeyboardEvent): void {
  const items = Array.from(box.querySelectorAll<HTMLElement | SVGElement>(selector));
  if (items.length === 0) return;
  const now = items.indexOf(document.activeElement as HTMLElement | SVGElement);
  let next: number;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = Math.min(items.length - 1, now + 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = Math.max(0, now - 1);
  else if (ev.key === "Home") next = 0;
  else if (ev.key === "End") next = items.length - 1;
  else return;
  ev.preventDefault();
  items[next].focus();
}

/**
 * Make `node` one tab stop over its `selector` items (each should have tabindex −1): focusing it moves the
 * focus to the first item, so arrow keys work at once. Call once, when the node is made.
 */
export function rovingGroup(node: Element | null, selector: string): void {
  if (node === null) return;
  node.setAttribute("tabindex", "0");
  node.addEventListener("keydown", (ev) => roving(node, selector, ev as KeyboardEvent));
  node.addEventListener("focus", () => node.querySelector<HTMLElement | SVGElement>(selector)?.focus());
}

/**
 * Set each element's text to `value` only where it differs. d3's `.text()` replaces the text node on every
 * call, which marks the element for layout even when nothing changed — and views streaming a run redraw
 * mostly unchanged texts. Use with `.call(text, value)`.
 */
export function text<E extends BaseType, D>(
  sel: Selection<E, D, BaseType, unknown>,
  value: string | number | ((d: D, i: number) => string | number),
): void {
  sel.each(function (d, i) {
    const v = String(typeof value === "function" ? value(d, i) : value);
    const el = this as unknown as Node;
    if (el.textContent !== v) el.textContent = v;
  });
}

/**
 * Set an attribute (null removes it) only where it differs — for SVG above all, where writing a position or
 * size invalidates the element's layout even when the value is the same. Use with `.call(attr, name, value)`.
 */
export function attr<E extends BaseType, D>(
  sel: Selection<E, D, BaseType, unknown>,
  name: string,
  value: string | number | null | ((d: D, i: number) => string | number | null),
): void {
  sel.each(function (d, i) {
    const v = typeof value === "function" ? value(d, i) : value;
    const el = this as unknown as Element;
    if (v === null) {
      if (el.hasAttribute(name)) el.removeAttribute(name);
    } else if (el.getAttribute(name) !== String(v)) el.setAttribute(name, String(v));
  });
}

/** Add or remove a class only where that changes it (classList writes the attribute even when it does not). */
export function classed<E extends BaseType, D>(
  sel: Selection<E, D, BaseType, unknown>,
  name: string,
  on: boolean | ((d: D, i: number) => boolean),
): void {
  sel.each(function (d, i) {
    const want = typeof on === "function" ? on(d, i) : on;
    const list = (this as unknown as Element).classList;
    if (list.contains(name) !== want) list.toggle(name, want);
  });
}
