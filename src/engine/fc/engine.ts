/**
 * shrinkscope/fc's one door to the rest of the engine, at run time. The entry (../fc.ts) is bundled with this module
 * replaced by the package itself (esbuild.mjs), so the adapter's arbitraries and properties are the user's engine's
 * own — one Strategy class, one TestCase, one database — however the files are laid out. Every name here is one the
 * package exports under that name (index.ts); types come from their own files.
 */
import * as strategies from "../strategies/index.ts";
import { sample } from "../property/sample.ts";

export { Strategy } from "../strategies/strategy.ts";
export { InvalidArgument } from "../util/errors.ts";
export { property, check } from "../property/property.ts";
export { PropertyFailure } from "../property/errors.ts";
export { assume, note } from "../property/inBody.ts";
export { toLiteral } from "../print/printer.ts";
/** The package's `st`, as index.ts makes it. */
export const st = Object.freeze({ ...strategies, sample });
