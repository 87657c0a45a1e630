/**
 * `why` of a routing crank (a crank that moved a message, a notify or a
 * startVat from the kernel's acceptance queue on, delivering nothing): it
 * says what it routed, and walks on from what queued that. Checked on
 * chain-A and a-xs-3 against a plain loop (why-loop.ts): the routed item's
 * delivery is the next delivery crank of the same item (a message by its
 * result promise, a notify by vat and promise, a startVat by vat), and the
 * routing crank's cause is that delivery's cause.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyAnnotations } from '../src/model/annotations.js';
import { defaultRenderOptions } from '../src/render/options.js';
import { chainLines } from '../src/analyses/why/why-text.js';
import { whyChainOf } from '../src/run/why.js';
import { ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';
import { loopCauses, type LoopCause } from './why-loop.js';

type J = Record<string, any>;

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-why-routing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entries = (slog: string): J[] =>
  readFileSync(slog, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as J);

/** A send's method, from its methargs' body (`#["bootstrap",[...]]`). */
function methodOf(msg: J): string {
  const body = String(msg.methargs?.body ?? '');
  return String((JSON.parse(body.startsWith('#') ? body.slice(1) : body) as unknown[])[0]);
}

/** Each routing crank (its crank-start) and the delivery crank that delivered what it routed, by the loop; the slog has no restart before it. */
function routings(slog: string): Array<{ start: J; delivery: number | undefined }> {
  const all = entries(slog);
  const starts = all.filter((e) => e.type === 'crank-start');
  const delivers = all.filter((e) => e.type === 'deliver' && e.replay !== true && Array.isArray(e.kd));
  const restart = all.filter((e) => e.type === 'kernel-init-start').length > 1 ? all.findLastIndex((e) => e.type === 'kernel-init-start') : -1;
  const before = restart < 0 ? Infinity : Math.min(...all.slice(restart).filter((e) => typeof e.crankNum === 'number').map((e) => e.crankNum as number));
  return starts
    .filter((s) => s.crankType === 'routing' && s.crankNum < before)
    .map((start) => {
      const m = start.message as J;
      const same = (d: J): boolean => {
        const kd = d.kd as unknown[];
        if (m.type === 'send') return kd[0] === 'message' && kd[1] === m.target && (kd[2] as J).result === m.msg.result && (m.msg.result !== undefined || methodOf(kd[2] as J) === methodOf(m.msg));
        if (m.type === 'notify') return kd[0] === 'notify' && d.vatID === m.vatID && (kd[1] as J[][]).some((r) => r[0] === m.kpid);
        return kd[0] === m.type && d.vatID === m.vatID;
      };
      return { start, delivery: delivers.find((d) => d.crankNum > start.crankNum && same(d))?.crankNum as number | undefined };
    });
}

describe('why of a routing crank', () => {
  for (const [name, slog, every] of [
    ['chain-A', CHAIN_A, 37],
    ['a-xs-3', slogPath('a-xs-3'), 5],
  ] as const) {
    it(`${name}: what it routed, and on from what queued it (every ${every}th routing crank, and one of each type)`, async () => {
      const causes = new Map<number, LoopCause>(loopCauses(slog).causes.map((c) => [c.crank, c]));
      const all = routings(slog).filter((r) => r.delivery !== undefined);
      const types = new Set<string>();
      const sample = all.filter((r, i) => {
        const type = r.start.message.type as string;
        const first = !types.has(type);
        types.add(type);
        return first || i % every === 0;
      });
      expect(types.has('send') && types.has('notify')).toBe(true);
      let walked = 0;
      for (const { start, delivery } of sample) {
        const { chain, seen } = await whyChainOf({ inputs: [slog], crank: start.crankNum, options: defaultRenderOptions(), annotations: emptyAnnotations() });
        expect(seen, `crank ${start.crankNum}`).toBe('routing');
        const lines = chainLines(chain as NonNullable<typeof chain>);
        const m = start.message as J;
        const what = m.type === 'send' ? `send: @${m.target} <- ${methodOf(m.msg)}(` : m.type === 'notify' ? `notify: ${m.vatID} @${m.kpid}` : `${m.type}: ${m.vatID}`;
        expect(lines[0], `crank ${start.crankNum}`).toMatch(new RegExp(`^crank ${start.crankNum} routing \\+[0-9.]+ms `));
        expect(lines[0]).toContain(` ${what}`);
        const cause = causes.get(delivery as number) as LoopCause;
        if (cause.causeCrank >= 0) {
          const syscall = cause.syscallNum >= 0 ? `, syscall ${cause.syscallNum}` : '';
          const word = ({ send: 'send', resolve: 'resolve', subscribe: 'subscribe \\(already resolved\\)', create: 'vat-admin request' } as Record<string, string>)[cause.kind];
          expect(word, cause.kind).toBeDefined();
          expect(lines[0]).toMatch(new RegExp(`\\[${word} in crank ${cause.causeCrank} \\(v\\d+\\)${syscall}[,\\]]`));
          // It walks on: the next step is the crank that queued it.
          expect(lines[1]).toMatch(new RegExp(`^crank ${cause.causeCrank} `));
          walked += 1;
        } else {
          expect(lines[0]).toMatch(/\[(trigger: |from outside|queued before the slog)/);
        }
      }
      expect(walked).toBeGreaterThan(2);
    }, 120_000);
  }

  it('a crank that delivered and routed nothing still says so (exit 1)', async () => {
    const file = join(dir, 'empty-crank.slog');
    const lines = [
      { type: 'kernel-init-start', time: 1 },
      { type: 'crank-start', crankType: 'delivery', crankNum: 0, time: 2 },
      { type: 'crank-finish', crankType: 'delivery', crankNum: 0, time: 3 },
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await runInProcess(['why', '0', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/crank 0 delivered nothing to a vat and routed nothing/);
  });
});
