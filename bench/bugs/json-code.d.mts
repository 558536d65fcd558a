// Types of json-code.mjs, for the TypeScript test that shares its code under test.
export declare function writeJson(v: unknown): string;
export declare function deepEqual(a: unknown, b: unknown): boolean;
export declare const survives: (
  trip: (v: unknown) => unknown,
  equal: (a: unknown, b: unknown) => boolean,
) => (v: unknown) => boolean;
