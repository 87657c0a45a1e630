/**
 * `slogulate query 'SQL' [inputs...]`: SQL (DuckDB) over the tables of slogs
 * and export folders. The work is in src/export/query.ts.
 */
import { Option, type Command } from 'commander';
import { QUERY_FORMATS, type QueryFormat } from '../../export/query-format.js';
import { runQuery } from '../../export/query.js';
import type { AnyTableDef } from '../../export/schema.js';
import { TABLES } from '../../export/tables/index.js';
import { EXIT_OK } from '../errors.js';
import { openOutput } from '../output-file.js';
import { cleanUpOnSignal, cliError, cliExportPass } from './export.js';
import { gapOption, selectionFrom, selectionOptions } from '../common-options.js';
import { SUMMARIES } from './summaries.js';

interface QueryCliOptions {
  format: QueryFormat;
  gap: number;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  since?: string;
  until?: string;
}

/** `  cranks: crankNum blockNum ...`, wrapped at 78 characters under the table's name. */
function columnLines(table: AnyTableDef): string {
  const head = `  ${table.name}:`;
  const lines: string[] = [];
  let line = head;
  for (const c of table.columns) {
    if (line.length + 1 + c.name.length > 78) {
      lines.push(line);
      line = ' '.repeat(head.length);
    }
    line += ` ${c.name}`;
  }
  lines.push(line);
  return lines.join('\n');
}

export function register(program: Command): Command {
  const cmd = program
    .command('query')
    .description(SUMMARIES.query)
    .argument('<sql>', 'the SQL; each table is a view named after it')
    .argument('[inputs...]', 'slogs (files, or folders of slog files: each exported on the fly as one slog) and export folders; none reads a slog on stdin')
    .addOption(new Option('--format <format>', 'how to print the result').choices([...QUERY_FORMATS]).default('text'))
    .addOption(gapOption(' (for the slogs read here: an export folder has the stalls it was exported with)'));
  for (const opt of selectionOptions()) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
The tables (views) and their columns:
${TABLES.map(columnLines).join('\n')}
Every view has a source column: the input slog's file name (or its
source= partition).
A selection (--cranks, --blocks, --since, --until, --vat) keeps the selected
cranks' rows in cranks, deliveries and syscalls of the slogs read here (the
other views are the whole slog's; every line is read); not with an export
folder, whose rows are selected in the SQL.
Examples:
  slogulate query 'SELECT vatID, count(*) FROM deliveries GROUP BY ALL ORDER BY 2 DESC' chain.slog
  slogulate query 'SELECT type, sum(micros) FROM syscalls GROUP BY ALL' fleet/ --format csv
  slogulate query 'SELECT count(*) FROM cranks' --since 10m chain.slog`,
  );
  cmd.action(async (sql: string, inputs: string[], _opts: QueryCliOptions, command: Command) => {
    // The root command has some of these options too (--cranks, --blocks...): read both.
    const opts = command.optsWithGlobals<QueryCliOptions>();
    const selection = selectionFrom(opts, inputs);
    cleanUpOnSignal();
    const out = openOutput(undefined);
    try {
      await runQuery({
        sql,
        inputs,
        format: opts.format,
        pass: cliExportPass(),
        stallSeconds: opts.gap,
        selection,
        write: (text) => out.write(text),
        drained: () => out.drained(),
      });
    } catch (err) {
      throw await cliError(err);
    }
    await out.close();
    process.exitCode = EXIT_OK;
  });
  return cmd;
}

