/**
 * Property tests of the reading layer (fast-check, a fixed seed and a
 * bounded number of runs; `npm run fuzz` runs many more, with random
 * seeds): on slogs of lines from the entry grammar and real lines, damaged
 * (test/fuzz/fuzz-slogs.ts),
 * - the fast path and the plain path give, line by line and for every
 *   consumer's reads, the same entry or the same bad-line report, and
 *   neither throws (reading-oracle.ts `checkPaths`);
 * - the slog read in chunks of any size, with lines over a big-line
 *   threshold streamed as tokens (SLOGULATE_BIG_LINE_BYTES), gives what
 *   JSON.parse gives of each line (`checkStreaming`).
 * First, that the generated lines reach what they are meant to: the byte
 * reader takes most undamaged crank lines, damaged ones are mostly bad
 * lines, and a good share of lines stream as big lines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineReader } from '../../src/scan/line-reader.js';
import { BadLine } from '../../src/scan/plain-reader.js';
import { splitLines } from '../../src/source/lines.js';
import { FastReader } from '../../src/scan/fast-reader.js';
import { planReads } from '../../src/scan/read-plan.js';
import { fuzzLine } from './fuzz-slogs.js';
import { expectProperty, PATHS, STREAMING, STREAMING_READERS } from './properties.js';
import { CONSUMERS } from './reading-oracle.js';
import { crankEntry } from './slog-grammar.js';
import { jsonText, Rec } from './json-text.js';

/** The seed of every property here: fixed, so that `npm test` is the same run each time. */
const SEED = 29014;

describe('the generators reach the readers\' paths', () => {
  it('crank lines from the grammar, undamaged, in the slogger\'s order: the byte reader takes most of them', () => {
    const plan = planReads(CONSUMERS[0]!.reads);
    const fast = new FastReader(plan);
    const lines = fc.sample(crankEntry.map((m) => jsonText(new Rec(m))), { seed: SEED, numRuns: 400 });
    const batch = splitLines(Buffer.from(lines.join('\n')));
    let taken = 0;
    for (let i = 0; i < lines.length; i += 1) if (fast.read(batch, batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number) !== undefined) taken += 1;
    // The rest have exotic numbers, odd strings or values of another type, which the plain path reads.
    expect(taken / lines.length).toBeGreaterThan(0.4);
  });

  it('damaged lines: most are bad lines, some still entries', () => {
    const reader = lineReader(CONSUMERS[1]!.reads, { fast: false });
    const lines = fc.sample(fuzzLine, { seed: SEED, numRuns: 400 });
    const reads = lines.map((l) => reader.read(splitLines(Buffer.concat([l, Buffer.from('\n')])), 0));
    const bad = reads.filter((r) => r instanceof BadLine).length;
    expect(bad / lines.length).toBeGreaterThan(0.3);
    expect(bad / lines.length).toBeLessThan(0.9);
  });
});

describe('fast and plain paths agree on any line (fixed seed)', () => {
  it(PATHS.what, async () => {
    await expectProperty(PATHS, SEED, 300);
  });
});

describe('the streaming reader agrees with whole lines (fixed seed)', () => {
  it('the readers compared are those whose reads the token path builds differently for', () => {
    expect(STREAMING_READERS().map((r) => r.name.split(' ')[0])).toEqual(['model', 'everything', 'render', 'stats,', 'export', 'export']);
  });

  it('in the inputs sampled, most slogs have a line over their threshold (streamed as tokens)', () => {
    const inputs = fc.sample(STREAMING.arbitrary, { seed: SEED, numRuns: 80 });
    const streamed = inputs.filter((s) => s.bytes.toString('latin1').split('\n').some((l) => l.length > s.bigLineBytes));
    expect(streamed.length / inputs.length).toBeGreaterThan(0.5);
  });

  it(STREAMING.what, async () => {
    await expectProperty(STREAMING, SEED, 80);
  });
});
