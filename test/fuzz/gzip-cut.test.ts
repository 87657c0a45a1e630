/**
 * A small gzipped slog cut at every byte (gzip-cut.ts): each cut reads as
 * the plain prefix zlib decodes of it, with one warning more, never a
 * crash: a real slog's lines (a-local-3), and generated slogs (fixed seed;
 * `npm run fuzz` runs more). test/truncated-gzip.test.ts has the commands'
 * output and exit status on cut files.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { slogPath } from '../helpers.js';
import { checkGzipCuts } from './gzip-cut.js';
import { expectProperty, GZIP_CUTS } from './properties.js';

const SEED = 29014;

describe('a gzipped slog cut at every byte', () => {
  it('a crank of a-local-3 (its crank-start, delivery, first syscalls, result and crank-finish): every cut', async () => {
    const lines = readFileSync(slogPath('a-local-3'), 'utf8').split('\n');
    const start = lines.findIndex((l) => l.startsWith('{"type":"crank-start","crankType":"delivery"'));
    const end = lines.findIndex((l, i) => i > start && l.startsWith('{"type":"crank-finish"'));
    const plain = Buffer.from(`${[...lines.slice(start, start + 6), ...lines.slice(end - 1, end + 1)].join('\n')}\n`);
    const gz = gzipSync(plain);
    // Small enough to cut everywhere, big enough to hold several deflate blocks' worth of lines.
    expect(gz.length).toBeGreaterThan(300);
    expect(gz.length).toBeLessThan(1000);
    expect(await checkGzipCuts(plain)).toBeUndefined();
  });

  it(GZIP_CUTS.what, async () => {
    await expectProperty(GZIP_CUTS, SEED, 2);
  });
});
