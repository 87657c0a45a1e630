/**
 * The index of a gzipped slog (`slogulate index FILE.gz`, `slogulate
 * recompress`): its gzip members (gzip-members.ts: the places a reader can
 * begin), and what a seek (seek.ts) would otherwise learn by reading every
 * byte: the lines that name vats, the kernel starts, and, per member and
 * kernel run, its crank-starts and begin-blocks summed up (the first, the
 * last, the highest number, whether the numbers grow and the times do not
 * go down). A JSON file beside the slog (`FILE.gz.slogidx`), or in the
 * cache folder when the slog's folder cannot be written to
 * (`$XDG_CACHE_HOME/slogulate`, else `~/.cache/slogulate`), named after
 * the slog's full path.
 *
 * The lines that name vats are kept whole when short, else as a stand-in
 * (naming-line.ts).
 *
 * An index matches its slog when the slog's size, modification time and
 * the SHA-1 of its first 64 KB are what it recorded; one that does not is
 * not used (the caller says so in one line).
 */
import { closeSync, existsSync, fstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { crypto, os } from './builtins.js';
import { describe, InputError, openToRead, readFullyAt } from './open.js';
import type { Member } from './gzip-members.js';

/** The format's version: an index of another is not read. */
export const INDEX_VERSION = 3;
const HEAD_BYTES = 64 << 10;
const SUFFIX = '.slogidx';

/** A crank-start or begin-block: its place in the slog, its number (NaN: not read) and a crank-start's time (NaN: not read; undefined for a begin-block). */
export interface IndexedOpener {
  at: number;
  num: number;
  time?: number;
}

/** The crank-starts (or begin-blocks) of one member in one kernel run, summed up. */
export interface OpenerSummary {
  n: number;
  first: IndexedOpener;
  last: IndexedOpener;
  /** The one of the highest number. */
  max: IndexedOpener;
  /** The first whose number could not be read, if any. */
  nan: IndexedOpener | undefined;
  /** Each number above the one before (none NaN). */
  up: boolean;
  /** Crank-starts: each time read, and none below the one before. */
  grow: boolean;
}

/** The first line beginning in a member: where (in the slog), its type, and its crank, block and time, where it has them. */
export interface FirstLine {
  at: number;
  type: string;
  crankNum?: number;
  blockHeight?: number;
  time?: number;
}

export interface IndexedMember extends Member {
  /** Lines beginning before it (its `\n`s before). */
  lines: number;
  firstLine: FirstLine | undefined;
  cranks: OpenerSummary[];
  blocks: OpenerSummary[];
}

/** What identifies the slog an index was made of. */
export interface SlogStamp {
  size: number;
  mtimeMs: number;
  head: string;
}

export interface GzipIndex {
  version: number;
  slog: SlogStamp;
  /** The decompressed bytes and lines. */
  size: number;
  lines: number;
  /** Where `"create-vat"` and `"kernel-init-start"` are (as seek.ts's byte search finds them). */
  creates: number[];
  starts: number[];
  /** The lines holding those `"create-vat"`s, short ones (the others: createNames), in order: where each starts, its bytes without its `\n`. */
  createLines: Array<{ start: number; bytes: Buffer }>;
  /**
   * The others of those lines, too long to keep whole (a create-vat with
   * its vat's bundle), that have a stand-in (naming-line.ts): where each
   * starts and ends (its `\n`), the stand-in's bytes. Absent from an index
   * made before there were stand-ins (a seek reads those lines).
   */
  createNames?: Array<{ start: number; end: number; bytes: Buffer }>;
  members: IndexedMember[];
}

/** The stamp of the file open at `fd`. */
export function stampOf(fd: number, st: Stats = fstatSync(fd)): SlogStamp {
  const head = Buffer.allocUnsafe(Math.min(HEAD_BYTES, st.size));
  const got = readFullyAt(fd, head, 0);
  return { size: st.size, mtimeMs: Math.trunc(st.mtimeMs), head: crypto().createHash('sha1').update(head.subarray(0, got)).digest('hex') };
}

/** The cache folder for indexes of slogs in folders that cannot be written to. */
export function cacheFolder(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(os().homedir(), '.cache'), 'slogulate');
}

/** The place beside `path` its index is written to and read from first. */
function besidePlace(path: string): string {
  return `${path}${SUFFIX}`;
}

/** The place in the cache folder for the index of `path`: its name and a hash of its full path. */
function cachedPlace(path: string): string {
  let full = resolve(path);
  try {
    full = realpathSync(path);
  } catch {
    // A missing slog: its name as given.
  }
  const key = crypto().createHash('sha1').update(full).digest('hex').slice(0, 16);
  return join(cacheFolder(), `${basename(full)}-${key}${SUFFIX}`);
}

/** The two places an index of `path` may be: beside it, and in the cache folder. */
export function indexPlaces(path: string): { beside: string; cached: string } {
  return { beside: besidePlace(path), cached: cachedPlace(path) };
}

/** An opener as JSON: `[at, num, time]`, null for NaN. */
type OpenerJson = [number, number | null, number | null] | [number, number | null];
const openerJson = (o: IndexedOpener): OpenerJson => {
  const num = Number.isNaN(o.num) ? null : o.num;
  return o.time === undefined ? [o.at, num] : [o.at, num, Number.isNaN(o.time) ? null : o.time];
};
const openerOf = (j: OpenerJson): IndexedOpener => {
  const o: IndexedOpener = { at: j[0], num: j[1] ?? NaN };
  if (j.length === 3) o.time = j[2] ?? NaN;
  return o;
};

/** The index as the text of its file: openers as `[at, num, time]` (NaN, which JSON has not, as null), lines in base64. */
export function indexText(index: GzipIndex): string {
  return JSON.stringify(index, (key, value: unknown) => {
    if ((key === 'first' || key === 'last' || key === 'max' || key === 'nan') && value !== null && typeof value === 'object' && 'at' in value) return openerJson(value as IndexedOpener);
    if (key === 'createLines') return (value as GzipIndex['createLines']).map((l) => [l.start, l.bytes.toString('base64')]);
    if (key === 'createNames') return (value as NonNullable<GzipIndex['createNames']>).map((l) => [l.start, l.end, l.bytes.toString('base64')]);
    return value;
  });
}

/** The index in `text`, or undefined when it is not one of this version. */
function parseIndex(text: string): GzipIndex | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const index = value as GzipIndex;
  if (value === null || typeof value !== 'object' || index.version !== INDEX_VERSION || !Array.isArray(index.members)) return undefined;
  // Read back as written (indexText): a loop, faster than a reviver called for every value.
  for (const m of index.members) {
    for (const s of [...m.cranks, ...m.blocks]) {
      s.first = openerOf(s.first as unknown as OpenerJson);
      s.last = openerOf(s.last as unknown as OpenerJson);
      s.max = openerOf(s.max as unknown as OpenerJson);
      if (s.nan !== undefined) s.nan = openerOf(s.nan as unknown as OpenerJson);
    }
  }
  index.createLines = (index.createLines as unknown as Array<[number, string]>).map(([start, b64]) => ({ start, bytes: Buffer.from(b64, 'base64') }));
  if (Array.isArray(index.createNames)) {
    index.createNames = (index.createNames as unknown as Array<[number, number, string]>).map(([start, end, b64]) => ({ start, end, bytes: Buffer.from(b64, 'base64') }));
  } else {
    delete index.createNames;
  }
  return index;
}

/** An index found for a slog: one that matches, or why none is used. */
export type FoundIndex = { index: GzipIndex; path: string } | { none: true } | { stale: string };

/**
 * The index of the gzip file open at `fd` (named `path`): beside it, else
 * in the cache folder; the first that matches it. `stale`: one was found
 * and none matches (the note to give).
 */
export function findIndex(path: string, fd: number): FoundIndex {
  let stale: string | undefined;
  let stamp: SlogStamp | undefined;
  // The cache's place (a realpath and a hash) only when the one beside is not used.
  for (const place of [besidePlace(path), undefined]) {
    const at = place ?? cachedPlace(path);
    let text: string;
    try {
      text = readFileSync(at, 'utf8');
    } catch {
      continue;
    }
    const index = parseIndex(text);
    stamp ??= stampOf(fd);
    const why = index === undefined ? 'not an index of this version' : mismatch(index.slog, stamp);
    if (why === undefined && index !== undefined) {
      if (place === undefined) touch(at);
      return { index, path: at };
    }
    stale ??= `${path}: its index ${at} is not used (${why}): run slogulate index ${path}`;
  }
  return stale === undefined ? { none: true } : { stale };
}

/** Why an index's stamp is not the slog's (undefined: it is). */
function mismatch(recorded: SlogStamp, now: SlogStamp): string | undefined {
  if (recorded.size !== now.size) return `the slog is ${now.size} bytes, the index was made of ${recorded.size}`;
  if (recorded.mtimeMs !== now.mtimeMs) return 'the slog was modified since';
  if (recorded.head !== now.head) return 'the slog\'s first bytes changed';
  return undefined;
}

/** The index of `path` found as findIndex finds it (opening the slog). Throws InputError. */
export function indexOf(path: string): FoundIndex {
  const fd = openToRead(path);
  try {
    return findIndex(path, fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `index` of the slog `path`: beside it, or, when that fails (a
 * folder that cannot be written to), in the cache folder. Written under a temporary name and
 * renamed, so that a reader never sees half an index. Returns where it went.
 * Throws InputError when neither place can be written.
 */
export function writeIndex(path: string, index: GzipIndex): string {
  const places = indexPlaces(path);
  const text = indexText(index);
  try {
    writeAtomically(places.beside, text);
    return places.beside;
  } catch {
    // A folder that cannot be written to (read-only, not ours, full): the cache folder.
  }
  try {
    mkdirSync(dirname(places.cached), { recursive: true });
    writeAtomically(places.cached, text);
    return places.cached;
  } catch (err) {
    throw new InputError(places.cached, describe(err));
  }
}

/** The cache folder's indexes unused this long are removed when another is written there. */
const UNUSED_DAYS = 30;
/** The name writeCachedIndex gives: the slog's name, a hash of its path. */
const CACHED_NAME = /-[0-9a-f]{16}\.slogidx$/;

/** Marks an index in the cache folder used now (its modification time), so that it is not pruned. */
function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Not ours to change (a cache folder shared read-only): it is still used.
  }
}

/**
 * Removes the indexes of the cache folder that no selection used for
 * UNUSED_DAYS (findIndex marks each use): those of slogs deleted, moved or
 * long done with. Nothing else of the folder is touched.
 */
function pruneCache(now = Date.now()): void {
  const dir = cacheFolder();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!CACHED_NAME.test(name)) continue;
    const at = join(dir, name);
    try {
      if (now - statSync(at).mtimeMs >= UNUSED_DAYS * 86_400_000) unlinkSync(at);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}

/**
 * Writes `index` of the slog `path` in the cache folder only (an index made
 * without being asked for: run/index-cache.ts), leaving the slog's folder
 * as it was, and prunes the folder of indexes long unused (pruneCache).
 * Returns where it went, and whether an index of that slog was
 * there before (one that no longer matched). Throws what the file system
 * throws.
 */
export function writeCachedIndex(path: string, index: GzipIndex): { path: string; replaced: boolean } {
  const at = cachedPlace(path);
  const replaced = existsSync(at);
  mkdirSync(dirname(at), { recursive: true });
  writeAtomically(at, indexText(index));
  pruneCache();
  return { path: at, replaced };
}

function writeAtomically(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, path);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // never made
    }
    throw err;
  }
}
