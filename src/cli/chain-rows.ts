/**
 * What `slogulate blocks` and `slogulate runs` share: their options (format,
 * --json, --busy, --blocks, --sort/-n, --follow, -o), and writing their rows
 * as they come: a header, then a line per row as the pass hands it over (a
 * live monitor with --follow, a flushed line per block); with --sort, the N
 * highest rows, kept as they come and written at the end.
 */
import { Option } from 'commander';
import { RowWriter, ROWS_FORMATS, type CellColumn, type RowsFormat } from '../analyses/chain/chain-table.js';
import { inRanges, type CrankRange } from '../analyses/common/selection.js';
import { TopN } from '../analyses/common/top-n.js';
import { emptyAnnotations } from '../model/annotations.js';
import type { BadLineReport } from '../run/pass.js';
import type { SlogSource } from '../source/open.js';
import { blocksOption, parsePositiveInt, rangesFrom } from './common-options.js';
import { CliError, EXIT_USAGE } from './errors.js';
import type { Output } from './output.js';
import { openOutput, outputOptions } from './output-file.js';
import { reportBadLine } from './slog-pass.js';
import { commandSettings, type PassSettings } from '../run/pass-settings.js';
import { TerminalSession } from './terminal.js';

export interface ChainRowsCliOptions {
  json?: boolean;
  format: RowsFormat;
  busy?: boolean;
  sort?: string;
  count?: number;
  follow?: boolean;
  blocks?: string;
  out?: string;
  force?: boolean;
}

/** How many rows --sort keeps without -n. */
export const DEFAULT_SORT_COUNT = 10;

/** The options of a command that prints chain rows; `what` is `blocks` or `runs`. */
export function chainRowOptions(what: string, sortKeys: readonly string[], keysHelp: string): Option[] {
  return [
    new Option('--json', `JSON lines: one object per ${what === 'blocks' ? 'block' : 'run'} (docs/chain.md)`).conflicts('format'),
    new Option('--format <format>', 'aligned text columns, a markdown table, or CSV').choices([...ROWS_FORMATS]).default('text'),
    new Option('--busy', `leave out ${what === 'blocks' ? 'blocks' : 'runs'} without cranks`),
    blocksOption(`only ${what === 'blocks' ? 'these blocks' : 'the runs of these blocks'} (heights): 85,100-120,13499082-`),
    new Option('--sort <key>', `only the highest -n ${what}, highest first, by ${keysHelp}`).choices([...sortKeys]),
    new Option('-n, --count <n>', `with --sort: how many ${what} (default ${DEFAULT_SORT_COUNT})`).argParser(parsePositiveInt),
    new Option('--follow', `keep reading a slog that is still being written, a line per ${what === 'blocks' ? 'block as it commits' : 'run as it ends'}; Ctrl-C ends`),
    ...outputOptions(),
  ];
}

/** The rows to print: with --busy those with cranks, with --blocks those of these heights. */
export function rowFilters<R extends { height: number | null }>(opts: ChainRowsCliOptions, busy: (row: R) => boolean): (row: R) => boolean {
  const heights: CrankRange[] | undefined = opts.blocks === undefined ? undefined : rangesFrom('--blocks', opts.blocks, 'block');
  return (row) => {
    if (opts.busy && !busy(row)) return false;
    if (heights && (row.height === null || !inRanges(heights, row.height))) return false;
    return true;
  };
}

export interface ChainRowsConfig<R> {
  columns: ReadonlyArray<CellColumn<R>>;
  json: (row: R) => Record<string, unknown>;
  /** A row's figure for --sort KEY. */
  sortValue: (row: R, key: string) => number;
  /** Which rows are printed. */
  keep: (row: R) => boolean;
}

/** What a pass takes from the command line: inputs, bad lines, output pacing, and how to open a followed file. */
export interface PassHooks {
  inputs: string[];
  onBadLine: (bad: BadLineReport) => void;
  onOpen: (source: SlogSource) => void;
  afterBatch: () => Promise<void>;
  open?: (path: string) => SlogSource;
  settings: PassSettings;
}

export class ChainRows<R> {
  private readonly out: Output;
  private readonly writer: RowWriter<R> | undefined;
  private readonly top: TopN<{ row: R; value: number }> | undefined;
  /** Rows printed (or kept, with --sort). */
  printed = 0;
  /** The header is written: at the first row, or at the end of a pass that read a slog; with --follow, first. */
  private headed = false;

  constructor(
    private readonly files: string[],
    private readonly opts: ChainRowsCliOptions,
    private readonly config: ChainRowsConfig<R>,
  ) {
    if (opts.count !== undefined && opts.sort === undefined) throw new CliError('-n needs --sort (for the first lines, use head)', EXIT_USAGE);
    if (opts.follow && opts.sort !== undefined) throw new CliError('--sort waits for the end of the slog: not with --follow', EXIT_USAGE);
    this.out = openOutput(opts.out, { inputs: files.length ? files : ['-'], force: opts.force });
    this.writer = opts.json ? undefined : new RowWriter(config.columns, opts.format);
    if (opts.sort !== undefined) {
      this.top = new TopN(opts.count ?? DEFAULT_SORT_COUNT, (a, b) => b.value - a.value);
    }
  }

  /** Hands a row over: printed now, or kept for --sort. */
  add(row: R): void {
    if (!this.config.keep(row)) return;
    this.printed += 1;
    if (this.top) {
      this.top.offer({ row, value: this.config.sortValue(row, this.opts.sort as string) });
      return;
    }
    this.write(row);
  }

  /** Runs the pass (given the hooks for its inputs and output), writing the header first; the output stays open. */
  async run<T>(pass: (hooks: PassHooks) => Promise<T>): Promise<T> {
    const terminal = new TerminalSession(this.files, { follow: this.opts.follow === true }, emptyAnnotations());
    try {
      // Following a slog being written, the header shows the monitor is on; else it waits, so that an input that
      // is not a slog (run/pass.ts) prints nothing.
      if (this.opts.follow) this.head();
      const { open, afterBatch } = terminal.runHooks(this.out);
      const result = await pass({
        inputs: this.files,
        onBadLine: reportBadLine,
        onOpen: (source) => terminal.opened(source, this.out),
        afterBatch,
        ...(open ? { open } : {}),
        settings: commandSettings(),
      });
      this.head();
      for (const { row } of this.top?.list() ?? []) this.write(row);
      return result;
    } catch (err) {
      this.out.discard();
      throw err;
    } finally {
      terminal.close();
    }
  }

  /** Puts the output in place. */
  close(): Promise<void> {
    return this.out.close();
  }

  private head(): void {
    if (!this.headed && this.writer) this.out.write(this.writer.head());
    this.headed = true;
  }

  private write(row: R): void {
    this.head();
    this.out.write(this.writer ? this.writer.line(row) : `${JSON.stringify(this.config.json(row))}\n`);
  }
}
