/**
 * The subcommands, loaded lazily: `slogulate top` loads only top's code, so
 * that the bare render starts fast. Each module exports a `register(program)`
 * that adds its command (options, action) and returns it; add an entry here
 * to add a command (and its summary in summaries.ts). `summary` is what the
 * root `--help` lists.
 */
import type { Command } from 'commander';
import { SUMMARIES, type CommandName } from './summaries.js';

export type RegisterCommand = (program: Command) => Command;

export interface Subcommand {
  name: CommandName;
  /** Arguments, as the root help shows them. */
  usage: string;
  /** One line (summaries.ts), also the command's own description. */
  summary: string;
  load: () => Promise<{ register: RegisterCommand }>;
}

export const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'top',
    usage: '[options] [files...]',
    summary: SUMMARIES.top,
    load: () => import('./top.js'),
  },
  {
    name: 'stats',
    usage: '[options] [files...]',
    summary: SUMMARIES.stats,
    load: () => import('./stats.js'),
  },
  {
    name: 'compare',
    usage: '[options] <base> <head>',
    summary: SUMMARIES.compare,
    load: () => import('./compare.js'),
  },
  {
    name: 'diverge',
    usage: '[options] <a> <b>',
    summary: SUMMARIES.diverge,
    load: () => import('./diverge.js'),
  },
  {
    name: 'annotate',
    usage: '[options] [files...]',
    summary: SUMMARIES.annotate,
    load: () => import('./annotate.js'),
  },
  {
    name: 'flow',
    usage: '[options] [files...]',
    summary: SUMMARIES.flow,
    load: () => import('./flow.js'),
  },
  {
    name: 'growth',
    usage: '[options] [files...]',
    summary: SUMMARIES.growth,
    load: () => import('./growth.js'),
  },
  {
    name: 'kref',
    usage: '[options] <kref> [files...]',
    summary: SUMMARIES.kref,
    load: () => import('./kref.js'),
  },
  {
    name: 'why',
    usage: '[options] [crank] [files...]',
    summary: SUMMARIES.why,
    load: () => import('./why.js'),
  },
  {
    name: 'sequence',
    usage: '[options] [files...]',
    summary: SUMMARIES.sequence,
    load: () => import('./sequence.js'),
  },
  {
    name: 'trace',
    usage: '[options] [files...]',
    summary: SUMMARIES.trace,
    load: () => import('./trace.js'),
  },
  {
    name: 'blocks',
    usage: '[options] [files...]',
    summary: SUMMARIES.blocks,
    load: () => import('./blocks.js'),
  },
  {
    name: 'runs',
    usage: '[options] [files...]',
    summary: SUMMARIES.runs,
    load: () => import('./runs.js'),
  },
  {
    name: 'report',
    usage: '[options] <files...>',
    summary: SUMMARIES.report,
    load: () => import('./report.js'),
  },
  {
    name: 'export',
    usage: '[options] [files...]',
    summary: SUMMARIES.export,
    load: () => import('./export.js'),
  },
  {
    name: 'query',
    usage: "[options] <sql> [inputs...]",
    summary: SUMMARIES.query,
    load: () => import('./query.js'),
  },
  {
    name: 'extract',
    usage: '[options] <files...>',
    summary: SUMMARIES.extract,
    load: () => import('./extract.js'),
  },
  {
    name: 'index',
    usage: '<files...>',
    summary: SUMMARIES.index,
    load: () => import('./index-cmd.js'),
  },
  {
    name: 'recompress',
    usage: '[options] <in> <out>',
    summary: SUMMARIES.recompress,
    load: () => import('./recompress.js'),
  },
  {
    name: 'completion',
    usage: '<shell>',
    summary: SUMMARIES.completion,
    load: () => import('./completion.js'),
  },
];
