/**
 * The causes on hand-made slogs, for the cases the shared slogs lack or
 * have rarely: a message without a result promise forwarded from a promise
 * to the object it resolved to, a subscription to a promise already
 * resolved, a crank the kernel undid (its message delivered again, its
 * sends never queued), a send after a crank spilled its syscalls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { causesOf } from '../../run/why.js';
import { settingsFrom } from '../../run/pass-settings.js';
import type { DeliveryCause } from './cause.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-why-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A slog written line by line: each crank a delivery with its syscalls. */
class HandSlog {
  readonly lines: object[] = [{ type: 'kernel-init-start', time: 999, monotime: 0 }];
  private time = 1000;

  private at(): number {
    this.time += 0.001;
    return this.time;
  }

  crank(n: number, vat: string, kd: unknown[], syscalls: unknown[][] = [], status = 'ok'): this {
    const t = (): number => this.at();
    this.lines.push({ type: 'crank-start', crankType: 'delivery', crankNum: n, vatID: vat, time: t() });
    this.lines.push({ type: 'deliver', crankNum: n, vatID: vat, deliveryNum: n, replay: false, kd, time: t() });
    syscalls.forEach((ksc, i) => {
      this.lines.push({ type: 'syscall', crankNum: n, vatID: vat, deliveryNum: n, syscallNum: i, replay: false, ksc, time: t() });
      this.lines.push({ type: 'syscall-result', crankNum: n, vatID: vat, deliveryNum: n, syscallNum: i, replay: false, ksr: ['ok', null], time: t() });
    });
    this.lines.push({ type: 'deliver-result', crankNum: n, vatID: vat, deliveryNum: n, replay: false, dr: [status, status === 'ok' ? null : 'boom', null], time: t() });
    this.lines.push({ type: 'crank-finish', crankNum: n, time: t() });
    return this;
  }

  file(name: string): string {
    const path = join(dir, name);
    writeFileSync(path, this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return path;
  }
}

const methargs = (method: string, ...args: unknown[]): object => ({ body: `#${JSON.stringify([method, args])}`, slots: [] });
const message = (target: string, method: string, result: string | null): unknown[] => ['message', target, { methargs: methargs(method), result }];
const send = (target: string, method: string, result: string | null): unknown[] => ['send', target, { methargs: methargs(method), result }];
const resolve = (vat: string, kp: string): unknown[] => ['resolve', vat, [[kp, false, { body: '#null', slots: [] }]]];
const notify = (kp: string): unknown[] => ['notify', [[kp, { state: 'fulfilled', data: { body: '#null', slots: [] } }]]];

async function causes(file: string, spillAt?: number): Promise<Map<number, DeliveryCause>> {
  const settings = { ...settingsFrom(), ...(spillAt === undefined ? {} : { spillAt }) };
  const { value } = await causesOf({
    inputs: [file],
    settings,
    start: () => {
      const found = new Map<number, DeliveryCause>();
      return { value: found, crank: (crank, cause) => void (cause && found.set(crank.crankNum, cause)) };
    },
  });
  return value;
}

const brief = (c: DeliveryCause | undefined): [string, number, number] | undefined => (c ? [c.cause.kind, c.cause.crank, c.cause.syscallNum] : undefined);

describe('causes on hand-made slogs', () => {
  it('forwarding, a subscription to a resolved promise, an undone crank', async () => {
    const slog = new HandSlog()
      .crank(1, 'v1', message('ko1', 'bootstrap', 'kp1'), [send('kp10', 'poke', null), send('ko5', 'foo', 'kp11'), ['subscribe', 'v1', 'kp11']])
      .crank(2, 'v2', message('ko5', 'foo', 'kp11'), [resolve('v2', 'kp11'), resolve('v2', 'kp10'), resolve('v2', 'kp12')])
      // The send to kp10 went to where kp10 resolved.
      .crank(3, 'v3', message('ko7', 'poke', null))
      .crank(4, 'v1', notify('kp11'), [['subscribe', 'v1', 'kp12'], send('ko9', 'bar', 'kp20')])
      .crank(5, 'v1', notify('kp12'))
      // Undone: its send is not queued, its message comes again.
      .crank(6, 'v5', message('ko9', 'bar', 'kp20'), [send('ko1', 'baz', 'kp21')], 'error')
      .crank(7, 'v5', message('ko9', 'bar', 'kp20'))
      .crank(8, 'v1', message('ko1', 'baz', 'kp21'));
    const found = await causes(slog.file('cases.slog'));
    expect(brief(found.get(1))).toEqual(['outside', -1, -1]);
    expect(brief(found.get(2))).toEqual(['send', 1, 1]);
    expect(brief(found.get(3))).toEqual(['send', 1, 0]);
    expect(brief(found.get(4))).toEqual(['resolve', 2, 0]);
    expect(brief(found.get(5))).toEqual(['subscribe', 4, 0]);
    expect(brief(found.get(6))).toEqual(['send', 4, 1]);
    expect(brief(found.get(7))).toEqual(['send', 4, 1]);
    expect(brief(found.get(8))).toEqual(['outside', -1, -1]);
    // Queue delays: from the syscall to the crank's start, positive.
    expect(found.get(2)?.queueMicros).toBeGreaterThan(0);
  });

  it('a send after a crank spilled its syscalls keeps its number', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ['vatstoreGet', 'v1', `key${i}`]);
    const slog = new HandSlog().crank(1, 'v1', message('ko1', 'go', 'kp1'), [...many, send('ko2', 'late', 'kp2')]).crank(2, 'v2', message('ko2', 'late', 'kp2'));
    const file = slog.file('spill.slog');
    expect(brief((await causes(file, 100)).get(2))).toEqual(['send', 1, 300]);
    expect(brief((await causes(file, 0)).get(2))).toEqual(['send', 1, 300]);
  });
});
