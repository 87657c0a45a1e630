/**
 * issue 33's check on big-local-1200 (138 MB of slog, 19 MB gzipped):
 * `why --forward` of bootstrap crank 15 holds exactly the cranks 15
 * caused, directly or not, as a plain streaming loop over the slog's JSON
 * lines finds them (why-loop.ts's rules, apart from src/analyses/why/),
 * and its messages and notifications are exactly those the `messages`
 * table's rows lead to from 15 (a send or resolve of a crank of the tree
 * queued them). One read by slogulate, in a streaming pass whose memory is
 * what is in flight (run/why.ts), which ends once nothing in flight can add
 * to the tree, and one streaming loop.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyAnnotations } from '../src/model/annotations.js';
import { defaultRenderOptions } from '../src/render/options.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { forwardTreesOf } from '../src/run/why.js';
import { ROOT } from './helpers.js';
import { streamLoopCauses } from './why-loop.js';

const BIG = join(ROOT, '..', 'shared', 'slogs', 'big-local-1200.slog.gz');
const ROOT_CRANK = 15;

describe('why --forward on big-local-1200', () => {
  it(`crank ${ROOT_CRANK}'s tree: the cranks it caused, by a streaming loop`, async () => {
    const { trees, pass } = await forwardTreesOf({ inputs: [BIG], options: defaultRenderOptions(), annotations: emptyAnnotations(), root: { crank: ROOT_CRANK }, settings: settingsFrom() });
    expect(pass.badLines).toBe(0);
    const tree = new Map([...trees.walk()].map(({ node }) => [node.step.crankNum, node.step.delivery]));

    // The loop: every cause whose crank is in the set joins it (any kind: a send, resolve, subscribe, GC drop, reap, vat-admin request);
    // `byMessages`: only messages and notifications, as the messages table's rows (sendCrank -> deliverCrank) chain them.
    const caused = new Set([ROOT_CRANK]);
    const byMessages = new Set([ROOT_CRANK]);
    let rootSeen = false;
    const { cranks, lines } = await streamLoopCauses(BIG, (c) => {
      if (c.crank === ROOT_CRANK) {
        rootSeen = true;
        return;
      }
      if (caused.has(c.causeCrank)) caused.add(c.crank);
      if ((c.delivery === 'message' || c.delivery === 'notify') && byMessages.has(c.causeCrank)) byMessages.add(c.crank);
    });
    expect(rootSeen).toBe(true);
    expect(cranks).toBeGreaterThan(30_000);
    expect([...tree.keys()].sort((a, b) => a - b)).toEqual([...caused].sort((a, b) => a - b));
    const messagesInTree = [...tree].filter(([n, d]) => n === ROOT_CRANK || d === 'message' || d === 'notify').map(([n]) => n);
    expect(messagesInTree.sort((a, b) => a - b)).toEqual([...byMessages].sort((a, b) => a - b));
    expect(tree.size).toBeGreaterThan(10);
    // The read ended once nothing in flight could add to the tree (analyses/why/forward.ts TreeInFlight), well before the slog's end.
    expect(pass.stopped).toBeDefined();
    expect(pass.lines).toBeLessThan(lines / 2);
  }, 120_000);
});
