import { describe, expect, it } from 'vitest';
import { HeapGovernor } from './heap-governor.js';

const MB = 1 << 20;

/** A governor over a fake old generation; the young generation is never capped (no V8 flags set). */
function fake(promotedBytes?: number): { governor: HeapGovernor; old: { used: number }; collected: number[] } {
  const old = { used: 5 * MB };
  const collected: number[] = [];
  const governor = new HeapGovernor({
    youngCapBytes: Number.POSITIVE_INFINITY,
    collectEveryBytes: 32 * MB,
    ...(promotedBytes === undefined ? {} : { promotedBytes }),
    oldSpaceUsed: () => old.used,
    collect: () => {
      collected.push(old.used);
      old.used = 5 * MB;
    },
  });
  return { governor, old, collected };
}

describe('HeapGovernor', () => {
  it('collects every collectEveryBytes of input while the old generation stays flat', () => {
    const { governor, collected } = fake();
    for (let i = 0; i < 64; i += 1) governor.tick(MB);
    expect(collected.length).toBe(2);
  });

  it('collects once the old generation grew by a quarter of collectEveryBytes, whatever the input read', () => {
    const { governor, old, collected } = fake();
    // A pass that promotes 3 MB per 1 MB read (cranks held back for a restart).
    for (let i = 0; i < 12; i += 1) {
      governor.tick(MB);
      old.used += 3 * MB;
    }
    // At the first tick that sees more than 8 MB above the size after the last collection (9 MB: ticks 4, 7, 10).
    expect(collected).toEqual([14 * MB, 14 * MB, 14 * MB]);
    expect(governor.collections).toBe(3);
  });

  it('takes the old generation as it is at the first tick as its start (a small slog is never collected)', () => {
    const { governor, old, collected } = fake(2 * MB);
    old.used = 40 * MB;
    governor.tick(1000);
    old.used += MB;
    governor.tick(1000);
    expect(collected).toEqual([]);
  });
});
