/**
 * What the render does for a terminal: `--color`/`--no-color`, the progress
 * bar on stderr, and `--follow` (read a growing slog, show each crank as it
 * ends, stop on Ctrl-C). `--watch` is in watch.ts.
 */
import { fstatSync } from 'node:fs';
import { Option } from 'commander';
import type { Annotations } from '../model/annotations.js';
import { Colorizer, colorWanted } from '../render/color.js';
import type { TextOut } from '../render/text-renderer.js';
import type { SlogSource } from '../source/open.js';
import { openFollow, type FollowSource } from '../source/follow.js';
import { tty } from '../source/builtins.js';
import { CliError, EXIT_USAGE, warn } from './errors.js';
import type { Output } from './output.js';
import { startProgress, type ProgressBar } from './progress.js';

/** fd 0 is a terminal: a character device (a pipe or a file is not: no need to load `node:tty`) that isatty says is one. */
function stdinIsATerminal(): boolean {
  try {
    return fstatSync(0).isCharacterDevice() && tty().isatty(0);
  } catch {
    return false;
  }
}

/**
 * A slog read from stdin when stdin is a terminal: without a word, a bare
 * `slogulate` (or `slogulate stats`) would seem to hang. One line on stderr
 * says what it waits for (main.ts, before the command runs).
 *
 * Asks fd 0 (isatty), never `process.stdin`: making that stream sets a
 * pipe non-blocking, and a piped slog (`cat FILE | slogulate -`) is then
 * read through a stream rather than by synchronous reads (source/open.ts),
 * some 10% more CPU. And only when the slog is read from stdin: `node:tty`
 * loads `node:net` and more, some 2 ms of a start.
 */
export function noteStdinTerminal(files: readonly string[], stdinIsTerminal: () => boolean = stdinIsATerminal): void {
  if (!(files.length === 0 || files.includes('-')) || !stdinIsTerminal()) return;
  warn('reading the slog from stdin (a terminal): paste it and end with Ctrl-D, or give a file: slogulate FILE (see slogulate --help)');
}

export interface TerminalCliOptions {
  /** true for --color, false for --no-color. */
  color?: boolean;
  watch?: boolean;
  follow?: boolean;
}

/** `--color`, `--no-color`, `--watch`, `--follow`. */
export function terminalOptions(): Option[] {
  return [
    new Option('--color', 'color the text even when it is not going to a terminal (also FORCE_COLOR=1)'),
    new Option('--no-color', 'never color the text (also NO_COLOR=1)'),
    new Option('--watch', 'with --out F: render again whenever the slog or the annotation file changes, until Ctrl-C').conflicts(
      'follow',
    ),
    new Option('--follow', 'keep reading a slog that is still being written, printing each crank as it ends; Ctrl-C ends'),
  ];
}

export class TerminalSession {
  private progress: ProgressBar | undefined;
  private followed: FollowSource | undefined;
  private readonly interrupt = (): void => this.followed?.stop();

  constructor(
    files: readonly string[],
    private readonly opts: TerminalCliOptions,
    private readonly annotations: Annotations,
  ) {
    if (opts.follow && (files.length !== 1 || files[0] === '-')) {
      throw new CliError('--follow needs one slog file (stdin is already read as it comes)', EXIT_USAGE);
    }
    // Registered before reading starts, so that an early Ctrl-C still ends with the text read so far.
    if (opts.follow) process.once('SIGINT', this.interrupt);
  }

  /** Where the renderer writes: the output, colored when wanted. */
  async textOut(out: Output): Promise<TextOut> {
    const colored = colorWanted({ flag: this.opts.color, isTTY: out.isTTY, env: process.env });
    if (!colored) return (text) => out.write(text);
    const colorizer = await Colorizer.ansi(this.annotations);
    return (text) => out.write(colorizer.text(text));
  }

  /** Pass hooks: how to open a followed file, the progress bar, and flushing each batch when following. */
  runHooks(out: Output): {
    open?: (path: string) => SlogSource;
    afterBatch: () => Promise<void>;
  } {
    if (!this.opts.follow) {
      return {
        afterBatch: () => {
          this.progress?.tick();
          return out.drained();
        },
      };
    }
    return {
      open: (path) => (this.followed = openFollow(path, { onNotice: warn })),
      afterBatch: () => {
        out.flush();
        return out.drained();
      },
    };
  }

  /** To call once the source is open: starts the progress bar if the source wants one. */
  opened(source: SlogSource, out: Output): void {
    if (this.opts.follow) return;
    this.progress = startProgress(source, { outputIsTerminal: out.isTTY });
  }

  /** Reading is over: the bar is erased, Ctrl-C is Ctrl-C again. */
  close(): void {
    this.progress?.stop();
    this.progress = undefined;
    process.off('SIGINT', this.interrupt);
  }
}
