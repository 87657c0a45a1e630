/**
 * A sink that answers 'stop' ends the pass cleanly (model/assembler.ts's
 * SinkAnswer): no line after the one it answered to is read (counted by the
 * pass and by the line reader, and no later bad line is reported), no later
 * input is opened, the model still ends (a crank still open is handed over
 * unfinished), and the pass returns its result, saying where it stopped.
 * The figures are counted here from the slogs' lines.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrankSink, SinkAnswer } from '../model/assembler.js';
import type { Crank } from '../model/crank.js';
import { CommittedCranks } from '../model/executions.js';
import { READ_NOTHING } from '../scan/reads.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { runPass, type BadLineReport, type PassResult } from './pass.js';
import { settingsFrom, type PassSettings } from './pass-settings.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SLOG = join(ROOT, 'fixtures', 'slogs', 'a-xs-3.slog');
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A slog's lines, as JSON (null for a blank line). */
function jsonLines(file: string): Array<{ type: string; crankNum?: number } | null> {
  return readFileSync(file, 'utf8')
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => (l === '' ? null : (JSON.parse(l) as { type: string; crankNum?: number })));
}

/** The line number (1-based) of the `n`th (1-based) line of `type`. */
function nthLine(file: string, type: string, n: number): number {
  let seen = 0;
  const at = jsonLines(file).findIndex((o) => o?.type === type && (seen += 1) === n);
  expect(at, `${type} #${n} in ${file}`).toBeGreaterThanOrEqual(0);
  return at + 1;
}

/** A sink that answers 'stop' to the `n`th crank, and keeps what it was given. */
class StopAt implements CrankSink {
  cranks: Crank[] = [];
  entries = 0;
  constructor(private readonly n: number) {}
  entry(): SinkAnswer {
    this.entries += 1;
  }
  crank(crank: Crank): SinkAnswer {
    this.cranks.push(crank);
    return this.cranks.length === this.n ? 'stop' : undefined;
  }
}

interface Run {
  result: PassResult;
  sink: StopAt;
  /** The last line an entry was read from (observed). */
  lastObserved: number;
  opened: string[];
  bad: BadLineReport[];
}

async function run(inputs: string[], sink: StopAt, settings: PassSettings = settingsFrom()): Promise<Run> {
  let lastObserved = 0;
  const opened: string[] = [];
  const bad: BadLineReport[] = [];
  const result = await runPass({
    inputs,
    reads: READ_NOTHING,
    sink,
    settings,
    observe: (_e: SlogEntry, line: number) => void (lastObserved = line),
    onOpen: (source) => void opened.push(source.name),
    onBadLine: (b) => void bad.push(b),
  });
  return { result, sink, lastObserved, opened, bad };
}

/** Lines read each way add up to the lines the pass read. */
const readEachWay = (r: PassResult): number => r.read.fast + r.read.plain + r.read.big;

describe("a sink's 'stop'", () => {
  it('a-xs-3, stopped at its 10th crank: no line after that crank-finish is read, and the result says where it stopped', async () => {
    const total = jsonLines(SLOG).length;
    const finish = nthLine(SLOG, 'crank-finish', 10);
    const r = await run([SLOG], new StopAt(10));
    expect(r.result.stopped).toEqual({ input: 0, line: finish });
    expect(r.result.lines).toBe(finish);
    expect(readEachWay(r.result)).toBe(finish);
    expect(r.result.read.fast).toBeGreaterThan(0);
    expect(r.lastObserved).toBe(finish);
    expect(r.sink.cranks.length).toBe(10);
    expect(r.sink.cranks[9]?.lastLine).toBe(finish);
    expect(total).toBeGreaterThan(finish + 1000);
  });

  it('the same with every line read as a big line (the pass feeds both kinds of line one way)', async () => {
    const finish = nthLine(SLOG, 'crank-finish', 3);
    const r = await run([SLOG], new StopAt(3), { ...settingsFrom(), bigLineBytes: 0 });
    expect(r.result.stopped).toEqual({ input: 0, line: finish });
    expect(r.result.read).toEqual({ fast: 0, plain: 0, big: finish, lenient: 0 });
    expect(r.result.lines).toBe(finish);
    expect(r.sink.cranks.length).toBe(3);
  });

  it('the model still ends: a crank open at the stop is handed over unfinished; a bad line after it is never read, nor the next input', async () => {
    const line = (o: object): string => JSON.stringify(o);
    const crank = (n: number, t: number): string[] => [
      line({ type: 'crank-start', crankType: 'delivery', crankNum: n, time: t, monotime: t }),
      line({ type: 'deliver', crankNum: n, vatID: 'v1', deliveryNum: n, replay: false, kd: ['message', 'ko1', { methargs: { body: '#["go",[]]', slots: [] }, result: null }], vd: null, time: t + 0.1, monotime: t + 0.1 }),
    ];
    const finish = (n: number, t: number): string => line({ type: 'crank-finish', crankType: 'delivery', crankNum: n, time: t, monotime: t, seconds: 0.2 });
    // Crank 2 has no crank-finish: it is handed over (unfinished) when crank 3 starts, at line 6.
    const lines = [...crank(1, 1), finish(1, 1.2), ...crank(2, 2), ...crank(3, 3), finish(3, 3.2), 'not json', ...crank(4, 4), finish(4, 4.2)];
    const file = join(dir, 'open-at-stop.slog');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await run([file, SLOG], new StopAt(2));
    expect(r.result.stopped).toEqual({ input: 0, line: 6 });
    expect(r.result.lines).toBe(6);
    expect(readEachWay(r.result)).toBe(6);
    expect(r.sink.cranks.map((c) => [c.crankNum, c.finish === undefined, c.firstLine, c.lastLine])).toEqual([
      [1, false, 1, 3],
      [2, true, 4, 5],
      // Handed over by the model's end: unfinished, its crank-start the last line read.
      [3, true, 6, 6],
    ]);
    expect(r.bad).toEqual([]);
    expect(r.result.badLines).toBe(0);
    expect(r.opened).toEqual([file]);
    expect(r.result.sources).toEqual([file]);
  });

  it('a sink that never stops: every line of every input read, and `stopped` undefined', async () => {
    // Two files (the same one twice is an error: inputs.ts).
    const other = join(ROOT, 'fixtures', 'slogs', 'b-local-5.slog');
    const r = await run([SLOG, other], new StopAt(-1));
    expect(r.result.stopped).toBeUndefined();
    expect(r.result.lines).toBe(jsonLines(SLOG).length + jsonLines(other).length);
    expect(readEachWay(r.result)).toBe(r.result.lines);
    expect(r.opened).toEqual([SLOG, other]);
  });
});

describe("CommittedCranks' 'stop'", () => {
  it('read from the first commit, a restart before it stops the read at the restart (restart-replay)', async () => {
    const file = join(REAL, 'restart-replay.slog');
    const restart = nthLine(file, 'kernel-init-start', 2);
    const inner = new StopAt(-1);
    const once = new CommittedCranks(inner, { fromFirstCommit: true });
    const result = await runPass({ inputs: [file], reads: READ_NOTHING, sink: once, settings: settingsFrom() });
    expect(once.stopped).toBe(true);
    expect(result.stopped).toEqual({ input: 0, line: restart });
    expect(result.lines).toBe(restart);
    // What came before the restart went on as it came.
    const cranksBefore = jsonLines(file)
      .slice(0, restart)
      .filter((o) => o?.type === 'crank-finish').length;
    expect(inner.cranks.length).toBe(cranksBefore);
  });

  it("holding, it passes its inner sink's 'stop' on when it hands held cranks over (chain-bot: at the first commit after the crank)", async () => {
    const file = join(REAL, 'chain-bot.slog');
    const json = jsonLines(file);
    const firstFinish = nthLine(file, 'crank-finish', 1);
    const commit = json.findIndex((o, i) => i >= firstFinish && o?.type === 'cosmic-swingset-commit-block-finish') + 1;
    expect(commit).toBeGreaterThan(firstFinish);
    const inner = new StopAt(1);
    const held = new CommittedCranks(inner);
    const result = await runPass({ inputs: [file], reads: READ_NOTHING, sink: held, settings: settingsFrom() });
    expect(result.stopped).toEqual({ input: 0, line: commit });
    expect(result.lines).toBe(commit);
    // The commit handed over every crank held since the last one (after the inner sink's 'stop' too), none after it.
    expect(inner.cranks.length).toBe(json.slice(0, commit).filter((o) => o?.type === 'crank-finish').length);
  });
});
