#!/usr/bin/env node
/**
 * `npm run build`'s second step, after tsc: the program as one script, and
 * V8's code cache for it, so that `bin/slogulate` starts without loading and
 * compiling its modules one by one (src/cli/start.cts says why and how).
 *
 * 1. esbuild bundles dist/cli/main.js and every module it imports (the
 *    subcommands too) into dist/slogulate.cjs; packages stay outside, loaded
 *    from node_modules as before. Each module's `import.meta.url` becomes
 *    its own file's URL in dist/, so that what it finds beside itself (the
 *    Parquet worker, package.json) it still finds; its import() of a
 *    package (chalk, DuckDB, SQLite) is the loader's (src/cli/start.cts).
 * 2. The bundle runs the commonest commands (the render, `top`, `stats`,
 *    `compare`) on a fixture here, in this process, and the code cache is
 *    taken after: it then holds the functions they compile, not only the
 *    top level, and those commands do not parse and compile them again on
 *    every start (some 55M instructions of `top` and `stats` on a whole
 *    slog, for 5M more on every start). (Without the heap governor, which
 *    sets V8 flags: a cache is taken only under the flags it was made with.)
 * 3. A new Node.js process checks that V8 accepts that cache (the build
 *    fails if it does not: every start would compile everything again).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

async function bundle(out) {
  const metaUrl = {
    name: 'module-urls',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const own = JSON.stringify(relative(dirname(out), args.path));
        const contents = text
          .replaceAll('import.meta.url', `__moduleUrl(${own})`)
          // A package imported on demand: by the loader's import() (src/cli/start.cts).
          .replace(/\bimport\((?=['"][^./])/g, '__importPackage(');
        return { contents, loader: 'js' };
      });
    },
  };
  // commander requires node:child_process (and with it net and dgram) at its top, for executable
  // subcommands, which slogulate has none of: in the bundle it is loaded on first use (about 5 ms of start-up).
  const lazyChildProcess = {
    name: 'lazy-child-process',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        args.importer.includes(`${sep}node_modules${sep}commander${sep}`) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
        contents: "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
        loader: 'js',
      }));
    },
  };
  await build({
    entryPoints: [join(DIST, 'cli', 'main.js')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // commander, which every start loads, goes in (and so into the code cache); what is imported only on demand stays outside.
    external: ['chalk', '@duckdb/node-api', 'better-sqlite3'],
    logLevel: 'warning',
    banner: { js: "const __moduleUrl = (file) => require('node:url').pathToFileURL(require('node:path').join(__dirname, file)).href;" },
    plugins: [metaUrl, lazyChildProcess],
  });
}

/**
 * The bundle as ASCII, so that each start decodes it as latin1, one byte a
 * character (src/cli/start.cts): UTF-8 with a single non-ASCII character
 * made V8 hold it as two bytes a character, and decoding it cost 12M
 * instructions of a start's 170M. esbuild escapes non-ASCII characters in
 * strings; those it leaves are in comments (written here as `\uXXXX`) or
 * in a regular expression or String.raw (a build error: write them as
 * `\uXXXX` in the source).
 */
function asciiOnly(text, file) {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (!/[^\x00-\x7f]/.test(line)) continue;
    const code = line.trimStart();
    if (!(code.startsWith('//') || code.startsWith('/*') || code.startsWith('*'))) {
      throw new Error(`scripts/bundle.mjs: ${file}:${i + 1}: a non-ASCII character outside a comment (write it as \\uXXXX in the source): ${code.slice(0, 120)}`);
    }
    lines[i] = line.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return lines.join('\n');
}

/** Written beside its target, then renamed: a failed build leaves no half file. */
function writeAtomically(path, bytes) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}

const { BUNDLE, BUNDLE_CACHE, loadBundle } = await import(join(DIST, 'cli', 'start.cjs'));

if (process.argv[2] === '--check') {
  // In a fresh process: does V8 take the cache?
  const { script } = loadBundle(readFileSync(BUNDLE_CACHE));
  process.exitCode = script.cachedDataRejected === false ? 0 : 1;
} else {
  const temp = `${BUNDLE}.${process.pid}.tmp`;
  await bundle(temp);
  // An import() left in the bundle (of a computed name) would fail only when it runs: fail here.
  let text;
  try {
    text = asciiOnly(readFileSync(temp, 'utf8'), BUNDLE);
  } catch (err) {
    rmSync(temp);
    throw err;
  }
  writeFileSync(temp, text);
  const left = text.match(/^.*\bimport\(.*$/m);
  if (left) {
    rmSync(temp);
    throw new Error(`scripts/bundle.mjs: the bundle keeps an import() the loader cannot serve: ${left[0].trim()}`);
  }
  renameSync(temp, BUNDLE);
  rmSync(BUNDLE_CACHE, { force: true });
  const { script, main } = loadBundle();
  // No heap governor: it sets V8 flags, and V8 takes a cache only under the flags it was made with.
  process.env.SLOGULATE_HEAP = '0';
  const scratch = mkdtempSync(join(tmpdir(), 'slogulate-bundle-'));
  try {
    const slog = join(ROOT, 'fixtures', 'slogs', 'a-xs-3.slog');
    for (const [i, command] of [[slog], ['top', slog], ['stats', slog], ['compare', slog, slog]].entries()) {
      await main([process.execPath, 'slogulate', ...command, '-o', join(scratch, `${i}.txt`)]);
      if (process.exitCode) throw new Error(`scripts/bundle.mjs: the bundle failed: slogulate ${command.join(' ')}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  writeAtomically(BUNDLE_CACHE, script.createCachedData());
  const check = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--check'], { stdio: 'inherit' });
  if (check.status !== 0) throw new Error(`scripts/bundle.mjs: V8 rejects the code cache ${BUNDLE_CACHE}`);
}
