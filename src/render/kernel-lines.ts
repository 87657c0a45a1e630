/**
 * Lines for kernel-level and chain-level entries: kernel startup, vat
 * creation and startup, replay, heap snapshots, termination and cleanup,
 * kernel stats, and the `cosmic-swingset-*` block entries.
 *
 * Many come in start/finish pairs printed as one line with the duration
 * between them; `Spans` remembers the starts.
 */
import { snapshotOf } from '../model/snapshots.js';
import { isBareCreateVat, type OtherEntry } from '../scan/entry-types.js';
import type { RenderContext } from './context.js';
import { inline, json, micros } from './format.js';
import { snapshotSaveDetails } from './snapshot-line.js';
import { renderCapData } from './values.js';

/** The open half of each start/finish pair (NaN or undefined: none open). */
class Spans {
  kernelInit = NaN;
  bundleKernel = NaN;
  importKernel = NaN;
  vatStartup: { vatID: unknown; time: number } | undefined;
  replay: { vatID: unknown; time: number } | undefined;
  block: { height: unknown; blockTime: unknown; time: number } | undefined;
  endBlockStart = NaN;
  commitBlockStart = NaN;
  bootstrapBlock: { blockTime: unknown; time: number } | undefined;
}

const t = (entry: OtherEntry): number => (typeof entry.time === 'number' ? entry.time : NaN);

/** A -finish entry's own duration (`seconds`, written by newer kernels and the chain), or NaN. */
const ownSeconds = (entry: OtherEntry): number => (typeof entry.seconds === 'number' ? entry.seconds : NaN);

/** Fields a generic `cosmic-swingset-*` line leaves out. */
const GENERIC_SKIP = new Set(['type', 'time', 'monotime']);

function genericCosmic(entry: OtherEntry, noTimes: boolean): string {
  const parts = Object.entries(entry)
    .filter(([k]) => !GENERIC_SKIP.has(k) && !(noTimes && k === 'seconds'))
    .map(([k, v]) => (k === 'seconds' && typeof v === 'number' ? `${k}=${micros(v)}` : `${k}=${json(v)}`));
  return parts.length ? `${entry.type}: ${parts.join(' ')}` : `${entry.type}:`;
}

export class KernelLines {
  private readonly spans = new Spans();

  constructor(private readonly ctx: RenderContext) {}

  /** The lines of a non-crank entry, its refs named in `ctx`'s vat; `undefined` when the type is not one of these. */
  lines(entry: OtherEntry, ctx: RenderContext = this.ctx): string[] | undefined {
    const s = this.spans;
    switch (entry.type) {
      case 'kernel-init-start':
        s.kernelInit = t(entry);
        return [];
      case 'kernel-init-finish': {
        const start = s.kernelInit;
        s.kernelInit = NaN;
        return [`kernel-init${this.since(start, entry)}`];
      }
      case 'bundle-kernel-start':
        s.bundleKernel = t(entry);
        return [];
      case 'bundle-kernel-finish': {
        const start = s.bundleKernel;
        s.bundleKernel = NaN;
        return [`bundle-kernel${this.since(start, entry)}`];
      }
      case 'import-kernel-start':
        s.importKernel = t(entry);
        return [];
      case 'import-kernel-finish': {
        const start = s.importKernel;
        s.importKernel = NaN;
        return [`kernel-import${this.since(start, entry)}`];
      }
      case 'create-vat': {
        const vatID = String(entry.vatID);
        // A bare create-vat (a vat the restarted kernel did not create, only loaded): its name and nothing else.
        if (isBareCreateVat(entry)) return [`create-vat: ${vatID} ${ctx.vats.label(vatID)}`];
        const how = entry.dynamic ? 'dynamic' : 'static';
        return [`create-vat: ${vatID} ${ctx.vats.label(vatID)} ${how} "${inline(entry.description)}"`];
      }
      case 'vat-startup-start':
        s.vatStartup = { vatID: entry.vatID, time: t(entry) };
        return [];
      case 'vat-startup-finish': {
        const start = s.vatStartup;
        s.vatStartup = undefined;
        if (start && start.vatID !== entry.vatID) {
          return [`vat-startup-finish vat ${inline(entry.vatID)} doesn't match vat-startup-start vat ${inline(start.vatID)}`];
        }
        return [`vat-startup: ${inline(entry.vatID)}${this.since(start?.time ?? NaN, entry).replace(/^:/, '')}`];
      }
      case 'start-replay':
        s.replay = { vatID: entry.vatID, time: t(entry) };
        return [`start-replay: ${inline(entry.vatID)} ${inline(entry.deliveries)}`];
      case 'finish-replay': {
        const start = s.replay;
        s.replay = undefined;
        if (start && start.vatID !== entry.vatID) {
          return [`finish-replay vat ${inline(entry.vatID)} doesn't match start-replay vat ${inline(start.vatID)}`];
        }
        return [`finish-replay ${inline(entry.vatID)}${this.since(start?.time ?? NaN, entry).replace(/^:/, '')}`];
      }
      case 'heap-snapshot-save': {
        const pos = entry.endPosition as unknown;
        const at = pos !== null && typeof pos === 'object' ? (pos as { itemCount?: unknown }).itemCount : pos;
        const line = `heap-snapshot-save ${inline(entry.vatID)} ${inline(entry.snapshotID)} at ${inline(at)}`;
        // --parts: the save's times and sizes.
        const save = ctx.options.parts ? snapshotOf(entry) : undefined;
        return [save === undefined ? line : `${line}${snapshotSaveDetails(save, ctx.options.noTimes === true)}`];
      }
      case 'heap-snapshot-load':
        return [`heap-snapshot-load ${inline(entry.vatID)} ${inline(entry.hash ?? entry.snapshotID)} at ${inline(entry.snapPos)}`];
      case 'terminate': {
        const tag = entry.shouldReject ? ctx.tag('terminate!', 'terminate reject') : ctx.tag('terminate', 'terminate no reject');
        return [`${tag}: ${renderCapData(entry.info, ctx.value)}`];
      }
      case 'vat-cleanup': {
        const work = entry.work && typeof entry.work === 'object' ? Object.entries(entry.work) : [];
        const counts = work.map(([k, v]) => ` ${k}:${inline(v)}`).join('');
        return [`vat-cleanup: ${inline(entry.vatID)}${counts}`];
      }
      case 'vat-cleanup-complete':
        return [`vat-cleanup-complete: ${inline(entry.vatID)}`];
      case 'kernel-stats': {
        const stats = entry.stats && typeof entry.stats === 'object' ? Object.entries(entry.stats) : [];
        return [`kernel-stats: ${stats.map(([k, v]) => `${k}:${inline(v)}`).join(', ')}`];
      }
      default:
        return entry.type.startsWith('cosmic-swingset-') ? this.cosmic(entry) : undefined;
    }
  }

  /**
   * `: 2985756µs`, the time from a -start to its -finish, or without the
   * -start (a slog that begins after it) the -finish's own `seconds`, or
   * without either nothing: never NaN.
   */
  private since(start: number, finish: OtherEntry): string {
    const seconds = Number.isNaN(start) ? ownSeconds(finish) : t(finish) - start;
    if (Number.isNaN(seconds)) return '';
    const took = this.ctx.took(seconds);
    return took === '' ? ':' : `:${took}`;
  }

  /**
   * ` 12µs+34µs`: from the begin-block to the -start, and from the -start to
   * the -finish; without the -start (a slog that begins after it), the
   * -finish's own `seconds` as ` +34µs`, or nothing.
   */
  private blockTook(start: number, finish: OtherEntry): string {
    if (this.ctx.options.noTimes) return '';
    const begin = this.spans.block?.time ?? NaN;
    if (Number.isNaN(start) || Number.isNaN(begin)) {
      const seconds = ownSeconds(finish);
      return Number.isNaN(seconds) ? '' : ` +${micros(seconds)}`;
    }
    return ` ${micros(start - begin)}+${micros(t(finish) - start)}`;
  }

  /**
   * A block-level line that names a mismatch between a -finish and its
   * -start; none when no begin-block was seen (a slog that starts inside a
   * block: nothing to match).
   */
  private mismatch(entry: OtherEntry, startType: string): string | undefined {
    const block = this.spans.block;
    if (!block) return undefined;
    if (entry.blockTime !== block.blockTime) {
      return `${entry.type} time ${inline(entry.blockTime)} doesn't match ${startType} time ${inline(block?.blockTime)}`;
    }
    if (entry.blockHeight !== block.height) {
      return `${entry.type} height ${inline(entry.blockHeight)} doesn't match ${startType} height ${inline(block.height)}`;
    }
    return undefined;
  }

  private cosmic(entry: OtherEntry): string[] {
    const s = this.spans;
    switch (entry.type) {
      case 'cosmic-swingset-begin-block':
        s.block = { height: entry.blockHeight, blockTime: entry.blockTime, time: t(entry) };
        return [`cosmic-swingset-begin-block: ${inline(entry.blockHeight)} ${inline(entry.blockTime)}`];
      case 'cosmic-swingset-end-block-start':
        s.endBlockStart = t(entry);
        return [this.mismatch(entry, 'cosmic-swingset-begin-block') ?? 'cosmic-swingset-end-block-start'];
      case 'cosmic-swingset-end-block-finish': {
        const bad = this.mismatch(entry, 'cosmic-swingset-begin-block');
        if (bad) return [bad];
        const start = s.endBlockStart;
        s.endBlockStart = NaN;
        return [`cosmic-swingset-end-block: ${inline(entry.blockHeight)} ${inline(entry.blockTime)}${this.blockTook(start, entry)}`];
      }
      case 'cosmic-swingset-commit-block-start':
        s.commitBlockStart = t(entry);
        return [this.mismatch(entry, 'cosmic-swingset-begin-block') ?? 'cosmic-swingset-commit-block-start'];
      case 'cosmic-swingset-commit-block-finish': {
        const bad = this.mismatch(entry, 'cosmic-swingset-begin-block');
        if (bad) return [bad];
        const start = s.commitBlockStart;
        s.commitBlockStart = NaN;
        return [`cosmic-swingset-commit-block: ${inline(entry.blockHeight)} ${inline(entry.blockTime)}${this.blockTook(start, entry)}`];
      }
      case 'cosmic-swingset-bootstrap-block-start':
        s.bootstrapBlock = { blockTime: entry.blockTime, time: t(entry) };
        return [];
      case 'cosmic-swingset-bootstrap-block-finish': {
        const start = s.bootstrapBlock;
        s.bootstrapBlock = undefined;
        if (!start) return [`cosmic-swingset-bootstrap-block${this.since(NaN, entry)}`];
        if (entry.blockTime !== start.blockTime) {
          return [
            `cosmic-swingset-bootstrap-block-finish time ${inline(entry.blockTime)} doesn't match cosmic-swingset-bootstrap-block-start time ${inline(start?.blockTime)}`,
          ];
        }
        return [`cosmic-swingset-bootstrap-block:${this.ctx.took(t(entry) - start.time)}`];
      }
      case 'cosmic-swingset-after-commit-stats':
        return ['cosmic-swingset-after-commit-stats'];
      case 'cosmic-swingset-bridge-inbound':
        return [`cosmic-swingset-bridge-inbound: ${inline(entry.source)}`];
      case 'cosmic-swingset-deliver-inbound':
        return [`cosmic-swingset-deliver-inbound: ${inline(entry.count)} ${inline(entry.sender)}`];
      default:
        return [genericCosmic(entry, this.ctx.options.noTimes === true)];
    }
  }
}
