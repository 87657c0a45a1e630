/**
 * `slogulate query 'SQL' [inputs...]`: SQL (DuckDB) over the tables of slogs
 * and export folders. The work is in src/export/query.ts.
 */
import { Option, type Command } from 'commander';
import { QUERY_FORMATS, type QueryFormat } from '../../export/query-format.js';
import { runQuery } from '../../export/query.js';
import { TABLES } from '../../export/tables/index.js';
import { EXIT_OK } from '../errors.js';
import { openOutput } from '../output-file.js';
import { cleanUpOnSignal, cliError, cliExportPass } from './export.js';
import { SUMMARIES } from './summaries.js';

interface QueryCliOptions {
  format: QueryFormat;
}

export function register(program: Command): Command {
  const cmd = program
    .command('query')
    .description(SUMMARIES.query)
    .argument('<sql>', 'the SQL; each table is a view named after it')
    .argument('[inputs...]', 'slogs (files, or folders of slog files: each exported on the fly as one slog) and export folders; none reads a slog on stdin')
    .addOption(new Option('--format <format>', 'how to print the result').choices([...QUERY_FORMATS]).default('text'));
  cmd.addHelpText(
    'after',
    `
${tablesHelp()}
Examples:
  slogulate query 'SELECT vatID, count(*) FROM deliveries GROUP BY ALL ORDER BY 2 DESC' chain.slog
  slogulate query 'SELECT type, sum(micros) FROM syscalls GROUP BY ALL' fleet/ --format csv`,
  );
  cmd.action(async (sql: string, inputs: string[], opts: QueryCliOptions) => {
    cleanUpOnSignal();
    const out = openOutput(undefined);
    try {
      await runQuery({
        sql,
        inputs,
        format: opts.format,
        pass: cliExportPass(),
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

/** The tables and their columns, from their declarations (export/tables/): the help cannot name a column the export lacks. */
function tablesHelp(): string {
  const lines = TABLES.map((t) => `  ${t.name}: ${t.columns.map((c) => c.name).join(', ')}`);
  return ['Tables (each a view named after it; every one also has a source column, the', "input slog's file name):", ...lines].join('\n');
}
