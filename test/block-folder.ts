/**
 * A slog split into a per-block folder as agoric-sdk's per-block writer
 * (packages/telemetry/src/block-slog.js) splits it: a file opened at each
 * kernel-init-start, bootstrap-block-start, upgrade-start and begin-block,
 * closed after kernel-init-finish, bootstrap-block-finish, upgrade-finish
 * and after-commit-stats, named with a clock that moves on at each file;
 * lines between a close and the next open are lost, as there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function splitAsTheWriterDoes(slog: string, folder: string): void {
  const opens: Record<string, (e: { blockHeight?: number }) => string> = {
    'kernel-init-start': () => 'init',
    'cosmic-swingset-bootstrap-block-start': () => 'bootstrap',
    'cosmic-swingset-upgrade-start': () => 'upgrade',
    'cosmic-swingset-begin-block': (e) => `block_${e.blockHeight}`,
  };
  const closes = new Set(['kernel-init-finish', 'cosmic-swingset-bootstrap-block-finish', 'cosmic-swingset-upgrade-finish', 'cosmic-swingset-after-commit-stats']);
  let clock = 1_795_404_821_000;
  let current: { name: string; lines: string[] } | undefined;
  const close = (): void => {
    if (current) writeFileSync(join(folder, `slogfile_${current.name}_${clock}.gz`), gzipSync(`${current.lines.join('\n')}\n`, { level: 1 }));
    current = undefined;
  };
  for (const line of readFileSync(slog, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { type: string; blockHeight?: number };
    const open = opens[e.type];
    if (open) {
      close();
      clock += 10;
      current = { name: open(e), lines: [] };
    }
    current?.lines.push(line);
    if (closes.has(e.type)) close();
  }
  close();
}
