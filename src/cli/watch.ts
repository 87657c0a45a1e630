/**
 * `--watch`: render once into `--out O`, then again whenever the annotation
 * file or the slog changes, until Ctrl-C. Each render goes to a temporary
 * file beside O that replaces O only when the render succeeded
 * (output-file.ts), so a bad edit of the annotation file prints its one-line
 * error and O keeps the last good text (an editor showing O never sees half
 * a file). O may not be the slog or the annotation file (checked once,
 * before the first render: exit 2).
 *
 * Files are watched by polling their stat (fs.watchFile): editors that save
 * by writing a new file and renaming it over the old one are seen too.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { CliError, EXIT_OK, EXIT_USAGE, warn } from './errors.js';
import { checkOutput } from './output-file.js';

export interface WatchOptions {
  out?: string;
  annotations?: string;
  annot?: string;
  follow?: boolean;
  force?: boolean;
}

/** Renders the slog once into `out` (through a temporary file); throws CliError for a one-line failure. */
export type RenderOnce = (out: string) => Promise<number>;

export interface WatchConfig {
  /** How often each file's stat is read (ms). */
  pollMs?: number;
  /** Quiet time after a change before rendering (an editor may write in several steps). */
  settleMs?: number;
  /** Ends the loop (default: the first SIGINT). */
  until?: Promise<void>;
}

/** Checks the options --watch needs; throws a usage error otherwise. */
export function checkWatchOptions(files: readonly string[], opts: WatchOptions): { slogs: string[]; out: string; annotations: string | undefined } {
  if (opts.follow) throw new CliError('--watch and --follow cannot be used together', EXIT_USAGE);
  if (files.length === 0 || files.includes('-')) throw new CliError('--watch needs slog files (stdin cannot be read again)', EXIT_USAGE);
  if (opts.out === undefined || opts.out === '-') throw new CliError('--watch needs --out FILE (the file it rewrites)', EXIT_USAGE);
  const annotations = opts.annotations ?? opts.annot;
  checkOutput(opts.out, { inputs: [...files, annotations], force: opts.force });
  return { slogs: [...files], out: opts.out, annotations };
}

function firstInterrupt(): Promise<void> {
  return new Promise((resolve) => process.once('SIGINT', () => resolve()));
}

/** Renders, then re-renders on every change of the slog or the annotation file, until Ctrl-C. */
export async function watchRender(files: readonly string[], opts: WatchOptions, renderOnce: RenderOnce, config: WatchConfig = {}): Promise<number> {
  const { slogs, out, annotations } = checkWatchOptions(files, opts);
  const watched = annotations === undefined ? slogs : [annotations, ...slogs];
  const settleMs = config.settleMs ?? 100;

  let rendering: Promise<void> | undefined;
  let again = false;
  let stopping = false;
  let settle: NodeJS.Timeout | undefined;

  async function renderAndReplace(): Promise<void> {
    try {
      await renderOnce(out);
      warn(`wrote ${out}`);
    } catch (err) {
      if (err instanceof CliError) warn(err.message);
      else warn(`internal error: ${(err as Error).message ?? String(err)} (please report it)`);
    }
  }

  function render(): void {
    if (stopping) return;
    if (rendering) {
      again = true;
      return;
    }
    rendering = renderAndReplace().then(() => {
      rendering = undefined;
      if (again) {
        again = false;
        render();
      }
    });
  }

  function changed(curr: Stats, prev: Stats): void {
    if (curr.mtimeMs === prev.mtimeMs && curr.size === prev.size && curr.ino === prev.ino) return;
    if (settle) clearTimeout(settle);
    settle = setTimeout(render, settleMs);
  }

  const done = config.until ?? firstInterrupt();
  render();
  warn(`watching ${watched.join(' and ')}; Ctrl-C to stop`);
  for (const path of watched) watchFile(path, { interval: config.pollMs ?? 200 }, changed);
  try {
    await done;
  } finally {
    stopping = true;
    for (const path of watched) unwatchFile(path, changed);
    if (settle) clearTimeout(settle);
    await rendering;
  }
  return EXIT_OK;
}
