// Headless Chromium (Debian's `chromium`) driven by playwright-core, for the report rendering test and
// `npm run figures`: a fresh profile in a temporary folder and no background network traffic.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** A launched browser and the cleanup of its profile folder. */
export interface HeadlessChromium {
  /** The browser's one context (a persistent context on the temporary profile). */
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches the Chromium at `executablePath` headless, with a fresh temporary profile. */
export async function launchChromium(executablePath: string): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'reckon-chromium-'));
  // Playwright passes the profile as --user-data-dir itself (it refuses the flag in `args`).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    viewport: { width: 1280, height: 900 },
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
