/**
 * Where every command's text goes: standard output, or the file of
 * `-o/--out F`. The one place outputs are opened; the rules:
 *
 * - F is never one of the command's inputs (the slog, each slog file of a
 *   folder read as one, stdin when it is a file, annotation files, console
 *   logs): the same file, compared by device and inode after symlinks are
 *   followed (hard links too), is refused before anything is read (exit 2).
 * - F is written as a temporary file beside it (`.F.slogulate-PID-N.tmp`),
 *   renamed over F only when the command succeeded: a failed or interrupted
 *   run (an error, Ctrl-C, SIGTERM, SIGHUP) leaves an existing F as it was
 *   and no temporary file behind. A symlink F is followed (its target is
 *   replaced, the link stays); a new F keeps an existing F's permissions.
 * - F that exists and holds a slog (its first line is a slog entry, plain or
 *   gzipped) is not replaced without `--force` (exit 2): `slogulate --out
 *   chain.slog` with the slog forgotten reads stdin and would replace it.
 * - F that cannot be written (a directory, a missing directory, no
 *   permission) is found before the slog is read (exit 1, one line).
 * - F that is not a regular file (/dev/null, a FIFO, /dev/full) is written
 *   directly.
 */
import { closeSync, createWriteStream, fstatSync, openSync, readSync, realpathSync, renameSync, statSync, unlinkSync, fchmodSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Option } from 'commander';
import { zlib } from '../source/builtins.js';
import { folderFiles } from '../source/inputs.js';
import { CliError, EXIT_USAGE, warn } from './errors.js';
import { Output, STDOUT_NAME, writeError } from './output.js';

export interface OutputOptions {
  /** The command's input files (`-`: stdin; undefined entries are ignored). The output may be none of them. */
  inputs?: ReadonlyArray<string | undefined>;
  /** `--force`: replace a file that holds a slog. */
  force?: boolean;
}

/** `-o, --out <file>` and `--force`, for every command that writes text. */
export function outputOptions(description = 'write to file instead of stdout'): Option[] {
  return [
    new Option('-o, --out <file>', `${description} (replaced only when the command succeeds)`),
    new Option('--force', 'with --out: replace the file even if it holds a slog'),
  ];
}

/** What the output's checks found: where to write, and how. */
interface OutputPlan {
  /** The file to replace (symlinks followed). */
  target: string;
  /** Its permissions, to keep, when it exists. */
  mode: number | undefined;
  /** Not a regular file (a device, a FIFO): written in place, no temporary file. */
  direct: boolean;
}

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

const sameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/** The first bytes of a file (at most `n`). */
function head(path: string, n: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/** Is this line a slog entry (a JSON object with a `type` string, or a contextual line's `body` with one)? */
export function isSlogLine(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as { type?: unknown; body?: { type?: unknown } };
  return typeof v.type === 'string' || (typeof v.body === 'object' && v.body !== null && typeof v.body.type === 'string');
}

const HEAD_BYTES = 64 << 10;

/** Does the file begin with a slog entry (plain or gzipped)? */
export function holdsSlog(path: string): boolean {
  let bytes: Buffer;
  try {
    bytes = head(path, HEAD_BYTES);
  } catch {
    return false;
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // A piece of a gzip stream: inflate what it holds.
      bytes = zlib().gunzipSync(bytes, { finishFlush: zlib().constants.Z_SYNC_FLUSH });
    } catch {
      return false;
    }
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const end = text.indexOf('\n');
  if (end >= 0) return isSlogLine(text.slice(0, end));
  // A first line longer than what was read: an entry's start.
  return /^\s*\{\s*"(type|time|body)"\s*:/.test(text);
}

/** The stats of the inputs that are files; stdin's when it is read and is a file. */
function inputStats(inputs: ReadonlyArray<string | undefined>): Array<{ name: string; stats: Stats }> {
  const found: Array<{ name: string; stats: Stats }> = [];
  for (const input of inputs) {
    if (input === undefined) continue;
    if (input === '-') {
      try {
        found.push({ name: 'stdin', stats: fstatSync(0) });
      } catch {
        // no stdin
      }
      continue;
    }
    const stats = statOf(input);
    if (!stats) continue;
    if (!stats.isDirectory()) {
      found.push({ name: input, stats });
      continue;
    }
    // A folder of slog files (per-block files): each file it reads is an input.
    let files: string[];
    try {
      files = folderFiles(input);
    } catch {
      continue; // The pass says why it cannot read the folder.
    }
    for (const file of files) {
      const fileStats = statOf(file);
      if (fileStats) found.push({ name: file, stats: fileStats });
    }
  }
  return found;
}

/**
 * Checks that `path` may be written (see the file's comment); throws a
 * CliError otherwise. Opens nothing but reads the first bytes of an existing F.
 */
export function checkOutput(path: string, options: OutputOptions = {}): OutputPlan {
  const stats = statOf(path);
  // A device or a FIFO (/dev/null, /dev/full) holds no data to lose: written in place.
  if (stats && !stats.isFile() && !stats.isDirectory()) return { target: path, mode: undefined, direct: true };
  if (stats) {
    for (const input of inputStats(options.inputs ?? [])) {
      if (sameFile(stats, input.stats)) {
        const what = input.name === 'stdin' ? 'stdin, which is read' : `the input ${input.name}`;
        throw new CliError(`--out ${path} is the same file as ${what}; refusing to overwrite it`, EXIT_USAGE);
      }
    }
    if (stats.isDirectory()) throw writeError(path, Object.assign(new Error('is a directory'), { code: 'EISDIR' }));
    if (!options.force && stats.size > 0 && holdsSlog(path)) {
      throw new CliError(`${path} holds a slog; not replacing it (--force replaces it)`, EXIT_USAGE);
    }
    let target = path;
    try {
      target = realpathSync(path);
    } catch {
      // keep the name
    }
    return { target, mode: stats.mode & 0o7777, direct: false };
  }
  return { target: path, mode: undefined, direct: false };
}

// ---- temporary files --------------------------------------------------------

/** Temporary files not yet renamed into place: removed on exit and on a fatal signal. */
const pending = new Set<string>();
let counter = 0;
let hooked = false;
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function removePending(): void {
  for (const temp of pending) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
  }
  pending.clear();
}

/**
 * A signal that ends the process removes the temporary files first. When
 * something else handles the signal (--follow and --watch end cleanly on
 * Ctrl-C), the run goes on and its output is put in place as usual.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  removePending();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', removePending);
  // First, so that it sees whether another listener will handle the signal.
  for (const s of SIGNALS) process.prependListener(s, onSignal);
}

/** Removes every temporary file not yet in place (a command failed). */
export function discardPendingOutputs(): void {
  removePending();
}

/** The temporary files not yet in place (tests). */
export function pendingOutputs(): string[] {
  return [...pending];
}

function tempPath(target: string): string {
  counter += 1;
  return join(dirname(target), `.${basename(target)}.slogulate-${process.pid}-${counter}.tmp`);
}

/**
 * Standard output (no path, or `-`), or the file `path` through a
 * temporary file. Every check (see the file's comment) is made here, before
 * the command reads anything; throws a one-line CliError.
 */
export function openOutput(path: string | undefined, options: OutputOptions = {}): Output {
  if (path === undefined || path === '-') return new Output(process.stdout, STDOUT_NAME);
  const plan = checkOutput(path, options);
  if (plan.direct) {
    let fd: number;
    try {
      fd = openSync(path, 'w');
    } catch (err) {
      throw writeError(path, err);
    }
    return new Output(createWriteStream(path, { fd }), path);
  }
  const temp = tempPath(plan.target);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o666);
    if (plan.mode !== undefined) fchmodSync(fd, plan.mode);
  } catch (err) {
    throw writeError(path, err);
  }
  hookExit();
  pending.add(temp);
  const stream = createWriteStream(temp, { fd });
  return new Output(stream, path, {
    commit: async () => {
      try {
        renameSync(temp, plan.target);
      } catch (err) {
        throw writeError(path, err);
      }
      pending.delete(temp);
    },
    discard: () => {
      if (!pending.delete(temp)) return;
      try {
        unlinkSync(temp);
      } catch {
        // already gone
      }
    },
  });
}

/** `12.3 KB`, `4.5 MB`: a file's size as people read it. */
function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * After a command wrote its file (`-o F`, in place): one line on stderr
 * saying so, `slogulate: wrote F (12.3 KB, what)`, for a command whose
 * stdout is otherwise empty. Nothing for stdout, nor for a device or FIFO.
 */
export function sayWritten(path: string | undefined, what?: string): void {
  if (path === undefined || path === '-') return;
  const stats = statOf(path);
  if (!stats?.isFile()) return;
  warn(`wrote ${path} (${sizeText(stats.size)}${what === undefined ? '' : `, ${what}`})`);
}
