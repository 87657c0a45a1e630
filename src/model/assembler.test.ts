/**
 * The sink's stop answer (CrankSink, SinkAnswer): `push` and `end` answer
 * 'stop' exactly when the sink answered so to something that call handed
 * over (a crank, an entry outside cranks), and the model goes on taking
 * entries after it (the pass decides to read no more).
 */
import { describe, expect, it } from 'vitest';
import { CrankAssembler, type CrankSink, type SinkAnswer } from './assembler.js';
import type { SlogEntry } from '../scan/entry-types.js';

const start = (crankNum: number): SlogEntry => ({ type: 'crank-start', crankNum, crankType: 'routing', time: crankNum });
const finish = (crankNum: number): SlogEntry => ({ type: 'crank-finish', crankNum, time: crankNum + 0.5 });

/** A sink that answers 'stop' to cranks whose number is in `stopAt`, and to entries of the types in `stopTypes`. */
function stopping(stopAt: number[], stopTypes: string[]): CrankSink & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    entry(entry): SinkAnswer {
      seen.push(entry.type);
      return stopTypes.includes(entry.type) ? 'stop' : undefined;
    },
    crank(crank): SinkAnswer {
      seen.push(`crank ${crank.crankNum}`);
      return stopAt.includes(crank.crankNum) ? 'stop' : undefined;
    },
  };
}

describe('the stop answer', () => {
  it('is the answer of the push that handed over the crank the sink stopped at, and of no other', () => {
    const sink = stopping([2], []);
    const a = new CrankAssembler(sink);
    const answers = [start(1), finish(1), start(2), finish(2), start(3), finish(3)].map((e, i) => a.push(e, i + 1));
    expect(answers).toEqual([undefined, undefined, undefined, 'stop', undefined, undefined]);
    expect(sink.seen).toEqual(['crank 1', 'crank 2', 'crank 3']);
  });

  it('is the answer of a crank-start that ends the open crank unfinished, and of end() for the last one', () => {
    const sink = stopping([1, 2], []);
    const a = new CrankAssembler(sink);
    expect(a.push(start(1), 1)).toBeUndefined();
    expect(a.push(start(2), 2)).toBe('stop');
    expect(a.end()).toBe('stop');
    expect(a.end()).toBeUndefined();
  });

  it('is the answer of an entry outside cranks the sink stopped at', () => {
    const sink = stopping([], ['kernel-stats']);
    const a = new CrankAssembler(sink);
    expect(a.push({ type: 'kernel-init-start' }, 1)).toBeUndefined();
    expect(a.push({ type: 'kernel-stats' }, 2)).toBe('stop');
    expect(a.push({ type: 'kernel-init-finish' }, 3)).toBeUndefined();
  });

  it('is nothing from a sink that answers nothing', () => {
    const a = new CrankAssembler({ entry: () => undefined, crank: () => undefined });
    const answers = [{ type: 'kernel-init-start' }, start(1), finish(1), start(2)].map((e, i) => a.push(e, i + 1));
    expect([...answers, a.end()]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
