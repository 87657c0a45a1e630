/**
 * Each line is named in its own vat's context (render/context.ts, inVat):
 * with --vatspace and vat-ref names, a replay of another vat inside a crank
 * names that vat's refs on its lines, and the crank's own lines after it are
 * named from the crank's vat still (the render once left the replayed vat
 * as the crank's for the rest of it); an entry outside any crank, from its
 * own vat's table. Hand-made lines: the shared slogs' replays are all of
 * the crank's own vat.
 */
import { describe, expect, it } from 'vitest';
import { parseAnnotations } from '../src/model/annotations.js';
import { bodyLines, deliveryCrank, sc } from './render-helpers.js';

const annotations = parseAnnotations({ vatRefs: { v1: { 'o-50': 'bobInV1' }, v2: { 'o-50': 'aliceInV2' } } }, 'a.json');
const send = (target: string, method: string) => ['send', target, { methargs: sc([method, []]), result: null }];

describe('vat-space names come from the vat of each line', () => {
  const crank = deliveryCrank(5, 'v1', [
    { type: 'syscall', vsc: send('o-50', 'before'), time: 100.0001 },
    { type: 'syscall-result', vsr: ['ok', null], time: 100.0002 },
    // v2 paged in: its transcript, replayed inside v1's crank.
    { type: 'deliver', crankNum: undefined, vatID: 'v2', replay: true, vd: ['message', 'o-50', { methargs: sc(['replayed', []]), result: null }] },
    { type: 'syscall', vsc: send('o-50', 'after'), time: 100.0003 },
    { type: 'syscall-result', vsr: ['ok', null], time: 100.0004 },
  ]);

  it('a replay of another vat inside a crank: its line in its vat, the crank\'s lines after it in the crank\'s', () => {
    expect(bodyLines(crank, { vatspace: true }, annotations)).toEqual([
      'crank-start: delivery crank 5',
      'send: <bobInV1> <- before(): @null',
      'replay deliver: <aliceInV2> <- replayed(): @null',
      'send: <bobInV1> <- after(): @null',
      'crank-finish: 1000µs crank 5',
    ]);
    // In kernel space too the replay is printed in vat space, in its vat.
    expect(bodyLines(crank, {}, annotations).filter((l) => l.startsWith('replay'))).toEqual(['replay deliver: <aliceInV2> <- replayed(): @null']);
  });

  it('an entry outside any crank, in its own vat; then a crank in its vat', () => {
    const outside = { type: 'deliver', vatID: 'v2', replay: true, vd: ['message', 'o-50', { methargs: sc(['paged', []]), result: null }] };
    const plain = deliveryCrank(6, 'v1', [{ type: 'syscall', vsc: send('o-50', 'later'), time: 100.0001 }, { type: 'syscall-result', vsr: ['ok', null], time: 100.0002 }]);
    expect(bodyLines([outside, ...plain, outside], { vatspace: true }, annotations)).toEqual([
      'replay deliver: <aliceInV2> <- paged(): @null',
      'crank-start: delivery crank 6',
      'send: <bobInV1> <- later(): @null',
      'crank-finish: 1000µs crank 6',
      'replay deliver: <aliceInV2> <- paged(): @null',
    ]);
  });
});
