/** Redis URLs as settings give them: recognised, checked, and shown with the password hidden. */

/** Whether a `database` setting names a Redis server rather than a folder. */
export function isRedisUrl(s: string): boolean {
  return /^rediss?:\/\//i.test(s.trim());
}

/** A Redis URL with its password replaced by ***, for messages and events. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    if (u.password !== "") u.password = "***";
    return u.toString();
  } catch {
    // Not a URL: everything up to the last "@" after "//" may be credentials.
    const at = url.lastIndexOf("@");
    const start = url.indexOf("//");
    return start >= 0 && at > start ? `${url.slice(0, start + 2)}***${url.slice(at)}` : url;
  }
}

/** Why `url` is not a usable Redis URL, or undefined when it is. */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return `${JSON.stringify(redactUrl(url))} is not a URL`;
  }
  if (parsed.hostname === "") return `${JSON.stringify(redactUrl(url))} names no host`;
  const db = parsed.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d+$/.test(db))
    return `${JSON.stringify(redactUrl(url))}: the path must be a database number (redis://host:port/0), got ${JSON.stringify(db)}`;
  return undefined;
}
