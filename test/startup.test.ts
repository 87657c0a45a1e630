/**
 * How bin/slogulate starts (src/cli/start.cts): from the bundle
 * dist/slogulate.cjs and its V8 code cache when the bundle is fresh, from
 * dist/'s modules when it is stale or missing; the same text either way.
 * Which way ran is seen in Node.js's own module log (NODE_DEBUG=esm): the
 * modules of dist/ are loaded one by one only without the bundle.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameText, REFERENCE_OPTIONS, referenceText, ROOT, slogPath } from './helpers.js';

const REFERENCE = { slog: 'a-xs-3', options: 'timing' } as const;

/** bin/slogulate of the project at `root` rendering the reference's slog; which dist/ modules it loaded itself, and whether the ES module loader ran. */
function start(root: string): { stdout: string; status: number | null; modulesLoaded: number; esmLoader: boolean } {
  const args = [...(REFERENCE_OPTIONS[REFERENCE.options] as string[]), slogPath(REFERENCE.slog)];
  const run = spawnSync(process.execPath, [join(root, 'bin', 'slogulate'), ...args], {
    env: { ...process.env, NODE_DEBUG: 'esm', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const loaded = new Set(run.stderr.match(/file:\/\/\S*\/dist\/(?:scan|render|model)\/[\w-]+\.js/g) ?? []);
  return { stdout: run.stdout, status: run.status, modulesLoaded: loaded.size, esmLoader: /^ESM \d+:/m.test(run.stderr) };
}

/** bin/slogulate of the project at `root` ran `from` the bundle or dist/'s modules, and printed the reference text. */
function expectStart(root: string, from: 'bundle' | 'modules'): void {
  const run = start(root);
  expect(run.status).toBe(0);
  // From the bundle, nothing is an ES module: Node.js starts no ES module loader (src/cli/start.cts).
  if (from === 'bundle') expect([run.modulesLoaded, run.esmLoader]).toEqual([0, false]);
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

  it('the bundle is ASCII, which start.cts decodes as latin1 (scripts/bundle.mjs escapes what esbuild leaves in comments, fails on the rest)', () => {
    const bytes = readFileSync(join(ROOT, 'dist', 'slogulate.cjs'));
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
    // µ is in its lines (written \u00b5): a bundle decoded wrongly would not print it.
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'slogulate'), '--timing', slogPath(REFERENCE.slog)], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(run.stdout).toMatch(/ \d+\u00b5s\b/);
  });

  it('bin/slogulate runs the bundle: no module of dist/ loaded one by one, the reference text', () => {
    expectStart(ROOT, 'bundle');
  });

  it('a small slog (under 1 MB) loads none of the Node.js modules only some runs need (source/builtins.ts, commander\'s child_process)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-builtins-'));
    const hook = join(dir, 'hook.cjs');
    const small = join(dir, 'small.slog');
    writeFileSync(small, readFileSync(slogPath(REFERENCE.slog), 'utf8').split('\n').slice(0, 50).join('\n'));
    writeFileSync(hook, "process.on('exit', () => process.stderr.write('loaded ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));\n");
    const run = spawnSync(process.execPath, ['-r', hook, join(ROOT, 'bin', 'slogulate'), small], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    rmSync(dir, { recursive: true, force: true });
    expect(run.status).toBe(0);
    const loaded = new Set((/^loaded (.*)$/m.exec(run.stderr)?.[1] ?? '').split(' '));
    expect(loaded.has('fs'), 'the hook saw the module list').toBe(true);
    for (const name of ['child_process', 'zlib', 'os', 'v8', 'fs/promises', 'readline']) expect(loaded.has(name), name).toBe(false);
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
