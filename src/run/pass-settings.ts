/**
 * How a pass reads, handed to it by its caller: the pass (pass.ts) reads no
 * environment switch. The command line makes these once per command
 * (`commandSettings`), run/'s entry points once per call when not handed
 * any (`settingsFrom`), both from the switches (switches.ts); a test may
 * say otherwise.
 */
import type { ReadPath } from '../scan/line-reader.js';
import { HeapGovernor } from './heap-governor.js';
import { switches, type Switches } from './switches.js';

export interface PassSettings {
  /** `fast`: the byte reader, with the plain path for the lines it does not take; `plain`: every line JSON.parse'd. */
  readonly path: ReadPath;
  /** Entries throw when a consumer reads a field it did not declare (scan/checked-entries.ts; the tests). */
  readonly checkReads: boolean;
  /** The open crank spills at this many held syscalls (model/assembler.ts; 0: never; undefined: the assembler's default). */
  readonly spillAt: number | undefined;
  /** Lines over this many bytes are read as a stream of tokens (scan/big-line.ts). */
  readonly bigLineBytes: number;
  /**
   * Keeps the process's heap flat (heap-governor.ts). It sets V8 flags for
   * the whole process: the command line's, never a library caller's.
   */
  readonly heap: HeapGovernor | undefined;
  /** A selection may read only its bytes of a plain file (source/seek.ts); false: every byte, always (SLOGULATE_SEEK=0, the tests' reference). Default true. */
  readonly seek?: boolean;
  /**
   * A selection on a plain slog of at least this many bytes that has no
   * index indexes it and keeps the index in the cache folder
   * (index-cache.ts). The command line's only: a library caller's pass
   * writes no file it was not asked for. Undefined: never.
   */
  readonly indexCacheBytes?: number;
  /** Told a line for the user about the seek (a gzip slog's index that no longer matches it); the command line's writes it on stderr, once. */
  readonly note?: (text: string) => void;
}

/** What the switches say, without a heap governor (a library caller, a test). */
export function settingsFrom(s: Switches = switches()): PassSettings {
  return { path: s.fast ? 'fast' : 'plain', checkReads: s.checkReads, spillAt: s.spill, bigLineBytes: s.bigLineBytes, heap: undefined, seek: s.seek };
}

/**
 * The command line's: what the switches say, and a heap governor unless
 * SLOGULATE_HEAP=0. Made once per command and handed to each of its passes
 * (the two sides of `compare` share it).
 */
export function commandSettings(s: Switches = switches()): PassSettings {
  const heap = s.heap ? new HeapGovernor({ youngCapBytes: s.heapYoungMb << 20, promotedBytes: s.heapGcMb << 20 }) : undefined;
  const said = new Set<string>();
  const note = (text: string): void => {
    if (said.has(text)) return;
    said.add(text);
    process.stderr.write(`slogulate: ${text}\n`);
  };
  return { ...settingsFrom(s), heap, note, ...(s.indexCacheBytes === undefined ? {} : { indexCacheBytes: s.indexCacheBytes }) };
}

/**
 * `--strict`'s: every line judged whole, so that a damaged one fails the run.
 * The byte reader leaves unchecked the bytes after the last field a command
 * reads (docs/architecture.md, "What the fast path checks"), and a seek
 * leaves out the lines outside the selection: so every line is read, with
 * JSON.parse.
 */
export function strictSettings(settings: PassSettings): PassSettings {
  return { ...settings, path: 'plain', seek: false };
}

/** The settings a run/ entry point reads with: the caller's (else the switches'), on the path the caller asks for, if it asks. */
export function settingsFor(caller: { settings?: PassSettings; path?: ReadPath }): PassSettings {
  const settings = caller.settings ?? settingsFrom();
  return caller.path === undefined || caller.path === settings.path ? settings : { ...settings, path: caller.path };
}
