/**
 * st.urls: http and https URLs that WHATWG's `new URL()` parses and prints back unchanged (`new URL(u).href ===
 * u`): a scheme (http the simpler), a hostname (st.domains), an optional port, path segments of unreserved
 * characters each followed by optional percent escapes, an optional query and an optional fragment. Each part is
 * a choice or a list of them, shrinking away, so the simplest URL is `http://0.aa/`. The string is the parsed
 * URL's `href`, so what WHATWG normalises (a default port, `.` and `..` segments) is already normal.
 */
import type { BooleanConstraints, IntegerConstraints } from "../../choice/types.ts";
import type { TestCase } from "../../core/testCase.ts";
import { Strategy } from "../strategy.ts";
import { checkOptions } from "../options.ts";
import { specialQueued } from "../specials.ts";
import { drawDomain } from "./domains.ts";
import { drawItems, queueOne, StringChoices } from "./parts.ts";

const SCHEME: IntegerConstraints = { min: 0, max: 1, shrinkTowards: 0 };
const PORT: IntegerConstraints = { min: 0, max: 65535, shrinkTowards: 0 };
const BYTE: IntegerConstraints = { min: 0, max: 255, shrinkTowards: 0 };
const SOME: BooleanConstraints = { p: 0.25 };
const MORE: BooleanConstraints = { p: 0.4 };
const MORE_ESCAPES: BooleanConstraints = { p: 0.15 };
const UNRESERVED = new StringChoices("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~");
const QUERY = new StringChoices("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~=&+");
const SEGMENT_MAX = 40;

class Urls extends Strategy<string> {
  constructor() {
    super("url");
  }
  protected doDraw(tc: TestCase): string {
    const scheme = tc.drawInteger(SCHEME) === 0 ? "http" : "https";
    const host = drawDomain(tc, 100);
    let port = "";
    const queuedPort = queueOne(tc, 1 / 10, [() => [true, 65535], () => [true, 8080]]);
    if (tc.drawBoolean(SOME)) port = `:${tc.drawInteger(PORT)}`;
    if (queuedPort) specialQueued(tc);
    let path = "";
    drawItems(
      tc,
      MORE,
      false,
      () => 1,
      () => {
        let segment = tc.drawString(UNRESERVED.get(0, SEGMENT_MAX));
        const queued = queueOne(tc, 1 / 8, [(r) => [true, r.int(0, 255), true, r.int(0x80, 0xff), false]]);
        drawItems(
          tc,
          MORE_ESCAPES,
          false,
          () => 1,
          () => {
            segment += `%${tc.drawInteger(BYTE).toString(16).toUpperCase().padStart(2, "0")}`;
          },
        );
        if (queued) specialQueued(tc);
        path += `/${segment}`;
      },
    );
    const query = tc.drawBoolean(SOME) ? `?${tc.drawString(QUERY.get(0, SEGMENT_MAX))}` : "";
    const fragment = tc.drawBoolean(SOME) ? `#${tc.drawString(UNRESERVED.get(0, SEGMENT_MAX))}` : "";
    return new URL(`${scheme}://${host}${port}${path}${query}${fragment}`).href;
  }
}

/**
 * http and https URLs that `new URL()` parses and prints back unchanged; shrinks toward `http://0.aa/`. Favours
 * port 65535 and percent escapes.
 * @example st.urls() // "http://0.aa/", "https://x.example.org:65535/a%7F?q=1#top", …
 */
export function urls(options?: Record<string, never>): Strategy<string> {
  checkOptions("st.urls", options, []);
  return new Urls();
}
