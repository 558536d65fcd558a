/**
 * Reading source text: the one way the extension reads a user's file. Everything outside `source/read/`
 * imports from here only (test/extension/source-read.test.ts holds it to that), so there is one tokenizer,
 * one binding resolver (JavaScript's scoping: `scopes.ts`) and one recogniser of our calls (`ourCalls.ts`).
 *
 *   readSource       a text read once — tokens, imports, scopes — and kept for the next reader of the same text
 *   ourCallAt        is the call at this token one of ours (property, check, find, machine, simTest, explore)?
 *   propertyCall     a property call taken apart: which argument is the body, which the settings
 *   machineCall      a machine call's class, and where that class and its methods are declared
 */
export type { ScanOptions, Token } from "./scan.ts";
export { decodeEscapes, decodeString } from "./tokens.ts";
export type { SourceText } from "./sourceText.ts";
export { readSnippet, readSource, tokenizations } from "./sourceText.ts";
export type { Declaration } from "./scopes.ts";
export { isOurModule } from "./imports.ts";
export type { ImportBinding } from "./imports.ts";
export type { OurCall, OurCallee, PropertyCallee } from "./ourCalls.ts";
export { boundCall, ourCallAt, PROPERTY_CALLEES } from "./ourCalls.ts";
export type { FunctionShape, Param } from "./functions.ts";
export type { PlainBody, PropertyBody, PropertyCall, ArgumentRange } from "./propertyCall.ts";
export { propertyBody, propertyCall, splitArguments } from "./propertyCall.ts";
export type { MachineCall, MachineClass, MethodLocation, ModuleReader } from "./machineCall.ts";
export { failingMethod, machineCall, machineClass } from "./machineCall.ts";
