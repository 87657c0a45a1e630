/**
 * The chain view's collector (analyses/chain/blocks.ts) inside an export pass:
 * one per pass, shared by the `blocks` and `runs` tables, fed every entry
 * and every execution of every crank (an execution a restart abandoned
 * too: the chain view shows each as it ran), as `slogulate blocks` reads
 * them.
 */
import { BlocksCollector, type BlockRow } from '../../analyses/chain/blocks.js';
import type { RunRow } from '../../analyses/chain/runs.js';
import type { Crank } from '../../model/crank.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import type { ExportContext } from '../schema.js';

interface Shared {
  collector: BlocksCollector;
  blocks: Array<(row: BlockRow) => void>;
  runs: Array<(row: RunRow) => void>;
  /** Tables that feed it: the first one does (each entry and crank once). */
  feeders: number;
  ended: boolean;
}

const shared = new WeakMap<ExportContext, Shared>();

/** The pass's collector, made by whichever chain table asks first. */
function sharedOf(ctx: ExportContext): Shared {
  let s = shared.get(ctx);
  if (!s) {
    const blocks: Shared['blocks'] = [];
    const runs: Shared['runs'] = [];
    const collector = new BlocksCollector({ onBlock: (row) => blocks.forEach((f) => f(row)), onRun: (row) => runs.forEach((f) => f(row)) });
    s = { collector, blocks, runs, feeders: 0, ended: false };
    shared.set(ctx, s);
  }
  return s;
}

/** Hooks for a chain table: only the first table made feeds the collector. */
export function chainRows(
  ctx: ExportContext,
  listen: { block?: (row: BlockRow) => void; run?: (row: RunRow) => void },
): { entry?(entry: SlogEntry): void; crank?(crank: Crank): void; end(): void } {
  const s = sharedOf(ctx);
  if (listen.block) s.blocks.push(listen.block);
  if (listen.run) s.runs.push(listen.run);
  s.feeders += 1;
  const end = (): void => {
    if (s.ended) return;
    s.ended = true;
    s.collector.end();
  };
  if (s.feeders > 1) return { end };
  return { entry: (entry) => s.collector.entry(entry), crank: (crank) => s.collector.crank(crank), end };
}
