/**
 * The subcommands, loaded lazily: `slogulate top` loads only top's code, so
 * that the bare render starts fast. Each module exports a `register(program)`
 * that adds its command (options, action) and returns it; add an entry here
 * to add a command. `summary` is what the root `--help` lists.
 */
import type { Command } from 'commander';

export type RegisterCommand = (program: Command) => Command;

export interface Subcommand {
  name: string;
  /** Arguments, as the root help shows them. */
  usage: string;
  summary: string;
  load: () => Promise<{ register: RegisterCommand }>;
}

export const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'top',
    usage: '[options] [files...]',
    summary: 'rank delivery cranks by total, local and syscall time, syscall fraction and count, and computrons',
    load: () => import('./top.js'),
  },
  {
    name: 'stats',
    usage: '[options] [files...]',
    summary: 'tables: syscalls by type, deliveries by vat and vat+method, cranks and computrons by vat, totals',
    load: () => import('./stats.js'),
  },
  {
    name: 'compare',
    usage: '[options] <base> <head>',
    summary: 'compare two slogs: counts, computrons, delivery times; exit 1 when a --fail-on threshold is exceeded',
    load: () => import('./compare.js'),
  },
  {
    name: 'annotate',
    usage: '[options] [files...]',
    summary: 'write an annotation file that names every kref by how it was made (send-3/rp, vat.root, ...)',
    load: () => import('./annotate.js'),
  },
  {
    name: 'flow',
    usage: '[options] [files...]',
    summary: 'the message flow per vat: each delivery and notification, who sent and resolved it, what it did',
    load: () => import('./flow.js'),
  },
  {
    name: 'kref',
    usage: '[options] <kref> [files...]',
    summary: 'the life of one kref: how it was made, who resolved, exported, dropped it, every line naming it',
    load: () => import('./kref.js'),
  },
  {
    name: 'trace',
    usage: '[options] [files...]',
    summary: 'write a Chrome Trace Event file (Perfetto): a track per vat, a slice per crank, nested syscalls',
    load: () => import('./trace.js'),
  },
  {
    name: 'blocks',
    usage: '[options] [files...]',
    summary: 'one line per chain block: height, time, runs, cranks, computrons, beans, end-block and commit time (--follow: live)',
    load: () => import('./blocks.js'),
  },
  {
    name: 'runs',
    usage: '[options] [files...]',
    summary: 'one line per chain run: block, phase, trigger (bridge message, mailbox, timer), cranks, computrons, beans, seconds',
    load: () => import('./runs.js'),
  },
  {
    name: 'report',
    usage: '[options] <files...>',
    summary: 'write one self-contained HTML report: charts over the run, top cranks with their text, stats tables (--compare: two runs)',
    load: () => import('./report.js'),
  },
  {
    name: 'export',
    usage: '[options] [files...]',
    summary: 'write the slogs\' tables (deliveries, syscalls, cranks, blocks, runs, vats) as Parquet, CSV or one SQLite file',
    load: () => import('./export.js'),
  },
  {
    name: 'query',
    usage: "[options] <sql> [inputs...]",
    summary: 'run SQL (DuckDB) over the tables of slogs or of export folders; text, csv, markdown or json',
    load: () => import('./query.js'),
  },
  {
    name: 'completion',
    usage: '<shell>',
    summary: 'print a bash or zsh completion script',
    load: () => import('./completion.js'),
  },
];
