/**
 * Where an export goes, safely: never onto an input, never over anything
 * but an earlier export (and only when asked), and all or nothing — the
 * export is written into a temporary folder (or file) beside the target
 * and renamed into place once it is complete, so that a failed export
 * leaves the target as it was.
 */
import { existsSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
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

/**
 * Checks the target and makes the temp beside it. `kind`: a dataset folder
 * or a database file; `inputs`: the slogs read (undefined: stdin);
 * `replace`: an existing export (a folder holding MANIFEST, or a SQLite
 * file) may be replaced. Throws ExportError.
 */
export function prepareTarget(to: string, kind: 'dir' | 'file', options: { replace: boolean; inputs: ReadonlyArray<string | undefined> }): PreparedTarget {
  const target = real(to);
  for (const input of options.inputs) {
    if (input === undefined || input === '-') continue;
    const path = real(input);
    if (path === target || (kind === 'dir' && path.startsWith(target + sep))) {
      throw new ExportError(`--to ${to}: the export would overwrite its input ${input}`, true);
    }
  }
  const exists = existsSync(target);
  if (exists) {
    const stat = statSync(target);
    if (kind === 'dir') {
      if (!stat.isDirectory()) throw new ExportError(`--to ${to}: exists and is not a folder`, true);
      if (readdirSync(target).length > 0) {
        if (!options.replace) throw new ExportError(`--to ${to}: the folder is not empty (--replace replaces an earlier export)`, true);
        if (!existsSync(join(target, MANIFEST))) {
          throw new ExportError(`--to ${to}: the folder is not a slogulate export (no ${MANIFEST}): not replacing it`, true);
        }
      }
    } else {
      if (!stat.isFile()) throw new ExportError(`--to ${to}: exists and is not a file`, true);
      if (!options.replace) throw new ExportError(`--to ${to}: the file exists (--replace replaces an earlier export)`, true);
      if (!isSqliteFile(target)) throw new ExportError(`--to ${to}: the file is not a SQLite database: not replacing it`, true);
    }
  }
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const prefix = join(parent, `.${basename(target)}.tmp-`);
  const temp = kind === 'dir' ? mkdtempSync(prefix) : `${prefix}${tag()}`;
  let done = false;
  trackUnfinished(temp);
  return {
    target,
    temp,
    commit() {
      if (done) return;
      if (existsSync(target)) {
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
      untrackUnfinished(temp);
    },
    abort() {
      if (done) return;
      rmSync(temp, { recursive: true, force: true });
      done = true;
      untrackUnfinished(temp);
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
