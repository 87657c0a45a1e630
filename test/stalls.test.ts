/**
 * Stalls (src/model/stalls.ts, docs/time-split.md): gaps of more than a
 * threshold between consecutive entries, found by a StallDetector on the
 * pass's `observe` hook, against a plain loop over the slog's lines
 * (test/time-split-loop.ts), and on hand-made lines.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrankAssembler } from '../src/model/assembler.js';
import { StallDetector, type Stall } from '../src/model/stalls.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { runPass } from '../src/run/pass.js';
import { READ_NOTHING } from '../src/scan/reads.js';
import { ROOT } from './helpers.js';
import { readEntries, type Line } from './slog-lines.js';
import { loopStalls, slogEntries } from './time-split-loop.js';

const SHARED = join(ROOT, '..', 'shared', 'slogs');

/** The stalls of a slog over `seconds`, found as a consumer finds them: the detector on the pass's observe hook. */
async function stallsOf(file: string, seconds?: number): Promise<Stall[]> {
  const stalls: Stall[] = [];
  const detector = new StallDetector((s) => stalls.push(s), seconds);
  await runPass({ inputs: [file], reads: READ_NOTHING, sink: { entry: () => undefined, crank: () => undefined }, settings: settingsFrom(), observe: (entry, _line, place, facts) => detector.observe(entry, place, facts) });
  return stalls;
}

/** Hand-made lines to the detector as the pass gives them: each entry with the crank model's place before it, then to the model. */
function observeAll(detector: StallDetector, lines: Line[]): void {
  const model = new CrankAssembler({ entry: () => undefined, crank: () => undefined });
  readEntries(lines, READ_NOTHING).forEach((e, i) => {
    detector.observe(e, model, { type: e.type, time: typeof e.time === 'number' ? e.time : NaN });
    model.push(e, i + 1);
  });
}

const figures = ({ micros, crankNum, blockNum, runNum, before, after }: Stall) => ({ micros, crankNum, blockNum, runNum, before, after });

describe('stalls on the shared slogs, as a plain loop finds them', () => {
  it.each([
    ['real/chain-A.slog', 'the default threshold (1 s)', undefined],
    ['real/chain-A.slog', '0.2 s', 0.2],
    ['real/restart-replay.slog', '0.1 s', 0.1],
    ['a-xs-3.slog', '0.05 s', 0.05],
    ['real/y2022-create-vat.slog', '0.02 s', 0.02],
  ])('%s over %s', async (name, _label, seconds) => {
    const file = join(SHARED, name);
    const stalls = await stallsOf(file, seconds);
    expect(stalls.map(figures)).toEqual(loopStalls(slogEntries(file), seconds ?? 1));
    expect(stalls.length, `${name} has stalls over ${seconds} s`).toBeGreaterThan(0);
    for (const s of stalls) expect(s.micros).toBe(Math.round(s.endTime * 1e6) - Math.round(s.startTime * 1e6));
  });

  it('chain-A: some stalls fall inside cranks, blocks and runs, some outside', async () => {
    const stalls = await stallsOf(join(SHARED, 'real', 'chain-A.slog'), 0.2);
    expect(stalls.some((s) => s.crankNum !== undefined)).toBe(true);
    expect(stalls.some((s) => s.crankNum === undefined)).toBe(true);
    expect(stalls.some((s) => s.blockNum !== undefined && s.runNum !== undefined)).toBe(true);
    expect(stalls.some((s) => s.blockNum === undefined)).toBe(true);
  });
});

describe('hand-made lines', () => {
  const T0 = 1795400000;
  const lines: Line[] = [
    { type: 'cosmic-swingset-begin-block', blockHeight: 7, blockTime: 1, time: T0 },
    { type: 'cosmic-swingset-run-start', blockHeight: 7, runNum: 2, phase: 'timer', time: T0 + 0.1 },
    { type: 'crank-start', crankType: 'delivery', crankNum: 40, time: T0 + 0.2 },
    { type: 'syscall', crankNum: 40, vatID: 'v1', replay: false, syscall: 'vatstoreGet', vsc: ['vatstoreGet', 'k'], time: T0 + 0.3 },
    // 2.5 s inside crank 40, block 7, run 2.
    { type: 'syscall-result', crankNum: 40, vatID: 'v1', replay: false, syscall: 'vatstoreGet', vsr: ['ok', null], time: T0 + 2.8 },
    { type: 'crank-finish', crankType: 'delivery', crankNum: 40, time: T0 + 2.9 },
    { type: 'cosmic-swingset-run-finish', blockHeight: 7, runNum: 2, time: T0 + 3 },
    { type: 'cosmic-swingset-end-block-finish', blockHeight: 7, time: T0 + 3.1 },
    // 1.5 s between blocks; an entry without time is passed over.
    { type: 'kernel-stats' },
    { type: 'cosmic-swingset-begin-block', blockHeight: 8, blockTime: 2, time: T0 + 4.6 },
    // Exactly 1 s: not more than the threshold.
    { type: 'cosmic-swingset-end-block-finish', blockHeight: 8, time: T0 + 5.6 },
  ];

  it('a gap inside a crank, block and run; one between blocks; one of exactly the threshold is none', () => {
    const stalls: Stall[] = [];
    const detector = new StallDetector((s) => stalls.push(s));
    observeAll(detector, lines);
    expect(stalls).toEqual([
      { startTime: T0 + 0.3, endTime: T0 + 2.8, micros: 2_500_000, crankNum: 40, blockNum: 7, runNum: 2, before: 'syscall', after: 'syscall-result' },
      { startTime: T0 + 3.1, endTime: T0 + 4.6, micros: 1_500_000, crankNum: undefined, blockNum: undefined, runNum: undefined, before: 'cosmic-swingset-end-block-finish', after: 'cosmic-swingset-begin-block' },
    ]);
  });

  it('a crank-start without a number (older kernels) takes the number of the entry after the gap; a threshold of its own', () => {
    const old: Line[] = [
      { type: 'crank-start', time: T0 },
      { type: 'deliver', crankNum: 3, vatID: 'v1', replay: false, kd: ['bringOutYourDead'], vd: ['bringOutYourDead'], time: T0 + 0.5 },
      { type: 'crank-finish', crankNum: 3, time: T0 + 0.6 },
    ];
    const stalls: Stall[] = [];
    const detector = new StallDetector((s) => stalls.push(s), 0.25);
    observeAll(detector, old);
    expect(stalls.map(figures)).toEqual([{ micros: 500_000, crankNum: 3, blockNum: undefined, runNum: undefined, before: 'crank-start', after: 'deliver' }]);
  });
});
