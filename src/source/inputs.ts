/**
 * The command line's slog arguments to the list of inputs a pass reads, in
 * order, as one slog: several files in the order given, and a folder of
 * per-block files (agoric-sdk's CONTEXTUAL_BLOCK_SLOGS) in chain order.
 *
 * Chain order: `slogfile_init_<ts>`, then `slogfile_bootstrap_<ts>`, then
 * `slogfile_upgrade_<ts>` (each by timestamp), then
 * `slogfile_block_<height>_<ts>` by height as a number (block 9 before block
 * 10), then by timestamp (a block written again after a restart). A folder
 * that holds more than one run of the node (a restart writes a new init
 * file, an upgrade an upgrade file, then the blocks go on) has each of
 * those files before the first block file written after it, by their
 * timestamps: the restart comes where it happened, before the block it ran
 * again, not before every block. A folder of one run reads in the order
 * above either way. A folder without per-block files is read as its slog
 * files (`*.slog`, `*.jsonl`, gzipped or not) in name order, numbers
 * compared as numbers.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, InputError, type SlogInput } from './open.js';

const BLOCK_FILE = /^slogfile_(init|bootstrap|upgrade|block)_(?:(\d+)_)?(\d+)(?:\.[A-Za-z0-9.]*)?$/;
const SLOG_FILE = /\.(slog|jsonl|json)(\.gz)?$/;
const KIND_ORDER = { init: 0, bootstrap: 1, upgrade: 2, block: 3 } as const;

export interface BlockFile {
  name: string;
  kind: number;
  height: number;
  stamp: number;
}

/** A per-block file's place in chain order, or undefined when the name is not one. */
export function blockFile(name: string): BlockFile | undefined {
  const m = BLOCK_FILE.exec(name);
  if (!m) return undefined;
  const kind = m[1] as keyof typeof KIND_ORDER;
  // `block` files carry a height before the timestamp; the others only a timestamp.
  if ((kind === 'block') !== (m[2] !== undefined)) return undefined;
  return { name, kind: KIND_ORDER[kind], height: Number(m[2] ?? -1), stamp: Number(m[3]) };
}

/** Per-block files in chain order (see above). */
export function chainOrder(files: readonly BlockFile[]): BlockFile[] {
  const byName = (a: BlockFile, b: BlockFile): number => natural(a.name, b.name);
  const blocks = files.filter((f) => f.kind === KIND_ORDER.block).sort((a, b) => a.height - b.height || a.stamp - b.stamp || byName(a, b));
  const others = files.filter((f) => f.kind !== KIND_ORDER.block).sort((a, b) => a.stamp - b.stamp || a.kind - b.kind || byName(a, b));
  const out: BlockFile[] = [];
  let next = 0;
  for (const block of blocks) {
    // The init, bootstrap and upgrade files written before this block file.
    while (next < others.length && (others[next] as BlockFile).stamp < block.stamp) out.push(others[next++] as BlockFile);
    out.push(block);
  }
  out.push(...others.slice(next));
  return out;
}

/** Names ordered with their numbers compared as numbers (`b9` before `b10`); made when first needed (ICU costs 15 ms to start). */
let collator: Intl.Collator | undefined;
const natural = (a: string, b: string): number => (collator ??= new Intl.Collator('en', { numeric: true })).compare(a, b);

/** A folder's slog files, in the order they are read. */
export function folderFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new InputError(dir, describe(err));
  }
  const files = names.map(blockFile).filter((b): b is BlockFile => b !== undefined);
  if (files.length > 0) return chainOrder(files).map((b) => join(dir, b.name));
  const slogs = names.filter((n) => SLOG_FILE.test(n)).sort(natural);
  if (slogs.length === 0) throw new InputError(dir, 'a folder without slog files (slogfile_*_*.gz, *.slog, *.jsonl)');
  return slogs.map((n) => join(dir, n));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The inputs of a pass: each argument a file, `-` (stdin) or a folder; none
 * at all means stdin. Several read as one slog, in order.
 */
export function expandInputs(args: readonly SlogInput[]): SlogInput[] {
  if (args.length === 0) return ['-'];
  const out: SlogInput[] = [];
  for (const arg of args) {
    if (typeof arg === 'string' && arg !== '-' && isDirectory(arg)) out.push(...folderFiles(arg));
    else out.push(arg);
  }
  if (out.filter((i) => i === '-').length > 1) throw new InputError('-', 'stdin can be read only once');
  refuseTwice(out);
  return out;
}

/** The same file twice among the inputs (also through a link, or in a folder given too) is an error: read twice, its cranks would count again. */
function refuseTwice(inputs: readonly SlogInput[]): void {
  if (inputs.length < 2) return;
  const seen = new Map<string, string>();
  for (const input of inputs) {
    if (typeof input !== 'string' || input === '-') continue;
    let id: string;
    try {
      const stats = statSync(input);
      id = `${stats.dev}:${stats.ino}`;
    } catch {
      continue; // Opening it says why it cannot be read.
    }
    const first = seen.get(id);
    if (first !== undefined) throw new InputError(input, `given twice (the same file as ${first}): a slog read twice would count its cranks again, as after a restart`);
    seen.set(id, input);
  }
}

/** How a list of inputs is named in messages: the one file, or the first and how many more. */
export function inputsName(inputs: readonly SlogInput[]): string {
  const name = (i: SlogInput): string => (typeof i === 'string' ? (i === '-' ? '<stdin>' : i) : i.name);
  if (inputs.length === 0) return '<stdin>';
  if (inputs.length === 1) return name(inputs[0] as SlogInput);
  return `${name(inputs[0] as SlogInput)} and ${inputs.length - 1} more`;
}
