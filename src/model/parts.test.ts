import { describe, expect, it } from 'vitest';
import type { CrankParts } from './crank.js';
import { PARTS, partMicros, partNamed, splitAddsSomething } from './parts.js';

const LOCAL: CrankParts = { total: 100, pageIn: 0, replay: 0, vat: 60, syscall: 30, pipe: 0, snapshot: 0, kernel: 10, unknown: 0, gc: undefined };

describe('the parts table', () => {
  it('the parts not within another add up to the total; replay and gc are within page-in and vat', () => {
    const parts: CrankParts = { total: 1000, pageIn: 300, replay: 200, vat: 100, syscall: 50, pipe: 20, snapshot: 400, kernel: 130, unknown: 0, gc: 40 };
    const top = PARTS.filter((p) => p.within === undefined).reduce((sum, p) => sum + (partMicros(parts, p) ?? 0), 0);
    expect(top).toBe(parts.total);
    expect(partNamed('replay')?.within).toBe('page-in');
    expect(partNamed('gc')?.within).toBe('vat');
    expect(partNamed('local')).toBeUndefined();
  });

  it('a local-worker crank with no page-in or snapshot: the split adds nothing; page-in, snapshot, pipe or unknown time: it does', () => {
    expect(splitAddsSomething(LOCAL)).toBe(false);
    expect(splitAddsSomething({ ...LOCAL, snapshot: 1, kernel: 9 })).toBe(true);
    expect(splitAddsSomething({ ...LOCAL, pageIn: 1, kernel: 9 })).toBe(true);
    expect(splitAddsSomething({ ...LOCAL, pipe: 1, vat: 59 })).toBe(true);
    expect(splitAddsSomething({ ...LOCAL, vat: undefined, pipe: undefined, unknown: 60 })).toBe(true);
  });
});
