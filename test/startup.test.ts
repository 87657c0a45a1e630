/**
 * How bin/slogulate starts (src/cli/start.ts): from the bundle
 * dist/slogulate.cjs and its V8 code cache when the bundle is fresh, from
 * dist/'s modules when it is stale or missing; the same text either way.
 * Which way ran is seen in Node.js's own module log (NODE_DEBUG=esm): the
 * modules of dist/ are loaded one by one only without the bundle.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameText, REFERENCE_OPTIONS, referenceText, ROOT, slogPath } from './helpers.js';

const REFERENCE = { slog: 'a-xs-3', options: 'timing' } as const;

/** bin/slogulate of the project at `root` rendering the reference's slog; which dist/ modules it loaded itself. */
function start(root: string): { stdout: string; status: number | null; modulesLoaded: number } {
  const args = [...(REFERENCE_OPTIONS[REFERENCE.options] as string[]), slogPath(REFERENCE.slog)];
  const run = spawnSync(process.execPath, [join(root, 'bin', 'slogulate'), ...args], {
    env: { ...process.env, NODE_DEBUG: 'esm', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const loaded = new Set(run.stderr.match(/file:\/\/\S*\/dist\/(?:scan|render|model)\/[\w-]+\.js/g) ?? []);
  return { stdout: run.stdout, status: run.status, modulesLoaded: loaded.size };
}

/** bin/slogulate of the project at `root` ran `from` the bundle or dist/'s modules, and printed the reference text. */
function expectStart(root: string, from: 'bundle' | 'modules'): void {
  const run = start(root);
  expect(run.status).toBe(0);
  if (from === 'bundle') expect(run.modulesLoaded).toBe(0);
  else expect(run.modulesLoaded).toBeGreaterThan(10);
  expectSameText(run.stdout, referenceText(REFERENCE.slog, REFERENCE.options));
}

describe('start-up', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  });

  /** The project's bin/ and dist/ copied, node_modules and package.json linked. */
  function copyProject(): string {
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-start-'));
    copies.push(dir);
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true, preserveTimestamps: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    return dir;
  }

  it('V8 accepts the code cache the build wrote for the bundle', () => {
    const check = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs'), '--check'], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('bin/slogulate runs the bundle: no module of dist/ loaded one by one, the reference text', () => {
    expectStart(ROOT, 'bundle');
  });

  it('a bundle older than dist/cli/main.js (tsc ran alone since) is not used; dist/ gives the same text', () => {
    const dir = copyProject();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'dist', 'cli', 'main.js'), later, later);
    expectStart(dir, 'modules');
  });

  it('without the bundle, or without its cache, the same text', () => {
    const noBundle = copyProject();
    rmSync(join(noBundle, 'dist', 'slogulate.cjs'));
    expectStart(noBundle, 'modules');
    const noCache = copyProject();
    rmSync(join(noCache, 'dist', 'slogulate.cjs.cache'));
    expectStart(noCache, 'bundle');
  });
});
