/**
 * `slogulate export [files...] --to DIR`: the slogs' tables (deliveries,
 * syscalls, cranks, blocks, runs, snapshots, stalls, vats, messages, clist, growth) as a Parquet or
 * CSV dataset, or one SQLite file.
 * The work is in src/export/.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { exportSlogs, type ExportSummary, type SlogPass } from '../../export/export.js';
import type { AnyTableDef } from '../../export/schema.js';
import { DEFAULT_TABLES, TABLES, tableNamed } from '../../export/tables/index.js';
import { ExportError, isStopping, stopUnfinished, TargetWriteError } from '../../export/target.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../export/writers/writer.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { openOutput } from '../output-file.js';
import { writeError } from '../output.js';
import { exportPass } from '../../run/export.js';
import { passOrFail, reportBadLine } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings } from '../../run/pass-settings.js';
import { gapOption, selectionFrom, selectionOptions } from '../common-options.js';

interface ExportCliOptions {
  to: string;
  format: ExportFormat;
  replace?: boolean;
  sourcePrefix?: string;
  quiet?: boolean;
  gap: number;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  since?: string;
  until?: string;
  tables: readonly AnyTableDef[];
}

/**
 * `--tables deliveries,cranks` (those only), `--tables all`, `--tables
 * +clist,growth` (the default ones and these): the opt-in tables
 * (messages, clist, growth) cost the export much of its time, so they are
 * written only when named.
 */
export function parseTables(value: string): readonly AnyTableDef[] {
  const text = value.trim();
  if (text === 'all') return TABLES;
  const adding = text.startsWith('+');
  const names = (adding ? text.slice(1) : text).split(',').map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 0) throw new InvalidArgumentError(`no table named: give some of ${TABLES.map((t) => t.name).join(', ')}, or all`);
  const chosen = new Set<AnyTableDef>(adding ? DEFAULT_TABLES : []);
  for (const name of names) {
    const table = tableNamed(name);
    if (table === undefined) throw new InvalidArgumentError(`no table "${name}": the tables are ${TABLES.map((t) => t.name).join(', ')} (or all)`);
    chosen.add(table);
  }
  // In the registry's order, whatever order they were named in.
  return TABLES.filter((t) => chosen.has(t));
}

/** The export's pass on the command line, one for the whole command: bad lines reported, a pass that cannot go on as one line. */
export function cliExportPass(): SlogPass {
  const pass = exportPass(reportBadLine, commandSettings());
  return (file, sink, afterBatch, observe, reads) => passOrFail(pass(file, sink, afterBatch, observe, reads));
}

/**
 * On SIGINT or SIGTERM, stop DuckDB's work in order (a Parquet export's
 * worker thread: exiting under it would abort the process), remove the
 * export's temporary folder (the target stays as it was) and exit 130 or
 * 143, as the signal would have. A second signal ends the process at once.
 */
export function cleanUpOnSignal(): void {
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      void stopUnfinished()
        .catch(() => undefined)
        .finally(() => process.exit(status));
    });
  }
}

/**
 * ExportError as the CLI's one-line error. After a signal, the command's
 * failure is the stop's (a refused conversion...): nothing is said, and
 * the signal's handler ends the process.
 */
export async function cliError(err: unknown): Promise<unknown> {
  if (isStopping()) await new Promise<never>(() => undefined);
  if (err instanceof TargetWriteError) return writeError(err.path, err.reason);
  return err instanceof ExportError ? new CliError(err.message, err.usage ? EXIT_USAGE : EXIT_FAILURE) : err;
}

/** `TO: deliveries 160, syscalls 1310, cranks 278, vats 8 (parquet, 1 slog)`, TO as given: the tables with rows. */
function summaryLine(to: string, summary: ExportSummary): string {
  const totals = new Map<string, number>();
  for (const s of summary.sources) for (const [table, n] of Object.entries(s.rows)) totals.set(table, (totals.get(table) ?? 0) + n);
  // Tables without rows (blocks and runs of a slog without chain blocks) are not listed.
  const rows = [...totals].filter(([, n]) => n > 0).map(([table, n]) => `${table} ${n}`).join(', ') || 'no rows';
  const sources = summary.sources.length === 1 ? '1 slog' : `${summary.sources.length} slogs`;
  return `${to}: ${rows} (${summary.format}, ${sources})\n`;
}

export function register(program: Command): Command {
  const cmd = program
    .command('export')
    .description(SUMMARIES.export)
    .argument('[files...]', 'the slogs (plain or gzipped); none reads stdin')
    .requiredOption('--to <path>', 'the dataset folder (parquet, csv) or database file (sqlite)')
    .addOption(new Option('--format <format>', 'what to write').choices([...EXPORT_FORMATS]).default('parquet'))
    .option('--replace', 'replace an earlier export at --to (only a slogulate export, or a SQLite file)')
    .option('--source-prefix <prefix>', 'put before every source name (say a node\'s name, to merge exports of several nodes)')
    .addOption(gapOption())
    .addOption(
      new Option('--tables <names>', 'the tables to write, comma-separated; +NAMES: the default ones and these; all: every one')
        .argParser(parseTables)
        .default(DEFAULT_TABLES, 'all but messages,clist,growth'),
    )
    .option('-q, --quiet', 'print nothing when done');
  for (const opt of selectionOptions()) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
Each table is a folder of the dataset, one sub-folder per input slog
(hive partitioning): DIR/deliveries/source=chain.slog/part-0.parquet.
Tables: deliveries, syscalls, cranks (with where each crank's time went:
page-in, vat, syscalls, pipe, snapshot, kernel), blocks, runs, snapshots
(heap snapshots saved and loaded), stalls (gaps over --gap seconds), vats;
and, only when named in --tables (they cost the export much of its time),
messages (what queued each delivery), clist (c-list entries, from the
crank they came in to the one they left) and growth (per vat per round or
block). With --format sqlite, --to names one database file (tables
delivery, syscall, crank, block, run, snapshot, stall, vat, message,
clist_entry, vat_growth, and views named as above). The columns:
docs/export.md.
A selection (--cranks, --blocks, --since, --until, --vat) keeps the rows of
the selected cranks in cranks, deliveries and syscalls (each row as the
whole export has it); blocks, runs, snapshots, stalls and vats are the whole
slog's, so every line is read (no seek).
Examples:
  slogulate export chain.slog --to chain-tables
  slogulate export node1/*.slog.gz --to fleet --source-prefix node1-
  slogulate export chain.slog --format sqlite --to chain.sqlite
  slogulate export chain.slog --tables +messages,clist,growth --to chain-tables
  slogulate export --blocks 100-120 chain.slog --to blocks-100-120`,
  );
  cmd.action(async (files: string[], _opts: ExportCliOptions, command: Command) => {
    // The root command has some of these options too (--cranks, --blocks...): read both.
    const opts = command.optsWithGlobals<ExportCliOptions>();
    const selection = selectionFrom(opts, files);
    cleanUpOnSignal();
    let summary: ExportSummary;
    try {
      summary = await exportSlogs({
        inputs: files,
        to: opts.to,
        format: opts.format,
        replace: opts.replace,
        sourcePrefix: opts.sourcePrefix,
        pass: cliExportPass(),
        tables: opts.tables,
        stallSeconds: opts.gap,
        selection,
      });
    } catch (err) {
      throw await cliError(err);
    }
    if (!opts.quiet) {
      const out = openOutput(undefined);
      out.write(summaryLine(opts.to, summary));
      await out.close();
    }
    process.exitCode = EXIT_OK;
  });
  return cmd;
}
