/**
 * `npm install` runs without a warning about install scripts: every package
 * of the lock file that has one (package-lock.json's `hasInstallScript`) is
 * named in package.json's `allowScripts` (npm 11 lists the others after the
 * install: `N packages have install scripts not yet covered by
 * allowScripts`, which reads as if the install had failed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

interface LockFile {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
}

/** The name of a lock file's `node_modules/...` key: its last `node_modules/` segment (`@scope/name` too). */
const packageName = (key: string): string => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  it("are all covered by package.json's allowScripts", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const withScripts = Object.entries(lock.packages)
      .filter(([key, p]) => key !== '' && p.hasInstallScript === true)
      .map(([key, p]) => ({ name: packageName(key), version: p.version }));
    // better-sqlite3 builds its native module in its install script: the lock file says so, or this test reads it wrong.
    expect(withScripts.map((p) => p.name)).toContain('better-sqlite3');
    // An entry is a name (any version) or name@version, as `npm approve-scripts` writes them.
    const allowed = Object.keys(pkg.allowScripts ?? {});
    const uncovered = withScripts.filter((p) => !allowed.includes(p.name) && !allowed.includes(`${p.name}@${p.version}`));
    expect(uncovered).toEqual([]);
  });
});
