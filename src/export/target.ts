/**
 * Where an export goes, safely: never onto an input, never over anything
 * but an earlier export (and only when asked), and all or nothing — the
 * export is written into a temporary folder (or file) beside the target
 * and renamed into place once it is complete, so that a failed export
 * leaves the target as it was.
 */
import { accessSync, chmodSync, closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';

/** An export's own mistake (exit 2 when `usage`: fix the command line) or failure. */
export class ExportError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
  }
}

/**
 * The target's folder is missing, not a folder, or not writable: `reason`
 * is the system's error (ENOENT...), worded by the CLI as `-o` words it
 * (exit 1). The export creates no missing parent folder.
 */
export class TargetWriteError extends ExportError {
  constructor(
    readonly path: string,
    readonly reason: NodeJS.ErrnoException,
  ) {
    super(`${path}: ${reason.message}`, false);
  }
}

/**
 * Temporary folders and files not yet renamed into place or removed, so
 * that a command interrupted by a signal can remove them
 * (removeUnfinished) before it exits.
 */
const unfinished = new Set<string>();

export function trackUnfinished(path: string): void {
  unfinished.add(path);
}

export function untrackUnfinished(path: string): void {
  unfinished.delete(path);
}

/** Removes every unfinished temp (synchronously: for a signal handler). */
export function removeUnfinished(): void {
  for (const path of unfinished) rmSync(path, { recursive: true, force: true });
  unfinished.clear();
}

/**
 * Work that must stop before the process may exit: a Parquet export's
 * DuckDB on its worker thread (exiting while DuckDB loads or converts
 * terminates the thread under a native callback, which aborts the
 * process). Each resolves once its work has stopped.
 */
const stoppers = new Set<() => Promise<void>>();
let stopping = false;

export function trackStopper(stop: () => Promise<void>): void {
  stoppers.add(stop);
}

export function untrackStopper(stop: () => Promise<void>): void {
  stoppers.delete(stop);
}

/** Whether stopUnfinished was called (a signal): work not yet started should not start. */
export function isStopping(): boolean {
  return stopping;
}

/**
 * For a signal: stops the running work (stoppers), in order, then removes
 * every unfinished temp; the caller then exits. Failures of the work that
 * follow from the stop are the stop's, not the command's (isStopping).
 */
export async function stopUnfinished(): Promise<void> {
  stopping = true;
  // A stopper tracked while others stop is stopped too.
  const done = new Set<() => Promise<void>>();
  for (;;) {
    const left = [...stoppers].filter((s) => !done.has(s));
    if (left.length === 0) break;
    for (const s of left) done.add(s);
    await Promise.allSettled(left.map((s) => s()));
  }
  removeUnfinished();
}

/** The file that marks a folder as a slogulate export (ignored by engines: it starts with `_`). */
export const MANIFEST = '_slogulate-export.json';

export interface PreparedTarget {
  /** The target, resolved. */
  target: string;
  /** Where to write: a new folder (kind `dir`) or a path for a new file (kind `file`), beside the target. */
  temp: string;
  /** Puts the finished temp in the target's place (replacing an earlier export). */
  commit(): void;
  /** Removes the temp; the target stays as it was. */
  abort(): void;
}

/** A path with symlinks resolved where it exists (its parent's otherwise). */
function real(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(real(parent), basename(abs));
  }
}

function isSqliteFile(path: string): boolean {
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return head.toString('latin1') === 'SQLite format 3\0';
}

const tag = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

/** A part file a writer makes in a `source=NAME` folder. */
const PART_FILE = /^part-\d+\.(parquet|csv)$/;

/**
 * The earlier export's manifest: the tables and the sources it lists
 * (sources undefined when unreadable, or written before the manifest
 * listed them).
 */
function manifestLists(dir: string): { tables: string[]; sources: string[] | undefined } {
  const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { tables?: unknown; sources?: unknown };
    return { tables: strings(m.tables) ?? [], sources: strings(m.sources) };
  } catch {
    return { tables: [], sources: undefined };
  }
}

/**
 * What a folder holding MANIFEST holds besides an export's own files, as
 * paths relative to it: the export's own are the manifest, the tables'
 * folders (the manifest's tables and this export's) and in them the
 * `source=NAME` folders of the sources the manifest lists, each holding
 * only part files. Anything else (a file of the user's, a partition copied
 * in from another export: exports merge by copying folders, the manifest
 * being the last one copied) is not the export's: `--replace` would remove
 * it. A manifest that lists no sources (an older one's) counts as its own
 * only the partitions this export writes (`sources`).
 */
function notOfTheExport(dir: string, tables: readonly string[], sources: readonly string[]): string[] {
  const listed = manifestLists(dir);
  const tableNames = new Set([...listed.tables, ...tables]);
  const sourceNames = new Set(listed.sources ?? sources);
  const isDir = (path: string): boolean => lstatSync(path).isDirectory();
  const isFile = (path: string): boolean => lstatSync(path).isFile();
  const others: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === MANIFEST && isFile(path)) continue;
    if (!tableNames.has(name) || !isDir(path)) {
      others.push(name);
      continue;
    }
    for (const part of readdirSync(path).sort()) {
      const partPath = join(path, part);
      if (!part.startsWith('source=') || !sourceNames.has(part.slice('source='.length)) || !isDir(partPath)) {
        others.push(`${name}/${part}`);
        continue;
      }
      for (const file of readdirSync(partPath).sort()) {
        if (!PART_FILE.test(file) || !isFile(join(partPath, file))) others.push(`${name}/${part}/${file}`);
      }
    }
  }
  return others;
}

/** `a, b, c and 4 more`. */
function someOf(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}

export interface TargetOptions {
  /** An existing export (a folder holding MANIFEST and only an export's files, or a SQLite file) may be replaced. */
  replace: boolean;
  /** The slogs read (undefined: stdin). */
  inputs: ReadonlyArray<string | undefined>;
  /** The tables and the sources this export writes (a folder's earlier export may hold these too). */
  tables?: readonly string[];
  sources?: readonly string[];
}

/**
 * Checks the target and makes the temp beside it. `kind`: a dataset folder
 * or a database file. The target's folder must exist (it is not created:
 * TargetWriteError, as `-o` refuses a missing folder). Throws ExportError.
 */
export function prepareTarget(to: string, kind: 'dir' | 'file', options: TargetOptions): PreparedTarget {
  const target = real(to);
  for (const input of options.inputs) {
    if (input === undefined || input === '-') continue;
    const path = real(input);
    if (path === target || (kind === 'dir' && path.startsWith(target + sep))) {
      throw new ExportError(`--to ${to}: the export would overwrite its input ${input}`, true);
    }
  }
  /** What the target holds that a replace would remove and is not an export's (a folder); throws if any. */
  const checkReplaceable = (): void => {
    const others = notOfTheExport(target, options.tables ?? [], options.sources ?? []);
    if (others.length > 0) {
      throw new ExportError(
        `--to ${to}: holds what is not this export's (${someOf(others)}): --replace would remove it; not replacing it (export to another folder and copy its partitions in)`,
        true,
      );
    }
  };
  const exists = existsSync(target);
  /** An existing folder's permissions, kept by the new one. */
  let mode: number | undefined;
  if (exists) {
    const stat = statSync(target);
    if (kind === 'dir') {
      if (!stat.isDirectory()) throw new ExportError(`--to ${to}: exists and is not a folder`, true);
      mode = stat.mode & 0o7777;
      if (readdirSync(target).length > 0) {
        if (!options.replace) throw new ExportError(`--to ${to}: the folder is not empty (--replace replaces an earlier export)`, true);
        if (!existsSync(join(target, MANIFEST))) {
          throw new ExportError(`--to ${to}: the folder is not a slogulate export (no ${MANIFEST}): not replacing it`, true);
        }
        checkReplaceable();
      }
    } else {
      if (!stat.isFile()) throw new ExportError(`--to ${to}: exists and is not a file`, true);
      if (!options.replace) throw new ExportError(`--to ${to}: the file exists (--replace replaces an earlier export)`, true);
      if (!isSqliteFile(target)) throw new ExportError(`--to ${to}: the file is not a SQLite database: not replacing it`, true);
    }
  }
  const parent = dirname(target);
  const prefix = join(parent, `.${basename(target)}.tmp-`);
  const temp = `${prefix}${tag()}`;
  try {
    // The folder must be there and writable, as for `-o`: a mistyped path creates nothing.
    if (!statSync(parent).isDirectory()) throw Object.assign(new Error(`not a directory: ${parent}`), { code: 'ENOTDIR' });
    accessSync(parent, constants.W_OK);
    // mkdir, not mkdtemp (0700): the export gets the permissions of any new folder under the umask.
    if (kind === 'dir') mkdirSync(temp);
  } catch (err) {
    throw new TargetWriteError(to, err as NodeJS.ErrnoException);
  }
  let done = false;
  // A database file's: SQLite's files beside it too (a rollback journal, left by an interrupted run).
  const temps = kind === 'dir' ? [temp] : [temp, `${temp}-journal`, `${temp}-wal`, `${temp}-shm`];
  for (const t of temps) trackUnfinished(t);
  if (mode !== undefined) chmodSync(temp, mode);
  return {
    target,
    temp,
    commit() {
      if (done) return;
      if (existsSync(target)) {
        // Anything put into the target while the export ran is not removed either.
        if (kind === 'dir' && readdirSync(target).length > 0) {
          if (!options.replace) throw new ExportError(`--to ${to}: the folder is not empty (--replace replaces an earlier export)`, true);
          checkReplaceable();
        }
        // An empty folder is replaced by rename itself; anything else is moved aside first.
        const old = join(parent, `.${basename(target)}.old-${tag()}`);
        renameSync(target, old);
        try {
          renameSync(temp, target);
        } catch (err) {
          renameSync(old, target);
          throw err;
        }
        rmSync(old, { recursive: true, force: true });
      } else {
        renameSync(temp, target);
      }
      done = true;
      for (const t of temps) {
        if (t !== temp) rmSync(t, { force: true });
        untrackUnfinished(t);
      }
    },
    abort() {
      if (done) return;
      for (const t of temps) {
        rmSync(t, { recursive: true, force: true });
        untrackUnfinished(t);
      }
      done = true;
    },
  };
}

/** Characters a `source=NAME` folder keeps as they are; others become `_`. */
const UNSAFE = /[^A-Za-z0-9._+-]/g;

/**
 * Each input's name in the dataset: its file name (`stdin` for standard
 * input), after `prefix`, with every character but letters, digits and
 * `._+-` made `_` and leading dots and underscores dropped (engines skip
 * such folders). Two inputs may not share a name.
 */
export function sourceNames(inputs: ReadonlyArray<string | undefined>, prefix = ''): string[] {
  const names = inputs.map((input) => {
    const base = input === undefined || input === '-' ? 'stdin' : basename(input);
    const name = `${prefix}${base}`.replace(UNSAFE, '_').replace(/^[._]+/, '');
    return name === '' ? 'slog' : name;
  });
  const seen = new Map<string, string | undefined>();
  names.forEach((name, i) => {
    if (seen.has(name)) {
      throw new ExportError(
        `${inputs[i] ?? 'stdin'} and ${seen.get(name) ?? 'stdin'} would both be source=${name} in the dataset (rename one, or export them apart with --source-prefix)`,
        true,
      );
    }
    seen.set(name, inputs[i]);
  });
  return names;
}
