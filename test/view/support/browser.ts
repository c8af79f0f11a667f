// Headless Chromium (Debian's `chromium`) driven by playwright-core, for the page tests and the page benchmark.
// WebGL2 runs on the CPU through SwiftShader: right for correctness and screenshots, not for GPU frame rates.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findSystemBinary } from '../../support/system-binary.js';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  // A headless page counts as hidden to some schedulers; keep its animation frames and timers running.
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--disable-background-timer-throttling',
];

/** Chromium on PATH, or why the tests that need it are skipped (a failure under RECKON_REQUIRE_SYSTEM_BINARIES=1). */
export const chromiumBinary = findSystemBinary('chromium');

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumBinary.path!, args: CHROMIUM_ARGS });
}

/** Where tests write artifacts (screenshots): $RECKON_TEST_ARTIFACTS or out/test-artifacts. */
export function artifactPath(name: string): string {
  const dir = resolve(
    process.env['RECKON_TEST_ARTIFACTS'] ?? resolve(import.meta.dirname, '../../../out/test-artifacts'),
  );
  mkdirSync(dir, { recursive: true });
  return resolve(dir, name);
}

/** Resolves after the page has drawn two more animation frames (its state then reflects what came before). */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}
