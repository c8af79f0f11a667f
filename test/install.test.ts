// A clean `npm install` prints no warning: every locked package accepts the Node.js versions `engines` promises
// (npm's EBADENGINE), and every install script is approved or denied in `allowScripts` (npm 11's install-scripts).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  engines?: { node?: string };
  hasInstallScript?: boolean;
}

const root = new URL('..', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const locked = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), entry }));

describe('a clean install', () => {
  it('has every locked package accept each Node.js version the engines field promises', () => {
    const ours = manifest.engines.node;
    const refusing = locked
      .filter(({ entry }) => entry.engines?.node !== undefined)
      .filter(({ entry }) => !semver.subset(ours, entry.engines?.node ?? '*'))
      .map(({ name, entry }) => `${name} wants ${entry.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it('has every install script approved or denied in allowScripts', () => {
    const allowed = manifest.allowScripts ?? {};
    const unreviewed = locked
      .filter(({ entry }) => entry.hasInstallScript === true)
      .map(({ name }) => name)
      .filter((name) => !(name in allowed));
    expect(unreviewed).toEqual([]);
  });

  it('runs on the Node.js it is tested with', () => {
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });
});
