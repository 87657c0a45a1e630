/**
 * `why`'s causes (src/analyses/why/) against a plain loop over each shared
 * slog's JSON lines (test/why-loop.ts): every delivery crank has exactly
 * one cause, the same crank and syscall the loop finds; the chains of a
 * chain run end at that run's trigger; `--forward` covers exactly what the
 * causes reach. On every slog of ../shared/slogs and ../shared/slogs/real.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ancestry, type CauseChain } from '../src/analyses/why/ancestry.js';
import type { DeliveryCause } from '../src/analyses/why/cause.js';
import { summaryOf } from '../src/analyses/why/forward.js';
import { stepOf } from '../src/analyses/why/step.js';
import { chainLines, summaryLines } from '../src/analyses/why/why-text.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import { RenderContext } from '../src/render/context.js';
import { defaultRenderOptions } from '../src/render/options.js';
import { renderReads } from '../src/render/reads.js';
import { causesOf, forwardTreesOf, whyChainOf } from '../src/run/why.js';
import { ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';
import { loopCauses } from './why-loop.js';

const SHARED = join(ROOT, '..', 'shared', 'slogs');
const REAL = join(SHARED, 'real');
const SLOGS = [
  ...['a-local-3.slog', 'a-xs-3.slog', 'b-local-5.slog'].map((f) => join(SHARED, f)),
  ...readdirSync(REAL)
    .filter((f) => f !== 'README.md')
    .map((f) => join(REAL, f)),
];
const CHAIN_A = join(REAL, 'chain-A.slog');

/** Every delivery crank's cause, as the program finds it. */
async function programCauses(file: string, path?: 'plain'): Promise<{ causes: DeliveryCause[]; inFlight: number; midway: boolean }> {
  const { value, finder } = await causesOf({
    inputs: [file],
    ...(path ? { path } : {}),
    start: () => {
      const causes: DeliveryCause[] = [];
      return { value: causes, crank: (_crank, cause) => void (cause && causes.push(cause)) };
    },
  });
  return { causes: value, inFlight: finder.inFlight.size, midway: finder.startedMidway };
}

describe('the cause of every delivery crank', () => {
  it('lists the shared slogs it checks', () => {
    expect(SLOGS.length).toBeGreaterThanOrEqual(13);
  });
  for (const file of SLOGS) {
    it(`${file.slice(SHARED.length + 1)}: one cause per delivery crank, as the plain loop finds it`, async () => {
      const loop = loopCauses(file);
      const program = await programCauses(file);
      if (loop.causes.length) expect(program.midway).toBe(loop.midway);
      const seen = new Set<number>();
      for (const c of program.causes) {
        // Exactly one cause per delivery crank.
        expect(seen.has(c.crankNum), `crank ${c.crankNum} twice`).toBe(false);
        seen.add(c.crankNum);
      }
      expect(program.causes.map((c) => [c.crankNum, c.delivery, c.cause.kind, c.cause.crank, c.cause.syscallNum])).toEqual(
        loop.causes.map((c) => [c.crank, c.delivery, c.kind, c.causeCrank, c.syscallNum]),
      );
      // Only the first delivery of a slog that starts with the kernel, and what devices and the chain send, come from outside.
      for (const c of program.causes) {
        if (c.cause.kind === 'before-slog') expect(loop.midway).toBe(true);
        if (c.cause.crank >= 0) expect(c.cause.crank).toBeLessThan(c.crankNum);
      }
      // Memory: what is in flight at the end, not the slog.
      expect(program.inFlight).toBeLessThan(40);
      // The byte reader gives what JSON.parse gives.
      expect((await programCauses(file, 'plain')).causes).toEqual(program.causes);
    });
  }
});

describe('chains of causes', () => {
  it('from every delivery crank of chain-A, end at the trigger of its own run', async () => {
    const loop = loopCauses(CHAIN_A);
    const runOf = new Map(loop.causes.map((c) => [c.crank, c.run]));
    const chains: { crank: number; chain: CauseChain }[] = [];
    let most = 0;
    await causesOf({
      inputs: [CHAIN_A],
      reads: renderReads(defaultRenderOptions()),
      start: (vats) => {
        const ctx = new RenderContext(defaultRenderOptions(), emptyAnnotations(), vats);
        const ancestry = new Ancestry();
        return {
          value: null,
          watch: ancestry,
          crank: (crank, cause) => {
            const step = ancestry.read(cause ? crank.crankNum : undefined, cause ? () => stepOf(ctx, crank, cause) : undefined, true);
            if (step) chains.push({ crank: crank.crankNum, chain: ancestry.chain(step) });
            most = Math.max(most, ancestry.size);
          },
        };
      },
    });
    expect(chains.length).toBe(loop.causes.length);
    let inRuns = 0;
    for (const { crank, chain } of chains) {
      const run = runOf.get(crank);
      if (run === undefined) continue;
      inRuns += 1;
      const end = chain.end;
      expect(end.kind === 'trigger' || end.kind === 'earlier run', `crank ${crank}: ${end.kind}`).toBe(true);
      const [height, num] = run.split('/');
      if (end.kind === 'trigger' || end.kind === 'earlier run') expect(end.run.key).toBe(`block ${height} run ${num}`);
      // Every step is in the same run, each the cause of the one before.
      for (let i = 1; i < chain.steps.length; i += 1) {
        expect(chain.steps[i]?.crankNum).toBe(chain.steps[i - 1]?.cause.crank);
        expect(runOf.get(chain.steps[i]?.crankNum as number)).toBe(run);
      }
    }
    expect(inRuns).toBeGreaterThan(800);
  }, 120_000);

  it('whyChainOf prints a crank of chain-A back to its run trigger, one line per step', async () => {
    const loop = loopCauses(CHAIN_A);
    // A delivery crank three sends from its trigger: the first whose causes go back three steps within its run.
    const byCrank = new Map(loop.causes.map((c) => [c.crank, c]));
    const depth = (crank: number): number => {
      let n = 0;
      for (let c = byCrank.get(crank); c && c.causeCrank >= 0 && byCrank.get(c.causeCrank)?.run === c.run; c = byCrank.get(c.causeCrank)) n += 1;
      return n;
    };
    const target = loop.causes.find((c) => c.run !== undefined && c.delivery === 'message' && depth(c.crank) >= 2) as (typeof loop.causes)[number];
    const { chain, seen, kept } = await whyChainOf({ inputs: [CHAIN_A], crank: target.crank, options: defaultRenderOptions(), annotations: emptyAnnotations() });
    expect(seen).toBe('delivery');
    // What is kept is the ancestry of what is in flight, not the slog's cranks.
    expect(kept).toBeLessThan(100);
    const lines = chainLines(chain as CauseChain);
    expect(lines.length).toBe(depth(target.crank) + 2);
    expect(lines[0]).toMatch(new RegExp(`^crank ${target.crank} ${target.vat} .*deliver: @ko\\d+ <- `));
    expect(lines[lines.length - 1]).toMatch(new RegExp(`^trigger: .*, block ${target.run?.split('/')[0]} run ${target.run?.split('/')[1]} \\(`));
  });
});

/** The cranks that `root`'s causes reach, by the loop's causes (directly or not). */
function reached(causes: ReturnType<typeof loopCauses>['causes'], root: number): number[] {
  const inside = new Set([root]);
  for (const c of causes) if (c.crank !== root && inside.has(c.causeCrank)) inside.add(c.crank);
  return [...inside].sort((a, b) => a - b);
}

describe('why --forward', () => {
  // big-local-1200 (138 MB) is too slow for a test: b-local-5 and a-local-3, whose bootstrap crank's causes reach most of the slog.
  for (const name of ['b-local-5.slog', 'a-local-3.slog']) {
    it(`${name}: the tree of the bootstrap crank holds exactly the cranks its causes reach`, async () => {
      const file = join(SHARED, name);
      const loop = loopCauses(file);
      const bootstrap = loop.causes.find((c) => c.delivery === 'message' && c.kind === 'outside') as (typeof loop.causes)[number];
      expect(bootstrap.crank).toBeGreaterThan(0);
      const { trees } = await forwardTreesOf({ inputs: [file], root: { crank: bootstrap.crank }, options: defaultRenderOptions(), annotations: emptyAnnotations() });
      const want = reached(loop.causes, bootstrap.crank);
      expect(want.length).toBeGreaterThan(15);
      expect(trees.cranks().sort((a, b) => a - b)).toEqual(want);
      const summary = summaryOf([...trees.walk()].map((at) => at.node.step));
      expect(summary.cranks).toBe(want.length);
      const messages = loop.causes.filter((c) => want.includes(c.crank) && c.delivery === 'message').length;
      expect(summary.vats.reduce((n, v) => n + v.messages, 0)).toBe(messages);
      expect(summaryLines(summary)[0]).toMatch(new RegExp(`^${want.length} cranks in ${summary.vats.length} vats; \\d+\\.\\d{3}ms$`));
    });
  }

  it('chain-A: a run tree (--run) holds every delivery crank of the run, and a crank tree stays in its run', async () => {
    const loop = loopCauses(CHAIN_A);
    const run = '73/2';
    const want = loop.causes.filter((c) => c.run === run).map((c) => c.crank);
    const { trees } = await forwardTreesOf({
      inputs: [CHAIN_A],
      root: { select: (_n, key) => key === 'block 73 run 2' },
      options: defaultRenderOptions(),
      annotations: emptyAnnotations(),
    });
    expect(trees.cranks()).toEqual(want);
    const first = want[0] as number;
    const one = await forwardTreesOf({ inputs: [CHAIN_A], root: { crank: first }, options: defaultRenderOptions(), annotations: emptyAnnotations() });
    expect(one.trees.cranks().sort((a, b) => a - b)).toEqual(reached(loop.causes.filter((c) => c.run === run), first));
  });
});

describe('slogulate why on the command line', () => {
  it('prints the chain, the forward tree with its summary, and what a routing crank routed', async () => {
    const loop = loopCauses(CHAIN_A);
    const target = loop.causes.find((c) => c.run === '73/2' && c.delivery === 'message' && c.causeCrank >= 0) as (typeof loop.causes)[number];
    const back = await runInProcess(['why', String(target.crank), CHAIN_A]);
    expect(back.status).toBe(0);
    expect(back.stdout.split('\n')[0]).toMatch(new RegExp(`^crank ${target.crank} `));
    expect(back.stdout).toContain('block 73 run 2 (inbound)');
    const forward = await runInProcess(['why', '--run', '73/2', CHAIN_A]);
    expect(forward.status).toBe(0);
    const count = loop.causes.filter((c) => c.run === '73/2').length;
    expect(forward.stdout).toContain(`\n${count} cranks in `);
    // A routing crank: what it routed (test/why-routing.test.ts checks more).
    const routing = await runInProcess(['why', '10', CHAIN_A]);
    expect(routing.status, routing.stderr).toBe(0);
    expect(routing.stdout).toMatch(/^crank 10 routing \+0\.000ms send: @ko21 <- bootstrap\(/);
    const usage = await runInProcess(['why', 'chain.slog']);
    expect(usage.status).toBe(2);
    // --blocks: a tree per run of the block, each headed by its run and trigger.
    const block = await runInProcess(['why', '--blocks', '73', CHAIN_A]);
    expect(block.status).toBe(0);
    const runs = new Set(loop.causes.filter((c) => c.run?.startsWith('73/')).map((c) => c.run));
    expect(block.stdout.split('\n').filter((l) => l.startsWith('// block 73 run ')).length).toBe(runs.size);
    expect(block.stdout).toContain(`\n${loop.causes.filter((c) => c.run?.startsWith('73/')).length} cranks in `);
  });

  it('names refs and vats from the annotation file', async () => {
    const file = join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog');
    const named = await runInProcess(['why', '37', '--annotations', join(ROOT, 'fixtures', 'annotations', 'a-local-3.annot.json'), file]);
    expect(named.status).toBe(0);
    expect(named.stdout.split('\n')[0]).toMatch(/^crank 37 v6 alice .*deliver: <registry> <- register\("bob", <bobAccount>\): @kp45 \[send in crank 35 \(v1\), syscall 0, /);
    const sequence = await runInProcess(['sequence', '--why', '15', '--annotations', join(ROOT, 'fixtures', 'annotations', 'a-local-3.annot.json'), file]);
    expect(sequence.status).toBe(0);
    expect(sequence.stdout).toContain('register(#34;bob#34;, #60;bobAccount#62;)#58; @kp45');
  });
});

describe('the messages table (export, query)', () => {
  /** The query's rows as CSV cells. */
  async function rows(sql: string, file: string): Promise<string[][]> {
    const r = await runInProcess(['query', '--format', 'csv', sql, file]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
  }

  for (const name of ['a-local-3.slog', 'b-local-5.slog', 'real/chain-A.slog']) {
    it(`${name}: a row per message and notification, with the crank and syscall the plain loop finds`, async () => {
      const file = join(SHARED, name);
      const loop = loopCauses(file).causes.filter((c) => c.delivery === 'message' || c.delivery === 'notify');
      const got = await rows('SELECT deliverCrank, deliverVat, cause, sendCrank, syscallNum, method IS NULL FROM messages ORDER BY deliverCrank', file);
      expect(got).toEqual(
        loop.map((c) => [
          String(c.crank),
          c.vat,
          c.kind,
          c.causeCrank >= 0 ? String(c.causeCrank) : '',
          c.syscallNum >= 0 ? String(c.syscallNum) : '',
          String(c.delivery === 'notify'),
        ]),
      );
    }, 120_000);
  }

  it('b-local-5: what the table says the bootstrap crank caused (a recursive query) is why --forward\'s messages and notifications', async () => {
    const file = join(SHARED, 'b-local-5.slog');
    const loop = loopCauses(file);
    const bootstrap = loop.causes.find((c) => c.delivery === 'message' && c.kind === 'outside') as (typeof loop.causes)[number];
    const closure = await rows(
      `WITH RECURSIVE c(k) AS (SELECT ${bootstrap.crank} UNION SELECT m.deliverCrank FROM messages m JOIN c ON m.sendCrank = c.k) SELECT k FROM c ORDER BY k`,
      file,
    );
    const { trees } = await forwardTreesOf({ inputs: [file], root: { crank: bootstrap.crank }, options: defaultRenderOptions(), annotations: emptyAnnotations() });
    const messagesAndNotifies = [...trees.walk()]
      .map((at) => at.node.step)
      .filter((s) => s.delivery === 'message' || s.delivery === 'notify')
      .map((s) => s.crankNum)
      .sort((a, b) => a - b);
    expect(closure.map((r) => Number(r[0]))).toEqual(messagesAndNotifies);
    expect(messagesAndNotifies.length).toBeGreaterThan(10);
  }, 120_000);
});
