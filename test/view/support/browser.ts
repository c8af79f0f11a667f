// Helpers for the page tests in Chromium (launched by scripts/support/chromium.ts): where screenshots go, and
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

/**
 * What ANGLE says when Chromium's software compositor (as scripts/support/chromium.ts sets it) reads a WebGL canvas back
 * to put it on screen: the browser's own read, not the page's. With GPU compositing it does not appear, but the page
 * then loads about twice as slowly on a CPU renderer.
 */
const SOFTWARE_COMPOSITING_READBACK =
  /^\[\.WebGL-0x[0-9a-f]+\]GL Driver Message \(OpenGL, Performance, GL_CLOSE_PATH_NV, High\): GPU stall due to ReadPixels/;

/**
 * Every console warning and error of `page` and every uncaught exception in it, as text: the page tests expect none
 * (a page that warns in the console is a page with a problem its user cannot see).
 */
export function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (SOFTWARE_COMPOSITING_READBACK.test(message.text())) return;
    if (message.type() === 'warning' || message.type() === 'error')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}
