// Headless Chromium (Debian's `chromium`) driven by playwright-core, for the page and report tests, the page
// benchmark and `npm run figures`. WebGL2 runs on the CPU through SwiftShader: right for correctness and
// screenshots, not for GPU frame rates. Each launch gets a fresh temporary profile from playwright.
import { chromium, type Browser } from 'playwright-core';
import { findSystemBinary } from './system-binary.js';

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

/**
 * Launches Chromium headless; close the browser when done (that also removes its profile).
 * @param extraArgs - more switches, e.g. `--host-resolver-rules=MAP name 127.0.0.1`.
 */
export async function launchChromium(
  executablePath = chromiumBinary.path,
  extraArgs: readonly string[] = [],
): Promise<Browser> {
  if (executablePath === undefined) throw new Error(chromiumBinary.skipReason);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
