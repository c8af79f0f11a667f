// Headless Chromium (Debian's `chromium`) driven by playwright-core, for the page and report tests, the page
// benchmark and `npm run figures`. WebGL2 runs on the CPU: through Mesa's llvmpipe where Mesa's EGL is installed,
// else through SwiftShader. Each launch gets a fresh temporary profile from playwright.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { findSystemBinary } from './system-binary.js';

/** Where WebGL is drawn: both on the CPU, right for correctness and screenshots, not for GPU frame rates. */
export type WebglRenderer = 'llvmpipe' | 'llvmpipe-composited' | 'swiftshader';

/** Mesa's EGL vendor file (Debian `libegl-mesa0`): where present, ANGLE can draw through Mesa's llvmpipe. */
export const MESA_EGL_VENDOR = '/usr/share/glvnd/egl_vendor.d/50_mesa.json';

/** llvmpipe where Mesa's EGL is installed (the page tests take about a quarter less CPU than under SwiftShader). */
export const defaultRenderer: WebglRenderer = existsSync(MESA_EGL_VENDOR) ? 'llvmpipe' : 'swiftshader';

const RENDERER_ARGS: Record<WebglRenderer, readonly string[]> = {
  // ANGLE on the system's EGL (Mesa, llvmpipe); the compositor stays in software, as with SwiftShader.
  llvmpipe: ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist', '--disable-gpu-compositing'],
  // The compositor on llvmpipe too, as a browser with a GPU composites: a frame's WebGL canvases are not read back to
  // the CPU, which blocks the page's main thread until the frame is drawn (the view soak's page read a tenth of its
  // feed with it).
  'llvmpipe-composited': ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist'],
  swiftshader: ['--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
};

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
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
 * @param renderer - where WebGL is drawn; the page benchmark keeps to SwiftShader, as its recorded figures do.
 */
export async function launchChromium(
  executablePath = chromiumBinary.path,
  extraArgs: readonly string[] = [],
  renderer: WebglRenderer = defaultRenderer,
): Promise<Browser> {
  if (executablePath === undefined) throw new Error(chromiumBinary.skipReason);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...RENDERER_ARGS[renderer], ...extraArgs] });
}
