/**
 * Every line as a big line: with SLOGULATE_BIG_LINE_BYTES=0 each line of a
 * slog is read as a stream of tokens (scan/big-line.ts), never as a whole
 * line, and every command must print exactly what it prints with the
 * threshold at its default (where none of these slogs has a line over it).
 * The whole of a-xs-3 and the real slogs as nodes write them, through the
 * command line in process. (big-lines.test.ts puts huge lines into real
 * slogs; this one checks the token path on every shape the real ones hold.)
 * chain-A (12 MB, three times slower this way) is left out: chain-bot has
 * its shapes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';
import { runMain } from './run-main.js';

const SHARED = join(ROOT, '..', 'shared', 'slogs');
const REAL = join(SHARED, 'real');

const saved = process.env.SLOGULATE_BIG_LINE_BYTES;
afterEach(() => {
  if (saved === undefined) delete process.env.SLOGULATE_BIG_LINE_BYTES;
  else process.env.SLOGULATE_BIG_LINE_BYTES = saved;
});

async function output(args: string[], threshold: string | undefined): Promise<string> {
  if (threshold === undefined) delete process.env.SLOGULATE_BIG_LINE_BYTES;
  else process.env.SLOGULATE_BIG_LINE_BYTES = threshold;
  const r = await runMain(args);
  return `status ${r.status}\n${r.both}`;
}

async function expectSame(args: string[]): Promise<void> {
  const before = await output(args, undefined);
  const after = await output(args, '0');
  expect(after === before, `slogulate ${args.join(' ')} differs with every line big`).toBe(true);
}

const RENDERS = [[], ['--nonoise', '--novatstore'], ['--vatspace', '--usesloggertags', '--timing'], ['--summarize', '--bigwidth', '20']];
const ANALYSES = [['stats'], ['top'], ['flow']];

describe('every line read as a big line (SLOGULATE_BIG_LINE_BYTES=0)', () => {
  it('the slogs are there, and the threshold does send lines down the token path (else these tests would pass on nothing)', async () => {
    for (const f of ['a-xs-3.slog', 'real/restart-replay.slog', 'real/chain-bot.slog', 'real/contextual-bot.jsonl']) expect(existsSync(join(SHARED, f)), f).toBe(true);
    // A line that is not JSON says why in the words of the parser that read it.
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-every-big-'));
    try {
      const lines = readFileSync(join(SHARED, 'a-xs-3.slog'), 'utf8').split('\n').slice(0, 6);
      lines.splice(3, 0, '{"type":"console", oops}');
      const slog = join(dir, 'bad.slog');
      writeFileSync(slog, `${lines.join('\n')}\n`);
      expect(await output([slog], undefined)).toContain(':4: not JSON: Expected double-quoted property name');
      expect(await output([slog], '0')).toContain(':4: not JSON: Parser cannot parse input: expected an object key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a-xs-3, whole: every render, stats, top, flow', async () => {
    const slog = join(SHARED, 'a-xs-3.slog');
    for (const args of [...RENDERS, ...ANALYSES]) await expectSame([...args, slog]);
  });

  for (const name of ['restart-replay.slog', 'y2022-create-vat.slog', 'mid-crank-start.slog', 'console-no-level.slog', 'lone-deliver-result.slog', 'chain-shapes.synthetic.slog']) {
    it(`${name}: renders, stats, top`, async () => {
      const slog = join(REAL, name);
      for (const args of [...RENDERS, ['stats'], ['top']]) await expectSame([...args, slog]);
    });
  }

  it('chain-bot and its contextual form: renders, stats, blocks, runs', async () => {
    for (const slog of [join(REAL, 'chain-bot.slog'), join(REAL, 'contextual-bot.jsonl')]) {
      for (const args of [[], ['--nonoise'], ['stats'], ['blocks'], ['runs']]) await expectSame([...args, slog]);
    }
  });
});
