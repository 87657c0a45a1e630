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
import { CommittedCranks } from '../src/model/executions.js';
import { statsOf } from '../src/run/analyses.js';
import { runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-restart-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What comes before the cranks: a commit (a chain's, committed), a begin-block (a chain's, not committed yet), or nothing (a standalone kernel's). */
type Before = 'commit' | 'begin-block' | 'nothing';

/**
 * Routing cranks 1..`cranks`, a restart, `between` console entries (what a
 * restart's replays look like to the analyses: entries outside cranks),
 * then cranks `again`..`cranks` run again.
 */
function restartSlog(name: string, cranks: number, again: number, before: Before, between = 0): string {
  const lines = ['{"type":"kernel-init-start","time":1,"monotime":1}'];
  const crank = (n: number, t: number): void => {
    lines.push(`{"type":"crank-start","crankType":"routing","crankNum":${n},"time":${t},"monotime":${t}}`);
    lines.push(`{"type":"crank-finish","crankType":"routing","crankNum":${n},"time":${t + 0.001},"monotime":${t + 0.001},"seconds":0.001}`);
  };
  if (before === 'commit') lines.push('{"type":"cosmic-swingset-commit-block-finish","blockHeight":1,"blockTime":1,"time":1.5,"monotime":1.5,"seconds":0.1}');
  if (before === 'begin-block') lines.push('{"type":"cosmic-swingset-begin-block","blockHeight":1,"blockTime":1,"time":1.5,"monotime":1.5}');
  for (let n = 1; n <= cranks; n += 1) crank(n, 2 + n / 1000);
  lines.push('{"type":"kernel-init-start","time":10,"monotime":10}');
  for (let i = 0; i < between; i += 1) lines.push(`{"type":"console","source":"kernel","state":"idle","level":"log","args":["${i}"],"time":10.5,"monotime":10.5}`);
  for (let n = again; n <= cranks; n += 1) crank(n, 11 + n / 1000);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const warning = (file: string, n: number): string =>
  `${file}: a restart ran again cranks already counted (more ran since the last commit than are held back): up to ${n} may be counted twice`;

/** What `stats` counts of a slog, and the warnings it gives. */
async function counted(file: string): Promise<{ held: string; mayCountTwice: number; abandoned: number; routing: number; warnings: string[] }> {
  const warnings: string[] = [];
  const r = await statsOf({ inputs: [file], onWarning: (w) => warnings.push(w) });
  return { held: r.pass.held, mayCountTwice: r.pass.mayCountTwice, abandoned: r.aggregate.abandoned.cranks, routing: r.aggregate.cranks.routing, warnings };
}

describe('a restart that runs again more cranks than were held back', () => {
  it('without commits (500 held): 600 ran, 100 went on before the restart ran 50..600 again, 51 counted twice, and the pass says so', async () => {
    const file = restartSlog('restart-600.slog', 600, 50, 'nothing');
    expect(await counted(file)).toEqual({ held: 'read again', mayCountTwice: 51, abandoned: 500, routing: 600 + 51, warnings: [warning(file, 51)] });
  });

  it('a chain slog holds every crank since its last commit (up to 10,000): the same restart counts each crank once', async () => {
    const file = restartSlog('restart-600-chain.slog', 600, 50, 'commit');
    expect(await counted(file)).toEqual({ held: 'from the first commit', mayCountTwice: 0, abandoned: 551, routing: 600, warnings: [] });
  });

  it('a chain slog before its first commit (a begin-block seen) is held as a chain\'s: up to 10,000', async () => {
    const file = restartSlog('restart-700-begin.slog', 700, 1, 'begin-block');
    expect(await counted(file)).toEqual({ held: 'read again', mayCountTwice: 0, abandoned: 700, routing: 700, warnings: [] });
  });

  it('entries outside cranks are held only behind held cranks, and at most 50,000: past that, a restart waiting for its first crank is given up, and that crank says how many may be counted twice', async () => {
    // 40,000 entries between the restart and its first crank: held, and the restart settled as usual.
    const within = restartSlog('restart-40k.slog', 100, 50, 'commit', 40_000);
    expect(await counted(within)).toEqual({ held: 'from the first commit', mayCountTwice: 0, abandoned: 51, routing: 100, warnings: [] });
    // 60,000: given up, the 100 held cranks went on; cranks 50..100 run again are counted twice, and the pass says so.
    const beyond = restartSlog('restart-60k.slog', 100, 50, 'commit', 60_000);
    expect(await counted(beyond)).toEqual({ held: 'from the first commit', mayCountTwice: 51, abandoned: 0, routing: 151, warnings: [warning(beyond, 51)] });
  });

  it('with no crank held, an entry goes on at once (a slog of many entries and no cranks holds nothing)', () => {
    const seen: string[] = [];
    const held = new CommittedCranks({
      entry: (e) => {
        seen.push(e.type);
      },
      crank: () => undefined,
    });
    held.entry({ type: 'kernel-init-start' }, 1);
    for (let i = 0; i < 3; i += 1) held.entry({ type: 'kernel-stats' }, 2 + i);
    expect(seen).toEqual(['kernel-init-start', 'kernel-stats', 'kernel-stats', 'kernel-stats']);
  });

  it('report prints the warning too', async () => {
    const file = restartSlog('restart-600-report.slog', 600, 50, 'nothing');
    const r = await runCli(['report', file, '-o', join(dir, 'r.html')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`slogulate: ${warning(file, 51)}\n`);
  });

  it('the command line prints the warning on stderr, for a file and for stdin, and exits 0', async () => {
    const file = restartSlog('restart-600-cli.slog', 600, 50, 'nothing');
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
