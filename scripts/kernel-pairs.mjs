#!/usr/bin/env node
/**
 * Writes fixtures/diverge/: pairs of real slogs for `slogulate diverge`
 * (issue 31), made by Agoric's published kernel.
 *
 * In a temp folder outside the repository it installs
 * `@agoric/swingset-vat@0.33.0` and what scenario `a` imports (as
 * ../shared/kernel-scenarios/README.md shows; local workers only, so the XS
 * worker is not built: `--ignore-scripts`, then only better-sqlite3 and
 * microtime are rebuilt), copies scenario `a` there, and runs it three
 * times with the same rounds:
 *   same-1, same-2  the same run twice: the same cranks and hashes, other times;
 *   diverged        the timer device given another start time (TIMER_START,
 *                   which the copy's run.js reads: the shared scenario is not
 *                   changed), so that the run diverges mid-run, where the
 *                   bootstrap vat first asks the timer for the time.
 * Every run with REAP (below) so large that no bringOutYourDead runs.
 * Each slog's vat source bundles (`"endoZipBase64":"..."`, about 1 MB a
 * line) are replaced by `"<elided N bytes>"`, as in fixtures/slogs; nothing
 * else of a line is changed.
 *
 * Usage: node scripts/kernel-pairs.mjs [ROUNDS]   (default 3; needs npm and the network)
 * KERNEL_PAIRS_KEEP=1 keeps the temp folder.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIO = resolve(ROOT, '..', 'shared', 'kernel-scenarios', 'a');
const OUT = join(ROOT, 'fixtures', 'diverge');
const ROUNDS = process.argv[2] ?? '3';
const PACKAGES = ['@agoric/swingset-vat@0.33.0', '@agoric/swing-store', '@endo/far', '@agoric/vat-data', '@endo/init', '@endo/patterns'];
/** The diverged run's timer start (the same runs start at run.js's 1000). */
const DIVERGED_TIMER_START = '5000';
/**
 * Every run's reap interval: more deliveries than a run makes, so that no
 * vat's bringOutYourDead runs. A local worker's garbage collection is Node's
 * own, not deterministic: with run.js's 3, one run dropped an import where
 * another did not, and the pair diverged there before the timer's input.
 */
const REAP = '100000';
/** A line longer than this after shortening is a bundle field this script does not know. */
const MAX_LINE = 64 * 1024;

const run = (cmd, args, cwd, env = {}) => {
  process.stderr.write(`$ ${cmd} ${args.join(' ')}\n`);
  execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
};

const dir = mkdtempSync(join(tmpdir(), 'slogulate-kernel-pairs-'));
try {
  run('npm', ['init', '-y'], dir);
  run('npm', ['pkg', 'set', 'type=module'], dir);
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...PACKAGES], dir);
  run('npm', ['rebuild', 'better-sqlite3', 'microtime'], dir);

  const demo = join(dir, 'demo');
  cpSync(SCENARIO, demo, { recursive: true });
  const runJs = join(demo, 'run.js');
  const original = readFileSync(runJs, 'utf8');
  const patched = original.replace('let t = 1000n;', 'let t = BigInt(process.env.TIMER_START || 1000);');
  if (patched === original) throw new Error(`${runJs}: no "let t = 1000n;" to make the timer's start an input`);
  writeFileSync(runJs, patched, { mode: 0o644 });

  const runs = [
    { name: 'same-1', env: {} },
    { name: 'same-2', env: {} },
    { name: 'diverged', env: { TIMER_START: DIVERGED_TIMER_START } },
  ];
  mkdirSync(OUT, { recursive: true });
  for (const r of runs) {
    const raw = join(dir, `${r.name}.raw.slog`);
    run('node', [runJs, raw, ROUNDS], dir, { REAP, ...r.env });
    const lines = readFileSync(raw, 'utf8').split('\n');
    const short = lines.map((line, i) => {
      const s = line.replace(/"endoZipBase64":"([^"]*)"/g, (_m, b64) => `"endoZipBase64":"<elided ${b64.length} bytes>"`);
      if (s.length > MAX_LINE) throw new Error(`${raw}:${i + 1}: ${s.length} characters after shortening the bundles`);
      return s;
    });
    writeFileSync(join(OUT, `${r.name}.slog`), short.join('\n'));
    process.stderr.write(`wrote fixtures/diverge/${r.name}.slog (${lines.length - 1} lines)\n`);
  }
} finally {
  if (process.env.KERNEL_PAIRS_KEEP) process.stderr.write(`kept ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });
}
