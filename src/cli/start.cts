/**
 * How `bin/slogulate` starts: the whole program as one script
 * (dist/slogulate.cjs, which `npm run build` bundles from dist/ with
 * scripts/bundle.mjs), compiled from V8's code cache for it
 * (dist/slogulate.cjs.cache, written by the same build). Loading the ~60
 * modules of a render one by one, each parsed and compiled on every start,
 * made start-up twice Node's own; from the cache it is about 1.2-1.4 times.
 *
 * The bundle holds the same compiled modules as dist/, so it gives the same
 * bytes. It is used only when it is at least as new as dist/cli/main.js: a
 * `tsc` run without the bundling step (rewriting every file of dist/) makes
 * it stale, and then the modules of dist/ are loaded as usual. A cache that
 * V8 rejects (another Node.js than the build's) only costs the compiling.
 *
 * This file is CommonJS (`.cts`), as is bin/slogulate (bin/package.json):
 * an ES module as the entry point makes Node.js start its ES module loader
 * first, 8-11 ms of a start that takes about 45 ms more than Node's own.
 * Only the fallback to dist/'s modules loads it.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

const DIST = join(__dirname, '..');
export const BUNDLE = join(DIST, 'slogulate.cjs');
export const BUNDLE_CACHE = `${BUNDLE}.cache`;

type Main = (argv?: string[]) => Promise<void>;

/** A package the bundle imports on demand (chalk, DuckDB, SQLite), found from here as from any module of dist/. */
const importPackage = (name: string): Promise<unknown> => import(name);

/** The bundle, compiled (from `cachedData` when given): its script (for its cache) and its `main`. */
export function loadBundle(cachedData?: Buffer): { script: Script; main: Main } {
  // ASCII (scripts/bundle.mjs makes it so): latin1 decodes it without UTF-8's checks, into one byte a character.
  const source = readFileSync(BUNDLE, 'latin1');
  // The wrapper Node.js gives a CommonJS module, and `__importPackage` for the
  // bundle's import() of packages (scripts/bundle.mjs): a script run by node:vm
  // has no import() of its own without --experimental-vm-modules.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __importPackage) {${source}\n})`, {
    filename: BUNDLE,
    ...(cachedData ? { cachedData } : {}),
  });
  const bundleModule = { exports: {} as { main?: Main } };
  const wrapper = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string, i: (p: string) => Promise<unknown>) => void;
  wrapper(bundleModule.exports, createRequire(BUNDLE), bundleModule, BUNDLE, DIST, importPackage);
  if (typeof bundleModule.exports.main !== 'function') throw new Error(`${BUNDLE} has no main`);
  return { script, main: bundleModule.exports.main };
}

/** The bundle is there and not older than the modules tsc wrote last. */
function bundleIsFresh(): boolean {
  try {
    return statSync(BUNDLE).mtimeMs >= statSync(join(DIST, 'cli', 'main.js')).mtimeMs;
  } catch {
    return false;
  }
}

function readCache(): Buffer | undefined {
  try {
    return readFileSync(BUNDLE_CACHE);
  } catch {
    return undefined;
  }
}

/** Runs the command line, from the bundle when it is fresh. */
export async function start(): Promise<void> {
  const main: Main = bundleIsFresh() ? loadBundle(readCache()).main : (await import('./main.js')).main;
  await main();
}
