/**
 * The line reader's facts (LineFacts: the type and time of the entry it gave
 * last, what the stall detector reads instead of the entry) are the entry's
 * own, on both paths, for every line of the shared slogs; a blank or bad
 * line leaves them as they were.
 */
import { describe, expect, it } from 'vitest';
import { AGGREGATE_READS } from '../analyses/stats/aggregate.js';
import { MODEL_READS } from '../model/reads.js';
import { splitLines } from '../source/lines.js';
import { lineReader } from './line-reader.js';
import { BadLine } from './plain-reader.js';
import { mergeReads, READ_ALL } from './reads.js';
import { sharedSlogs } from './shared-slogs.test-helpers.js';

/** The time an entry says, as the facts give it: NaN when it has no number there. */
const timeOf = (entry: { time?: unknown }): number => (typeof entry.time === 'number' ? entry.time : NaN);

describe('the line reader tells the type and time of each entry it gives', () => {
  const slogs = sharedSlogs();

  it('finds the shared slogs', () => {
    expect(slogs.length).toBeGreaterThan(10);
  });

  for (const reads of [
    { label: 'the model and stats', reads: mergeReads(MODEL_READS, AGGREGATE_READS) },
    { label: 'everything', reads: mergeReads(MODEL_READS, READ_ALL) },
  ]) {
    it.each(slogs.map((s) => [s.name, s.bytes] as const))(`%s, on both paths, reading ${reads.label}`, (name, bytes) => {
      const batch = splitLines(bytes);
      const count = batch.spans.length / 2;
      let fastLines = 0;
      for (const fast of [true, false]) {
        const reader = lineReader(reads.reads, { fast });
        for (let i = 0; i < count; i += 1) {
          const entry = reader.read(batch, i);
          if (entry === undefined || entry instanceof BadLine) continue;
          expect(reader.facts.type, `${name}:${batch.firstLine + i}`).toBe(entry.type);
          expect(reader.facts.time, `${name}:${batch.firstLine + i}`).toBe(timeOf(entry));
        }
        if (fast) fastLines = reader.linesRead.fast;
      }
      // The byte reader's own facts were checked, not only the plain path's (where its lines are in the slogger's form).
      if (/^\{"type":"deliver",/m.test(bytes.toString('latin1'))) expect(fastLines).toBeGreaterThan(0);
    });
  }

  it('a line without a time gives NaN; a blank or bad line leaves the facts of the entry before it', () => {
    const lines = [
      '{"type":"crank-start","crankType":"routing","crankNum":1,"time":1700000000.5,"monotime":1}',
      '',
      'not json',
      '{"type":"console","source":"kernel"}',
      '{"type":"kernel-stats","time":"late"}',
    ];
    const batch = splitLines(Buffer.from(lines.join('\n') + '\n'));
    for (const fast of [true, false]) {
      const reader = lineReader(MODEL_READS, { fast });
      const seen = lines.map((_, i) => {
        reader.read(batch, i);
        return { ...reader.facts };
      });
      expect(seen).toEqual([
        { type: 'crank-start', time: 1700000000.5 },
        { type: 'crank-start', time: 1700000000.5 },
        { type: 'crank-start', time: 1700000000.5 },
        { type: 'console', time: NaN },
        { type: 'kernel-stats', time: NaN },
      ]);
    }
  });
});
