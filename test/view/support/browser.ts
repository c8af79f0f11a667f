// Helpers for the page tests in Chromium (launched by test/support/chromium.ts): where screenshots go, and
// waiting for the page to draw.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

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
