/**
 * `slogulate trace`'s queue counters (docs/trace.md): `run queue` after
 * each crank is what a plain loop over the slog's crank-starts counts
 * (routing cranks in, delivery cranks of a routed message type out), and
 * at each kernel-stats entry of chain-A both counters say what the
 * kernel's own gauges say: `runQueueLength`, and `runQueueLength +
 * acceptanceQueueLength`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-trace-queue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

interface Ev {
  name: string;
  cat?: string;
  ph: string;
  args?: Record<string, number>;
}

type J = Record<string, any>;

async function traceOf(slog: string, name: string): Promise<Ev[]> {
  const file = join(dir, `${name}.json`);
  const r = await runInProcess(['trace', slog, '-o', file]);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
}

const lines = (slog: string): J[] =>
  readFileSync(slog, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as J);

/** The run queue after each crank, by the loop: +1 at a routing crank, -1 at a delivery crank of a message type routed before (never below 0). */
function loopRunQueue(slog: string): number[] {
  const routed = new Set<string>();
  let queue = 0;
  const out: number[] = [];
  for (const e of lines(slog)) {
    if (e.type !== 'crank-start') continue;
    const type = e.message?.type as string;
    if (e.crankType === 'routing') {
      routed.add(type);
      queue += 1;
    } else if (routed.has(type)) queue = Math.max(0, queue - 1);
    out.push(queue);
  }
  return out;
}

describe('trace queue counters', () => {
  for (const [name, slog] of [
    ['a-xs-3', slogPath('a-xs-3')],
    ['chain-A', CHAIN_A],
  ] as const) {
    it(`${name}: run queue after each crank, as the plain loop counts it`, async () => {
      const events = await traceOf(slog, name);
      const drawn = events.filter((e) => e.name === 'run queue').map((e) => e.args?.value);
      const loop = loopRunQueue(slog);
      expect(drawn).toEqual(loop);
      expect(Math.max(...loop)).toBeGreaterThan(2);
      // One `run + acceptance queues` beside each.
      expect(events.filter((e) => e.name === 'run + acceptance queues').length).toBe(loop.length);
    });
  }

  it("chain-A: at each kernel-stats entry, the counters are the kernel's runQueueLength and runQueueLength + acceptanceQueueLength", async () => {
    const events = await traceOf(CHAIN_A, 'chain-A-stats');
    const stats = lines(CHAIN_A).filter((e) => e.type === 'kernel-stats');
    let run: number | undefined;
    let both: number | undefined;
    const seen: Array<[number | undefined, number | undefined]> = [];
    for (const e of events) {
      if (e.name === 'run queue') run = e.args?.value;
      if (e.name === 'run + acceptance queues') both = e.args?.value;
      // The gauges of one entry are written together, runQueueLength among them: the counters drawn before it are those after the crank before it.
      if (e.name === 'runQueueLength' && e.cat === 'kernel-stats') seen.push([run, both]);
    }
    expect(seen.length).toBe(stats.length);
    expect(stats.length).toBeGreaterThan(500);
    expect(seen).toEqual(stats.map((s) => [s.stats.runQueueLength, s.stats.runQueueLength + s.stats.acceptanceQueueLength]));
    // Some runs end with items still queued (a run cut by its budget): the counters are not all 0 there.
    expect(stats.some((s) => s.stats.runQueueLength > 0)).toBe(true);
  });
});
