import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SlogEntry } from '../scan/entry-types.js';
import { snapshotOf } from './snapshots.js';

const CHAIN_A = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'slogs', 'real', 'chain-A.slog');

describe('snapshotOf', () => {
  it('reads every heap-snapshot-save and -load of chain-A, field by field as the slog writes them', () => {
    const lines = readFileSync(CHAIN_A, 'utf8').split('\n').filter((l) => l.includes('"type":"heap-snapshot-'));
    expect(lines.length).toBeGreaterThan(40);
    for (const line of lines) {
      const e = JSON.parse(line) as Record<string, unknown>;
      const s = snapshotOf(e as SlogEntry);
      expect(s?.kind).toBe(e.type === 'heap-snapshot-save' ? 'save' : 'load');
      expect(s?.vatID).toBe(e.vatID);
      expect(s?.position).toBe(e.type === 'heap-snapshot-save' ? e.endPosition : e.snapPos);
      if (e.type === 'heap-snapshot-save') {
        expect(s?.compressMicros).toBe(Math.round((e.compressSeconds as number) * 1e6));
        expect(s?.uncompressedSize).toBe(e.uncompressedSize);
        expect(s?.uncompressedSizeDelta).toBe(e.uncompressedSizeDelta ?? undefined);
        expect(s?.restartWorker).toBe(e.restartWorker);
        expect(s?.hash).toBe(e.snapshotID);
      } else {
        expect(s?.hash).toBe(e.hash);
      }
    }
  });

  it('another type is no snapshot; a field of the wrong type is undefined', () => {
    expect(snapshotOf({ type: 'crank-start', crankNum: 1 } as SlogEntry)).toBeUndefined();
    const s = snapshotOf({ type: 'heap-snapshot-save', vatID: 7, compressSeconds: 'x', restartWorker: 'yes' } as unknown as SlogEntry);
    expect(s).toMatchObject({ kind: 'save', vatID: undefined, compressMicros: undefined, restartWorker: undefined });
  });
});
