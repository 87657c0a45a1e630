/**
 * How many cranks an analysis holds back for a restart (model/executions.ts):
 * 500 in a slog without commits, 10,000 between a chain's commits. A
 * restart that runs again more than were held has some counted twice, and
 * the command says how many may be, on stderr, with exit status 0.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statsOf } from '../src/run/analyses.js';
import { runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-restart-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Routing cranks 1..`cranks`, a restart, then cranks `again`..`cranks` run again; a commit first when `commit`. */
function restartSlog(name: string, cranks: number, again: number, commit: boolean): string {
  const lines = ['{"type":"kernel-init-start","time":1,"monotime":1}'];
  const crank = (n: number, t: number): void => {
    lines.push(`{"type":"crank-start","crankType":"routing","crankNum":${n},"time":${t},"monotime":${t}}`);
    lines.push(`{"type":"crank-finish","crankType":"routing","crankNum":${n},"time":${t + 0.001},"monotime":${t + 0.001},"seconds":0.001}`);
  };
  if (commit) lines.push('{"type":"cosmic-swingset-commit-block-finish","blockHeight":1,"blockTime":1,"time":1.5,"monotime":1.5,"seconds":0.1}');
  for (let n = 1; n <= cranks; n += 1) crank(n, 2 + n / 1000);
  lines.push('{"type":"kernel-init-start","time":10,"monotime":10}');
  for (let n = again; n <= cranks; n += 1) crank(n, 11 + n / 1000);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const warning = (file: string, n: number): string =>
  `${file}: a restart ran again cranks already counted (more ran since the last commit than are held back): up to ${n} may be counted twice`;

describe('a restart that runs again more cranks than were held back', () => {
  it('without commits (500 held): 600 ran, 100 went on before the restart ran 50..600 again, 51 counted twice, and the pass says so', async () => {
    const file = restartSlog('restart-600.slog', 600, 50, false);
    const warnings: string[] = [];
    const loose = await statsOf({ inputs: [file], onWarning: (w) => warnings.push(w) });
    expect(loose.pass.held).toBe('read again');
    expect(loose.pass.mayCountTwice).toBe(51);
    expect(warnings).toEqual([warning(file, 51)]);
    expect(loose.aggregate.abandoned.cranks).toBe(500);
    expect(loose.aggregate.cranks.routing).toBe(600 + 51);
  });

  it('a chain slog holds every crank since its last commit (up to 10,000): the same restart counts each crank once', async () => {
    const file = restartSlog('restart-600-chain.slog', 600, 50, true);
    const warnings: string[] = [];
    const held = await statsOf({ inputs: [file], onWarning: (w) => warnings.push(w) });
    expect(held.pass.held).toBe('from the first commit');
    expect(held.pass.mayCountTwice).toBe(0);
    expect(warnings).toEqual([]);
    expect(held.aggregate.abandoned.cranks).toBe(551);
    expect(held.aggregate.cranks.routing).toBe(600);
  });

  it('the command line prints the warning on stderr, for a file and for stdin, and exits 0', async () => {
    const file = restartSlog('restart-600-cli.slog', 600, 50, false);
    for (const cmd of ['stats', 'top']) {
      const r = await runCli([cmd, file]);
      expect(r.status, r.stderr).toBe(0);
      // top also says it has no delivery crank to rank (the slog's cranks are routing ones).
      expect(r.stderr.split('\n')[0]).toBe(`slogulate: ${warning(file, 51)}`);
    }
    const piped = await runCli(['stats', '-'], { stdin: readFileSync(file) });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe(`slogulate: ${warning('<stdin>', 51)}\n`);
  });
});
