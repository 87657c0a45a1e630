/**
 * How the analyses' passes hold cranks back for restarts (analyses.ts,
 * restarts.ts): files are read holding nothing until their first commit,
 * and read again, holding, when a restart is met before it; stdin and pipes
 * hold throughout. Every way gives the same figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { BadLineReport } from './pass.js';
import { VatNames } from '../model/vats.js';
import { compareSideOf, krefModelOf, statsOf, topOf } from './analyses.js';
import { canReadAgain } from './restarts.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const RESTART = join(REAL, 'restart-replay.slog');
const CHAIN_A = join(REAL, 'chain-A.slog');
const CLEAN = join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-analyses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** The file as a stream: it cannot be read again, so a pass holds throughout. */
function streamOf(path: string): { name: string; stream: Readable } {
  return { name: path, stream: Readable.from([readFileSync(path)]) };
}

describe('canReadAgain', () => {
  it('files (plain, gzip, a folder of them) and bytes can; stdin, streams, pipes and missing files cannot', () => {
    expect(canReadAgain([CLEAN])).toBe(true);
    expect(canReadAgain([write('a.slog.gz', gzipSync(readFileSync(CLEAN)))])).toBe(true);
    expect(canReadAgain([join(REAL, 'block-files-bot')])).toBe(true);
    expect(canReadAgain([{ name: 'x', bytes: readFileSync(CLEAN) }])).toBe(true);
    expect(canReadAgain([CLEAN, '-'])).toBe(false);
    expect(canReadAgain([streamOf(CLEAN)])).toBe(false);
    expect(canReadAgain([join(dir, 'missing.slog')])).toBe(false);
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(canReadAgain([fifo])).toBe(false);
  });
});

/** How a file with a restart is read: again when its restart comes before any commit (a standalone kernel's), once when after (a chain's). */
const HOW_READ = new Map([
  [RESTART, 'read again'],
  [CHAIN_A, 'from the first commit'],
]);

describe('a restart met in a file', () => {
  it('before any commit, is read again holding cranks; after one, once, held from the first commit; with the figures of a pass that held them throughout (restart-replay, chain-A, gzip)', async () => {
    const gz = write('chain-A.slog.gz', gzipSync(readFileSync(CHAIN_A)));
    for (const [file, how] of [[RESTART, 'read again'], [CHAIN_A, 'from the first commit'], [gz, 'from the first commit']] as const) {
      const again = await statsOf({ inputs: [file] });
      const held = await statsOf({ inputs: [streamOf(file)] });
      expect(again.pass.held, file).toBe(how);
      expect(held.pass.held).toBe('throughout');
      expect(again.aggregate).toEqual(held.aggregate);
      expect(again.pass.lines).toBe(held.pass.lines);
    }
    // restart-replay's restart ran 15 cranks again (chain-A's began its block again with none).
    expect((await statsOf({ inputs: [RESTART] })).aggregate.abandoned.cranks).toBe(15);
  });

  it('top and compare too', async () => {
    const top = await topOf({ inputs: [RESTART], n: 5 });
    const topHeld = await topOf({ inputs: [streamOf(RESTART)], n: 5 });
    expect(top.pass.held).toBe('read again');
    expect(top.top).toEqual(topHeld.top);
    const side = { slog: 'x' };
    for (const file of [RESTART, CHAIN_A]) {
      const cmp = await compareSideOf({ inputs: [file], side });
      const cmpHeld = await compareSideOf({ inputs: [streamOf(file)], side });
      expect(cmp.pass.held).toBe(HOW_READ.get(file));
      expect(cmp.data).toEqual(cmpHeld.data);
    }
    const chainTop = await topOf({ inputs: [CHAIN_A], n: 5 });
    expect(chainTop.pass.held).toBe('from the first commit');
    expect(chainTop.top).toEqual((await topOf({ inputs: [streamOf(CHAIN_A)], n: 5 })).top);
  });

  it('the kref model too: what reads beside it is made again, so a crank is seen once and names are learned in order', async () => {
    for (const file of [RESTART, CHAIN_A]) {
      const run = async (input: string | { name: string; stream: Readable }) => {
        let starts = 0;
        const cranks: number[] = [];
        const r = await krefModelOf({
          inputs: [input],
          start: () => {
            starts += 1;
            cranks.length = 0;
            return { vats: new VatNames(), value: cranks, onCrank: (crank) => cranks.push(crank.crankNum) };
          },
        });
        return { held: r.pass.held, starts, cranks: r.reader.value, facts: JSON.stringify([...r.model.ids()].map((id) => r.model.facts(id))), vats: r.reader.vats.entries() };
      };
      const again = await run(file);
      const held = await run(streamOf(file));
      expect(again.held, file).toBe(HOW_READ.get(file));
      expect(again.starts).toBe(file === RESTART ? 2 : 1);
      expect(held.held).toBe('throughout');
      expect(held.starts).toBe(1);
      expect(again.cranks).toEqual(held.cranks);
      expect(again.facts).toBe(held.facts);
      expect(again.vats).toEqual(held.vats);
    }
  });

  it('what the first read made is let go while the second read runs (it is not held beside the cranks the second holds)', async () => {
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let firstReader: WeakRef<object> | undefined;
    let freedWhileSecondReads: boolean | undefined;
    // Gzipped, so that the reads wait for zlib. A WeakRef keeps its target until the job that made it (or a deref) ends:
    // the check is made at the second read's first crank, jobs after the first read's end, not in the second read's start.
    const gz = write('restart-replay.slog.gz', gzipSync(readFileSync(RESTART)));
    await krefModelOf({
      inputs: [gz],
      start: () => {
        const second = firstReader !== undefined;
        const reader = {
          vats: new VatNames(),
          value: [] as number[],
          onCrank: () => {
            if (!second || freedWhileSecondReads !== undefined) return;
            gc();
            freedWhileSecondReads = (firstReader as WeakRef<object>).deref() === undefined;
          },
        };
        firstReader ??= new WeakRef(reader);
        return reader;
      },
    });
    expect(freedWhileSecondReads).toBe(true);
  });

  it('reports each bad line once, those before the restart and after it', async () => {
    const lines = readFileSync(RESTART, 'utf8').split('\n');
    const restartAt = lines.findIndex((l, i) => i > 0 && l.includes('"kernel-init-start"'));
    expect(restartAt).toBeGreaterThan(10);
    lines.splice(restartAt + 3, 0, '{not json, after the restart');
    lines.splice(5, 0, '{not json, before it');
    const file = write('restart-bad.slog', lines.join('\n'));
    const bad: BadLineReport[] = [];
    const result = await statsOf({ inputs: [file], onBadLine: (b) => bad.push(b) });
    expect(result.pass.held).toBe('read again');
    expect(bad.map((b) => b.line)).toEqual([6, restartAt + 5]);
    expect(result.pass.badLines).toBe(2);
  });

  it('reports each bad line once when the restart is in a later input: one just before it, one in the input before', async () => {
    // a-local-3 (one kernel start), then restart-replay: its first kernel start is the slog's second, on its line 1.
    const first = readFileSync(CLEAN, 'utf8').split('\n');
    first.splice(20, 0, '{not json, in the first file');
    const second = readFileSync(RESTART, 'utf8').split('\n');
    const restartAt = second.findIndex((l, i) => i > 0 && l.includes('"kernel-init-start"'));
    second.splice(restartAt, 0, '{not json, just before its second kernel start');
    second.splice(3, 0, '{not json, after the first restart');
    const files = [write('first-bad.slog', first.join('\n')), write('second-bad.slog', second.join('\n'))];
    const bad: BadLineReport[] = [];
    const result = await statsOf({ inputs: files, onBadLine: (b) => bad.push(b) });
    expect(result.pass.held).toBe('read again');
    expect(bad.map((b) => `${b.source}:${b.line}`)).toEqual([`${files[0]}:21`, `${files[1]}:4`, `${files[1]}:${restartAt + 2}`]);
    expect(result.pass.badLines).toBe(3);
  });
});

describe('no restart', () => {
  it('a file is read once, holding nothing; a stream with one kernel start holds throughout, with the same figures', async () => {
    const once = await statsOf({ inputs: [CLEAN] });
    const held = await statsOf({ inputs: [streamOf(CLEAN)] });
    expect(once.pass.held).toBe('never');
    expect(held.pass.held).toBe('throughout');
    expect(once.aggregate).toEqual(held.aggregate);
  });

  it('per benchmark round, compare reads a file once (its rounds take each mark once)', async () => {
    const { Rounds } = await import('../analyses/common/rounds.js');
    const result = await compareSideOf({ inputs: [CLEAN], side: { slog: 'x', rounds: new Rounds(), marksInSlog: true } });
    expect(result.pass.held).toBe('never');
  });
});
