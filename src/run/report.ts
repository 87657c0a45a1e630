/**
 * The passes of `slogulate report`: each run's files read once through the
 * usual pass (pass.ts, reading most lines as small entries), then the top
 * cranks' lines read again for their text (crank-texts.ts); with two runs,
 * both read at the same time, then compared as `compare` does.
 *
 * Both passes are the usual ones (pass.ts): every crank counted once, replays
 * left out.
 */
import type { Annotations } from '../model/annotations.js';
import { compareSides, evaluateThresholds } from '../analyses/compare/compare.js';
import { Rounds } from '../analyses/common/rounds.js';
import { ThresholdError, type Threshold, type ThresholdResult } from '../analyses/compare/thresholds.js';
import type { RankedCrank } from '../analyses/top/top.js';
import type { SelectionSpec } from '../analyses/common/selection.js';
import { DEFAULT_EVERY, EveryNCranks, everyNCranksLadder, MIN_POINTS, PerBlock, PerRound, type Bucketing } from '../report/bucketing.js';
import { readCrankTexts } from '../report/crank-texts.js';
import { reportData, type ReportData, type SideInput } from '../report/report-data.js';
import { chooseSeries } from '../report/series.js';
import { REPORT_GROWTH_READS, REPORT_READS, ReportSide, type SideCollected } from '../report/side.js';
import { growthThresholdWarnings } from '../analyses/compare/growth-warnings.js';
import type { SideData } from '../analyses/compare/compare-side.js';
import { restartableAnalysisPass, type Made } from './analyses.js';
import type { BadLineReport } from './pass.js';
import { settingsFor, type PassSettings } from './pass-settings.js';
import { MarkErrors } from './mark-errors.js';
import { UsageError } from './usage-error.js';

export { DEFAULT_EVERY, MIN_POINTS };

export interface ReportRequest {
  /** One run's files (read as one slog), or two runs (base, head). */
  runs: string[][];
  /**
   * Cranks per bucket (unless per round). Not given: one bucket per chain
   * block when the slog has blocks (both slogs, with two runs), else every
   * DEFAULT_EVERY cranks, or fewer when that makes under MIN_POINTS buckets
   * (bucketing.ts, everyNCranksLadder).
   */
  every?: number;
  /** One bucket per benchmark round (marks read from the slog's console entries). */
  roundMarks: boolean;
  /** Cranks per top ranking. */
  topN: number;
  annotations: Annotations;
  /** `--fail-on` thresholds (two runs only). */
  thresholds: Threshold[];
  /** Points per series at most (tests make it small). */
  maxPoints?: number;
  onBadLine?: (bad: BadLineReport) => void;
  /** Told what the user should know (a round without its end mark...). */
  warn?: (message: string) => void;
  /** How to read (default: the switches', read once per report; pass-settings.ts). */
  settings?: PassSettings;
  /** Only these cranks in the figures, rankings and charts (side.ts); every line is read. */
  selection?: SelectionSpec;
  /**
   * What grows too (side.ts; a section of the page, and the `growth.*`
   * thresholds): following it costs the report's pass about half its CPU
   * again (docs/report.md), so it is followed when asked, and
   * whenever a threshold reads it.
   */
  growth?: boolean;
}

export interface ReportOutcome {
  data: ReportData;
  thresholds: ThresholdResult[];
}

interface RunRead {
  collected: SideCollected;
  input: SideInput;
}

async function readRun(files: string[], role: SideInput['role'], req: ReportRequest, settings: PassSettings, compare: boolean): Promise<RunRead> {
  // Everything the pass builds is made by `make`: the pass may start over at a restart (analyses.ts).
  const make = (): Made<{ side: ReportSide; rounds: Rounds | undefined }> => {
    const rounds = req.roundMarks ? new Rounds() : undefined;
    // Per round; every N cranks when N is given; else per block, or every DEFAULT_EVERY cranks (fewer for a short slog) for a slog without blocks.
    const bucketing: Bucketing[] = rounds
      ? [new PerRound(rounds)]
      : req.every !== undefined
        ? [new EveryNCranks(req.every)]
        : [new PerBlock(), ...everyNCranksLadder()];
    const made = new ReportSide({
      files,
      annotations: req.annotations,
      bucketing,
      topN: req.topN,
      ...(req.maxPoints === undefined ? {} : { maxPoints: req.maxPoints }),
      ...(compare ? { compare: req.roundMarks ? { rounds: new Rounds() } : {} } : {}),
      ...(req.selection ? { selection: req.selection } : {}),
      growth: growthFollowed(req),
    });
    return { value: { side: made, rounds }, sink: new MarkErrors(made), onOpen: (source) => made.beginFile(source.name) };
  };
  const warn = req.warn ?? (() => undefined);
  const { value, result: run } = await restartableAnalysisPass(
    {
      inputs: files,
      ...(req.onBadLine ? { onBadLine: req.onBadLine } : {}),
      settings,
      onWarning: warn,
    },
    growthFollowed(req) ? REPORT_GROWTH_READS : REPORT_READS,
    make,
  );
  const { side, rounds } = value;
  const { lines, badLines } = run;
  const collected = side.result();
  const name = files.join(' ');
  if (rounds) {
    if (rounds.count === 0) {
      throw new UsageError(`${name} (console entries): no benchmark round marks (Benchmark "NAME" round N start crank C); drop --round-marks`);
    }
    for (const w of rounds.unendedWarnings(name)) warn(w);
  }
  if (collected.aggregate.cranks.seen === 0) warn(`${name}: no cranks`);
  const { spillAt } = settings;
  const byPlace = await readCrankTexts([...collected.places.values()], {
    annotations: req.annotations,
    vats: collected.vats,
    ...(spillAt === undefined ? {} : { spillAt }),
  });
  const texts = new Map<RankedCrank, string>();
  for (const [row, place] of collected.places) {
    const text = byPlace.get(place);
    if (text !== undefined) texts.set(row, text);
  }
  const input: SideInput = {
    role,
    files,
    lines,
    badLines,
    aggregate: collected.aggregate,
    top: collected.top,
    texts,
    series: collected.series,
    vats: collected.vats,
  };
  if (collected.growth) input.growth = collected.growth;
  return { collected, input };
}

/** Growth is followed when asked, or when a threshold reads it. */
function growthFollowed(req: ReportRequest): boolean {
  return req.growth === true || req.thresholds.some((t) => t.metric.kind === 'growth');
}

export async function collectReport(req: ReportRequest): Promise<ReportOutcome> {
  // Cranks per bucket: --every's, else the series' own (the ladder's choice).
  const bucket = req.roundMarks || req.every === undefined ? {} : { every: req.every };
  const settings = settingsFor(req);
  if (req.runs.length === 1) {
    const run = await readRun(req.runs[0] as string[], 'slog', req, settings, false);
    return { data: reportData({ sides: [run.input], ...bucket }), thresholds: [] };
  }
  const [base, head] = await Promise.all([
    readRun(req.runs[0] as string[], 'base', req, settings, true),
    readRun(req.runs[1] as string[], 'head', req, settings, true),
  ]);
  // Both runs on the same axis: per block only when both slogs have blocks.
  const shared = chooseSeries([base.collected.seriesAll, head.collected.seriesAll]);
  for (const run of [base, head]) run.input.series = run.collected.seriesAll[shared] as SideInput['series'];
  const warn = req.warn ?? (() => undefined);
  const baseData = base.collected.compareData;
  const headData = head.collected.compareData;
  if (!baseData || !headData) throw new Error('compare data missing');
  if (baseData.aggregate.computrons === undefined && headData.aggregate.computrons === undefined) {
    for (const t of req.thresholds) {
      if (t.metric.kind === 'computrons') warn(`--fail-on '${t.text}': neither slog reports computrons (only XS workers do); it cannot fail`);
    }
  }
  for (const line of growthThresholdWarnings(req.thresholds, baseData, headData)) warn(line);
  let thresholds: ThresholdResult[];
  try {
    thresholds = evaluateThresholds(req.thresholds, baseData, headData);
  } catch (err) {
    if (err instanceof ThresholdError) throw new UsageError(`--fail-on: ${err.message}`);
    throw err;
  }
  const comparison = compareSides(baseData, headData);
  return { data: reportData({ sides: [base.input, head.input], ...bucket, comparison, thresholds }), thresholds };
}
