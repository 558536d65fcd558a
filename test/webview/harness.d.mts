// Types for harness.mjs (plain JS so the benchmark can use it without a TypeScript loader).
import type { Browser, Page } from "playwright-core";

export function bundleWebview(): Promise<string>;
export function serve(script: string): Promise<{
  origin: string;
  url(theme?: "dark" | "light" | "high-contrast", starting?: string): string;
  close(): Promise<void>;
}>;
export const CHROMIUM_ARGS: readonly string[];
export function launch(extraArgs?: readonly string[]): Promise<Browser>;
export function frames(page: Page, n?: number): Promise<void>;
export function post(page: Page, messages: readonly unknown[]): Promise<void>;
