// Tests that need a system program (Debian's `chromium`, `nats-server`) find it on PATH. Where it is missing they
// are skipped with one line saying how to install it, unless RECKON_REQUIRE_SYSTEM_BINARIES=1 (set by .ci/run),
// which turns the skip into a failure so CI always runs them.
import { spawnSync } from 'node:child_process';

/** Environment variable that turns a missing system binary from a skip into a failure. */
export const REQUIRE_SYSTEM_BINARIES = 'RECKON_REQUIRE_SYSTEM_BINARIES';

export interface SystemBinary {
  /** Absolute path of the program, or undefined where it is not on PATH. */
  readonly path: string | undefined;
  /** One line saying how to install it; empty where it was found. */
  readonly skipReason: string;
}

/**
 * Looks a program up on PATH. Throws where it is missing and RECKON_REQUIRE_SYSTEM_BINARIES=1, so a CI run that
 * forgot to install it fails instead of passing with the tests skipped.
 * @param name - program name, e.g. `chromium`.
 * @param debianPackage - the Debian package that provides it. Defaults to `name`.
 */
export function findSystemBinary(name: string, debianPackage = name): SystemBinary {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() || undefined : undefined;
  if (path !== undefined) return { path, skipReason: '' };
  const how = `${name} not found on PATH: install it with \`sudo apt-get install -y ${debianPackage}\` to run these tests`;
  if (process.env[REQUIRE_SYSTEM_BINARIES] === '1') {
    throw new Error(`${how} (${REQUIRE_SYSTEM_BINARIES}=1 makes a missing ${name} a failure)`);
  }
  console.warn(`skipped: ${how}`);
  return { path: undefined, skipReason: how };
}
