import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MARK, mayRestart, SCAN_CHUNK } from './restarts.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-restarts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `starts` kernel-init-start lines, the last one's mark straddling a read's end (beginning `before` bytes before it). */
function slogWith(starts: number, name: string, before = 5): string {
  const line = (n: number): string => `{"type":"kernel-init-start","time":${n},"monotime":${n}}\n`;
  let text = '';
  for (let i = 1; i < starts; i += 1) text += line(i);
  // Padding lines so that the last mark begins `before` bytes before the first read ends.
  const at = SCAN_CHUNK - before - '{"type":'.length;
  const filler = (n: number): string => `{"type":"console","time":0,"args":["${'x'.repeat(n)}"]}\n`;
  const overhead = filler(0).length;
  while (text.length + overhead + 200 < at) text += filler(Math.min(200, at - text.length - overhead - 200));
  text += filler(at - text.length - overhead);
  expect(text.length).toBe(at);
  text += line(starts);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('mayRestart', () => {
  it('reads in pieces that stay under the mmap threshold (freeing a bigger one raises it for the process)', () => {
    expect(SCAN_CHUNK + MARK.length).toBeLessThan(128 << 10);
  });

  it('finds a second kernel start whose mark spans two reads (its first - in either)', () => {
    expect(mayRestart([slogWith(2, 'two.slog')])).toBe(true);
    expect(mayRestart([slogWith(1, 'one.slog')])).toBe(false);
    // The mark's first - is its 8th byte: before the read's end here, after it above.
    expect(mayRestart([slogWith(2, 'two-12.slog', 12)])).toBe(true);
    expect(mayRestart([slogWith(1, 'one-12.slog', 12)])).toBe(false);
  });

  it('on real slogs: a restart, and none', () => {
    expect(mayRestart([join(REAL, 'restart-replay.slog')])).toBe(true);
    expect(mayRestart([join(REAL, 'chain-bot.slog')])).toBe(false);
    expect(mayRestart([join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog')])).toBe(false);
  });
});
