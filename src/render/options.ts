/** What the text renderer is asked to print: the slogulator's options. */
export interface RenderOptions {
  /** Drop routing cranks, crank-start/crank-finish lines, subscribes and clist lines. */
  nonoise: boolean;
  /** Drop vatstore syscall lines. */
  novatstore: boolean;
  /** Times in crank headers and after each syscall line. */
  timing: boolean;
  /**
   * Under `timing`, a crank header shows where its time went (the time
   * split: page-in, vat, syscall, pipe, snapshot, kernel) wherever that says
   * more than total and syscall time, and a heap-snapshot-save line its
   * times and sizes. Absent means false. Set with `timing` (`--parts`
   * implies `--timing`).
   */
  parts?: boolean;
  /** Values longer than this print as `<BIG>` (an annotation file's bigWidth wins). */
  bigWidth: number;
  /** Render vrefs (`vd`/`vsc`/`vsr`) instead of krefs. */
  vatspace: boolean;
  /** Crank headers and the startup/end lines. */
  crankbreaks: boolean;
  /** clist lines. */
  clist: boolean;
  /** The slogger's own tags (`syscall send`, `notify fulfilled`...). */
  usesloggertags: boolean;
  /** A count of each entry type at the end. */
  summarize: boolean;
  /**
   * Drop every wall-clock figure (crank-finish, startup and block durations,
   * `--timing` times, `time`/`monotime` of unknown entries) so that two runs
   * of the same work render identically. Absent means false.
   */
  noTimes?: boolean;
}

export const DEFAULT_BIG_WIDTH = 200;

export function defaultRenderOptions(): RenderOptions {
  return {
    nonoise: false,
    novatstore: false,
    timing: false,
    bigWidth: DEFAULT_BIG_WIDTH,
    vatspace: false,
    crankbreaks: true,
    clist: true,
    usesloggertags: false,
    summarize: false,
  };
}
