/**
 * What each subcommand does, in one line: the only place it is written.
 * `slogulate --help` lists it (index.ts: without loading the command), and
 * the command's own help (`slogulate X --help`, `slogulate help X`) starts
 * with it (each command's `.description()`), so that the two agree. Apart
 * from index.ts, so that a command reads its summary without importing the
 * index that loads it.
 */
export const SUMMARIES = {
  top: 'rank delivery cranks by total, local and syscall time, syscall fraction and count, and computrons',
  stats: 'tables: syscalls by type, deliveries by vat and by vat+method, cranks and computrons by vat, totals',
  compare: 'compare two slogs (base and head): counts, computrons, delivery times; exit 1 when a --fail-on threshold is exceeded',
  diverge: 'where two slogs of one chain (two validators) or one benchmark diverged: first differing crank and field, computrons, which node was slower',
  annotate: 'write an annotation file that names every kref by how it was made (send-3/rp, send-3/r, vat.root, ...)',
  flow: 'the message flow per vat: each delivery and notification, who sent it, who resolved it, what it sent and resolved',
  growth: 'what grows: c-list entries by vat and kind, kernel objects and promises, unresolved promises, heaps, per round, block or N cranks',
  kref: 'the life of one kref: how it was made, who resolved, exported, dropped it, and every crank line naming it',
  why: "why a crank ran: the chain of sends, resolves and reaps back to its run's trigger; --forward: the cranks it caused, as a tree",
  sequence: 'write a sequence diagram (Mermaid) of some cranks, blocks, a run or what a crank caused: vats, messages, notifications',
  trace: 'write a Chrome Trace Event file (Perfetto, chrome://tracing): a track per vat, a slice per crank, nested syscall slices',
  blocks: 'one line per chain block: height, time, runs, cranks, deliveries, computrons, beans, end-block and commit time, heap, inbound actions',
  runs: 'one line per chain run: block, run number, phase, trigger (bridge message, mailbox, timer), cranks, deliveries, computrons, beans, seconds',
  report: 'write one self-contained HTML report of a slog (charts, top cranks with their text, stats tables), or of two with --compare',
  export: "write the slogs' tables (deliveries, syscalls, cranks, blocks, runs, snapshots, stalls, vats, messages, clist, growth) as Parquet, CSV or one SQLite file",
  query: 'run SQL (DuckDB) over the tables of slogs or of export folders: deliveries, syscalls, cranks, blocks, runs, snapshots, stalls, vats, messages, clist, growth',
  extract: 'write the raw lines of a selection (cranks, blocks, a run, a time range, a vat) as a small slog that renders as the selection did',
  index: 'write the index of a slog, gzipped or plain (where each gzip member or 4 MB piece begins, and the crank, block and time there), so that selections on it seek without reading it all',
  recompress: 'rewrite a slog (plain or gzipped) as gzip members of a few MB each that every gzip reader reads, with its index, so that selections on it seek',
  completion: 'print a shell completion script (bash or zsh)',
} as const;

/** A subcommand's name. */
export type CommandName = keyof typeof SUMMARIES;
