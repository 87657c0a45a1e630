/**
 * `why --blocks` and `sequence --blocks` stop reading once a block above
 * the selection's last begins (cli/commands/why.ts blocksRoot, run/why.ts):
 * the same trees as a read to the end (the same selection without the
 * stop), the cranks a plain loop finds in those blocks' runs, fewer lines
 * read, and a damaged line after the selection not reported.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrankRange } from '../src/analyses/common/selection.js';
import { summaryOf, type TreeRoot } from '../src/analyses/why/forward.js';
import { summaryLines, treeLines } from '../src/analyses/why/why-text.js';
import { blocksRoot } from '../src/cli/commands/why.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import { defaultRenderOptions } from '../src/render/options.js';
import { forwardTreesOf } from '../src/run/why.js';
import { ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';
import { loopCauses } from './why-loop.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-why-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function treesText(root: TreeRoot): Promise<{ text: string; cranks: number[]; lines: number; stopped: boolean }> {
  const { trees, pass } = await forwardTreesOf({ inputs: [CHAIN_A], root, options: defaultRenderOptions(), annotations: emptyAnnotations() });
  const text = [...treeLines(trees), '', ...summaryLines(summaryOf([...trees.walk()].map((at) => at.node.step)))].join('\n');
  return { text, cranks: trees.cranks(), lines: pass.lines, stopped: pass.stopped !== undefined };
}

describe('why --blocks stops after the selection', () => {
  const loop = loopCauses(CHAIN_A).causes;
  for (const blocks of [
    [{ from: 73, to: 73 }],
    [{ from: 150, to: 152 }],
    [
      { from: 98, to: 98 },
      { from: 103, to: 105 },
    ],
    [{ from: 84, to: 88 }],
  ] as CrankRange[][]) {
    it(JSON.stringify(blocks), async () => {
      const stopping = await treesText(blocksRoot(blocks));
      // The same selection read to the end (no pastBlock): the output before the stop.
      const select = (blocksRoot(blocks) as { select: (n: number, r: string | undefined, h: number | undefined) => boolean }).select;
      const whole = await treesText({ select });
      expect(stopping.text).toBe(whole.text);
      expect(whole.stopped).toBe(false);
      expect(stopping.stopped).toBe(true);
      expect(stopping.lines).toBeLessThan(whole.lines);
      // By the loop: the delivery cranks of runs of those blocks.
      const want = loop.filter((c) => c.run !== undefined && blocks.some((b) => Number(c.run?.split('/')[0]) >= b.from && Number(c.run?.split('/')[0]) <= b.to)).map((c) => c.crank);
      expect(want.length).toBeGreaterThan(0);
      expect([...stopping.cranks].sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
    }, 60_000);
  }

  it('a damaged line after the selection is not read (nor reported); one inside a wider selection is', async () => {
    const lines = readFileSync(CHAIN_A, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"cosmic-swingset-begin-block","blockHeight":160,'));
    expect(at).toBeGreaterThan(0);
    lines.splice(at, 0, '{"type":"crank-start", damaged');
    const file = join(dir, 'damaged.slog');
    writeFileSync(file, lines.join('\n'));
    for (const command of ['why', 'sequence']) {
      const short = await runInProcess([command, '--blocks', '150-152', file]);
      expect(short.status, short.stderr).toBe(0);
      expect(short.stderr).toBe('');
      const wide = await runInProcess([command, '--blocks', '150-165', file]);
      expect(wide.stderr).toContain(`:${at + 1}: not JSON`);
    }
  }, 60_000);
});
