import { describe, expect, it } from 'vitest';
import type { CrankParts } from '../../model/crank.js';
import { PARTS, partMicros } from '../../model/parts.js';
import { PartsTally } from './parts-tally.js';

const crank = (p: Partial<CrankParts>): CrankParts => ({ total: 0, pageIn: 0, replay: 0, vat: 0, syscall: 0, pipe: 0, snapshot: 0, kernel: 0, unknown: 0, gc: undefined, ...p });

describe('PartsTally', () => {
  it('sums each part, counts the cranks where it is not zero, and those where it is unknown; cranks without parts apart', () => {
    const t = new PartsTally();
    t.add(crank({ total: 100, vat: 60, syscall: 30, kernel: 10 }));
    t.add(crank({ total: 50, vat: undefined, pipe: undefined, unknown: 40, kernel: 10 }));
    t.add(crank({ total: 70, snapshot: 50, vat: 5, kernel: 15, gc: 4 }));
    t.add(undefined);
    expect(t.cranks).toBe(3);
    expect(t.withoutParts).toBe(1);
    expect(t.totalMicros).toBe(220);
    expect(t.part('vat')).toEqual({ name: 'vat', micros: 65, cranks: 2, unknownIn: 1 });
    expect(t.part('unknown')).toEqual({ name: 'unknown', micros: 40, cranks: 1, unknownIn: 0 });
    expect(t.part('gc')).toEqual({ name: 'gc', micros: 4, cranks: 1, unknownIn: 0 });
    const whole = t.parts().filter((s) => !['replay', 'gc'].includes(s.name)).reduce((sum, s) => sum + s.micros, 0);
    expect(whole).toBe(t.totalMicros);
    const both = new PartsTally();
    both.addTally(t);
    both.addTally(t);
    expect(both.part('snapshot').micros).toBe(100);
    expect(both.cranks).toBe(6);
  });

  it('each part summed from its own field, as partMicros reads it', () => {
    const parts = crank({ total: 1, pageIn: 2, replay: 3, vat: 4, syscall: 5, pipe: 6, snapshot: 7, kernel: 8, unknown: 9, gc: 10 });
    const t = new PartsTally();
    t.add(parts);
    for (const p of PARTS) expect(t.part(p.name).micros, p.name).toBe(partMicros(parts, p));
  });
});
