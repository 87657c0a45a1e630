import { describe, expect, it } from 'vitest';
import { HeapGovernor } from './heap-governor.js';

const MB = 1 << 20;
const KB = 1 << 10;

/** A governor over a fake old generation; the young generation is never capped (no V8 flags set). */
function fake(): { governor: HeapGovernor; old: { used: number; reads: number }; collected: number[] } {
  const old = { used: 5 * MB, reads: 0 };
  const collected: number[] = [];
  const governor = new HeapGovernor({
    youngCapBytes: Number.POSITIVE_INFINITY,
    promotedBytes: 8 * MB,
    oldSpaceUsed: () => {
      old.reads += 1;
      return old.used;
    },
    collect: () => {
      collected.push(old.used);
      old.used = 5 * MB;
    },
  });
  return { governor, old, collected };
}

describe('HeapGovernor', () => {
  it('collects at once when a pass was dropped, and counts from there', () => {
    const { governor, old, collected } = fake();
    old.used = 30 * MB;
    governor.dropped();
    expect(collected).toEqual([30 * MB]);
    // Measured from the collection's 5 MB: 7 MB more is not enough for another.
    old.used = 12 * MB;
    for (let i = 0; i < 8; i += 1) governor.tick(MB);
    expect(collected).toEqual([30 * MB]);
  });

  it('never collects a pass whose old generation stays flat, however long', () => {
    const { governor, collected } = fake();
    for (let i = 0; i < 4096; i += 1) governor.tick(MB);
    expect(collected).toEqual([]);
  });

  it('collects once the old generation grew by promotedBytes, whatever the input read', () => {
    const { governor, old, collected } = fake();
    // A pass that promotes 3 MB per 1 MB read (cranks held back for a restart).
    for (let i = 0; i < 12; i += 1) {
      governor.tick(MB);
      old.used += 3 * MB;
    }
    // At the first look that sees more than 8 MB above the size after the last collection (9 MB: looks 4, 7, 10).
    expect(collected).toEqual([14 * MB, 14 * MB, 14 * MB]);
    expect(governor.collections).toBe(3);
  });

  it('looks at the heap once per MB of input, not at every batch of lines', () => {
    const { governor, old } = fake();
    // 64 KB batches: 1,024 of them make 64 MB.
    for (let i = 0; i < 1024; i += 1) governor.tick(64 * KB);
    // One look per 16 batches.
    expect(governor.checks).toBe(64);
    expect(old.reads).toBe(governor.checks);
  });

  it('takes the old generation as it is at the first look as its start, and looks first after 1 MB (a small slog is never looked at)', () => {
    const { governor, old, collected } = fake();
    old.used = 40 * MB;
    governor.tick(1000);
    expect(governor.checks).toBe(0);
    governor.tick(MB);
    expect(governor.checks).toBe(1);
    old.used += MB;
    governor.tick(MB);
    expect(collected).toEqual([]);
  });

  it('collects every bigLineBytes of a huge line, even when the old generation looks flat', () => {
    const { governor, collected } = fake();
    // 40 MB of one line in 64 KB chunks.
    for (let i = 0; i < 640; i += 1) governor.tickBig(64 * KB);
    expect(collected.length).toBe(5);
  });
});
