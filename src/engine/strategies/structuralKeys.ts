/**
 * Structural keys for st.lists' `unique`: one string per value, equal exactly when the values are equal in the
 * sense documented on ListsOptions.unique (lists.ts).
 */
import { invalid } from "../util/errors.ts";

/**
 * Structural keys for `unique`: one string per object, equal exactly when the objects are equal in the sense
 * documented on ListsOptions.unique. Made per list draw: identities (prototypes, functions, symbols) are
 * numbered as they are met, and the shared objects of a DAG are keyed once.
 */
export class StructuralKeys {
  private readonly ids = new Map<unknown, number>();
  private readonly memo = new Map<object, string>();
  private readonly onStack = new Set<object>();

  private id(x: unknown): number {
    let n = this.ids.get(x);
    if (n === undefined) this.ids.set(x, (n = this.ids.size));
    return n;
  }

  key(v: unknown): string {
    switch (typeof v) {
      case "undefined":
        return "u";
      case "boolean":
        return v ? "t" : "f";
      case "number":
        // SameValueZero: NaN is one value, and −0 is 0.
        return Number.isNaN(v) ? "N" : `d${v === 0 ? 0 : v}`;
      case "bigint":
        return `b${v}`;
      case "string":
        // Length-prefixed, so no string can pass for the structure around it.
        return `s${v.length}:${v}`;
      case "symbol":
        return `y${this.id(v)}`;
      case "function":
        return `F${this.id(v)}`;
    }
    if (v === null) return "n";
    const o = v as object;
    const known = this.memo.get(o);
    if (known !== undefined) return known;
    if (this.onStack.has(o))
      invalid(
        "st.lists",
        "unique cannot compare a value that contains itself (a cycle); pass uniqueBy with a key of your own",
      );
    this.onStack.add(o);
    let k: string;
    try {
      k = this.objectKey(o);
    } catch (e) {
      if (e instanceof RangeError)
        invalid("st.lists", "unique cannot compare a value nested this deeply; pass uniqueBy with a key of your own");
      throw e;
    } finally {
      this.onStack.delete(o);
    }
    this.memo.set(o, k);
    return k;
  }

  private objectKey(o: object): string {
    if (Array.isArray(o)) {
      const parts = new Array<string>(o.length);
      for (let i = 0; i < o.length; i++) parts[i] = i in o ? this.key(o[i]) : "_";
      return `[${parts.join(",")}]`;
    }
    if (ArrayBuffer.isView(o)) {
      const bytes = new Uint8Array(o.buffer, o.byteOffset, o.byteLength);
      return `V${this.id(Object.getPrototypeOf(o))}:${bytes.join(",")}`;
    }
    if (o instanceof ArrayBuffer) return `A${bytesKey(new Uint8Array(o))}`;
    if (o instanceof Map) {
      const entries: string[] = [];
      for (const [k, x] of o) entries.push(`${this.key(k)}>${this.key(x)}`);
      return `M${this.id(Object.getPrototypeOf(o))}{${entries.sort().join(",")}}`;
    }
    if (o instanceof Set) {
      const items: string[] = [];
      for (const x of o) items.push(this.key(x));
      return `S${this.id(Object.getPrototypeOf(o))}{${items.sort().join(",")}}`;
    }
    if (o instanceof Date) return `D${o.getTime()}`;
    if (o instanceof RegExp) return `R${this.key(o.source)}${o.flags}`;
    let head = "";
    if (o instanceof Error) head = this.key(String(o.message));
    else if (
      o instanceof Number ||
      o instanceof String ||
      o instanceof Boolean ||
      o instanceof BigInt ||
      o instanceof Symbol
    )
      head = this.key(o.valueOf());
    const fields: string[] = [];
    for (const k of Reflect.ownKeys(o)) {
      if (!Object.prototype.propertyIsEnumerable.call(o, k)) continue;
      fields.push(`${this.key(k)}=${this.key((o as Record<PropertyKey, unknown>)[k])}`);
    }
    return `o${this.id(Object.getPrototypeOf(o))}${head}{${fields.sort().join(",")}}`;
  }
}

function bytesKey(bytes: Uint8Array): string {
  return bytes.join(",");
}
