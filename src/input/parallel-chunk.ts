/**
 * What a parallel-render worker does with one chunk: parse its lines,
 * assemble cranks, render what needs nothing from before the chunk, and list
 * the rest as steps for the main thread (see parallel-protocol.ts).
 */
import { CrankAssembler, type CrankSink } from '../model/assembler.js';
import type { Crank } from '../model/crank.js';
import type { SlogEntry } from '../model/types.js';
import { VatNames } from '../model/vats.js';
import type { RenderOptions } from '../render/options.js';
import { TextRenderer } from '../render/text-renderer.js';
import { forEachEntryInBuffer } from './buffer-entries.js';
import type { LineParser } from './entries.js';
import { parseLine } from './parse.js';
import { renderLineParser } from './render-lines.js';
import { learnCopy, learnedVatID, type ChunkOp, type ChunkRequest, type ChunkResult, type WorkerSetup } from './parallel-protocol.js';

/** Items whose lines depend on nothing but the entry and the options. */
const SELF_CONTAINED = new Set(['deliver', 'deliver-result', 'clist', 'console']);

function selfContained(crank: Crank): boolean {
  for (const item of crank.items) {
    if (item.kind === 'entry' && !SELF_CONTAINED.has(item.entry.type)) return false;
  }
  return true;
}

export class ChunkRenderer {
  /** Every name-teaching entry told so far, in slog order. */
  private readonly learns: SlogEntry[] = [];

  constructor(private readonly setup: WorkerSetup) {}

  /**
   * Renders a chunk. `learns` are the name-teaching entries before it that
   * were not told yet; or, with `allLearns`, every one of them.
   */
  render(request: ChunkRequest, allLearns?: readonly SlogEntry[]): ChunkResult {
    if (allLearns) this.learns.length = 0;
    for (const entry of allLearns ?? request.learns) this.learns.push(entry);
    const { annotations } = this.setup;
    const vats = new VatNames(annotations.vatNames);
    for (const entry of this.learns) vats.observe(entry);

    const ops: ChunkOp[] = [];
    let text: string[] = [];
    const flush = (): void => {
      if (text.length === 0) return;
      ops.push(text.length === 1 ? (text[0] as string) : text.join(''));
      text = [];
    };
    const renderer = new TextRenderer({
      options: this.setup.options as RenderOptions,
      annotations,
      out: (t) => text.push(t),
      vats,
    });
    // The main thread renders the chunk's first crank, and any crank after an
    // outside entry: the real renderer may owe lines before it.
    let deferNext = true;
    const sink: CrankSink = {
      entry: (entry, line) => {
        flush();
        ops.push({ op: 'entry', entry, line });
        deferNext = true;
      },
      crank: (crank) => {
        if (deferNext || !selfContained(crank)) {
          flush();
          ops.push({ op: 'crank', crank });
          deferNext = false;
          return;
        }
        renderer.crank(crank);
      },
    };
    const assembler = new CrankAssembler(sink);
    const parse: LineParser = this.setup.lite ? renderLineParser(this.setup.options as RenderOptions, assembler) : parseLine;
    const counts = new Map<string, number>();
    const stats = forEachEntryInBuffer(request.bytes, {
      last: request.last,
      parse,
      onEntry: (entry, line) => {
        counts.set(entry.type, (counts.get(entry.type) ?? 0) + 1);
        if (learnedVatID(entry) !== undefined) {
          flush();
          ops.push({ op: 'learn', entry: learnCopy(entry) });
        }
        renderer.observe(entry);
        assembler.push(entry, line);
      },
      onBadLine: (bad) => {
        flush();
        ops.push({ op: 'bad', bad });
      },
    });
    assembler.end();
    flush();
    return {
      seq: request.seq,
      ops,
      counts: [...counts],
      stats,
      bytes: request.bytes,
    };
  }
}
