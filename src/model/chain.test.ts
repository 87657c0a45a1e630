/**
 * The chain tracker on the real chain slogs: every crank of chain-A.slog is
 * stamped with the block and run a plain loop over its lines finds it in
 * (begin-block .. end-block-finish, run-start .. run-finish), the block run
 * again after the restart is marked `again` there and only there, runs are
 * triggered by what came in just before them; and an upgrade's runs
 * (chain-shapes) belong to the upgrade's block.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPass } from '../run/pass.js';
import { READ_NOTHING } from '../scan/reads.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { ChainTracker, triggerText } from './chain.js';
import type { Crank } from './crank.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');

type Entry = Record<string, any>;

/** Per crank-start line, in order: the block height, `again` and the run's phase and trigger text, as a plain loop sees them. */
function plainStamps(file: string): string[] {
  const stamps: string[] = [];
  let block: string | undefined;
  let run: string | undefined;
  let last: Entry | undefined;
  let starts = 0;
  let maxBefore = -1;
  let max = -1;
  let bootstrapHeight = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Entry;
    switch (e.type) {
      case 'kernel-init-start':
        starts += 1;
        if (starts > 1) maxBefore = max;
        block = run = last = undefined;
        break;
      case 'cosmic-swingset-init':
        bootstrapHeight = e.blockHeight;
        break;
      case 'cosmic-swingset-bootstrap-block-start':
      case 'cosmic-swingset-begin-block': {
        const h = e.type === 'cosmic-swingset-begin-block' ? e.blockHeight : bootstrapHeight;
        block = `${h}${starts > 1 && h <= maxBefore ? ' again' : ''}`;
        max = Math.max(max, h);
        run = last = undefined;
        break;
      }
      case 'cosmic-swingset-end-block-finish':
      case 'cosmic-swingset-bootstrap-block-finish':
        block = run = undefined;
        break;
      case 'cosmic-swingset-run-start': {
        let trigger: string;
        if (block === `${bootstrapHeight}` && e.phase === 'forced' && !last) trigger = 'bootstrap';
        else if (last?.type === 'cosmic-swingset-bridge-inbound') trigger = `bridge ${last.source} ${last.body.type}`;
        else if (last?.type === 'cosmic-swingset-deliver-inbound') trigger = `mailbox ${last.sender} (${last.count})`;
        else if (last?.type === 'cosmic-swingset-timer-poll') trigger = 'timer';
        else trigger = e.phase;
        run = `${e.runNum} ${e.phase} ${trigger}`;
        last = undefined;
        break;
      }
      case 'cosmic-swingset-run-finish':
        run = undefined;
        break;
      case 'cosmic-swingset-bridge-inbound':
      case 'cosmic-swingset-deliver-inbound':
      case 'cosmic-swingset-timer-poll':
        last = e;
        break;
      case 'crank-start':
        stamps.push(`${block ?? '-'} / ${run ?? '-'}`);
        break;
      default:
        break;
    }
  }
  return stamps;
}

async function modelStamps(file: string): Promise<string[]> {
  const stamps: string[] = [];
  const stamp = (c: Crank): string =>
    `${c.block ? `${c.block.height}${c.block.again ? ' again' : ''}` : '-'} / ${c.run ? `${c.run.num} ${c.run.phase} ${triggerText(c.run.trigger)}` : '-'}`;
  const sink = {
    entry: () => undefined,
    crank: (c: Crank) => {
      stamps.push(stamp(c));
    },
  };
  await runPass({ inputs: [file], reads: READ_NOTHING, sink });
  return stamps;
}

describe('ChainTracker on the real chain slogs', () => {
  for (const name of ['chain-A.slog', 'chain-bot.slog']) {
    it(`${name}: every crank's block, again, run and trigger are what a plain loop finds`, async () => {
      const file = join(REAL, name);
      const plain = plainStamps(file);
      expect(plain.length).toBeGreaterThan(40);
      expect(await modelStamps(file)).toEqual(plain);
    });
  }

  it('chain-A.slog: the restart runs block 85 again, and no other block', () => {
    const again = new Set(plainStamps(join(REAL, 'chain-A.slog')).filter((s) => s.includes(' again')));
    // Block 85 ran no crank either time: seen through the tracker itself.
    expect(again.size).toBe(0);
    const tracker = new ChainTracker();
    const seen: string[] = [];
    for (const line of readFileSync(join(REAL, 'chain-A.slog'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as SlogEntry;
      tracker.entry(e);
      if (e.type === 'cosmic-swingset-begin-block' && tracker.block?.again) seen.push(`${tracker.block.height}`);
    }
    expect(seen).toEqual(['85']);
  });

  it('an upgrade (upgrade-start .. -finish) is its block: its runs are triggered by the upgrade', () => {
    const tracker = new ChainTracker();
    const file = join(REAL, 'chain-shapes.synthetic.slog');
    const during: Array<string | undefined> = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as SlogEntry;
      tracker.entry(e);
      if (e.type === 'cosmic-swingset-run-start') during.push(`${tracker.block?.height}${tracker.block?.upgrade ? ' upgrade' : ''} ${tracker.run?.trigger.kind}`);
      if (e.type === 'cosmic-swingset-upgrade-finish') expect(tracker.block).toBeUndefined();
    }
    expect(during[0]).toBe('19000000 upgrade upgrade');
    expect(during[1]).toBe('19000000 leftover');
  });
});
