/**
 * Every row of SLOG-FORMAT.md's table, on hand-made entries in the kernel's
 * shapes (the real slogs do not have them all: chain-level entries, callNow,
 * several resolutions, failures...).
 */
import { describe, expect, it } from 'vitest';
import { parseAnnotations } from '../src/model/annotations.js';
import type { Line as SlogEntry } from './slog-lines.js';
import { bodyLines, deliveryCrank, legacy, renderEntries, sc } from './render-helpers.js';

const v1 = (inner: SlogEntry[]) => deliveryCrank(5, 'v1', inner);

describe('deliveries', () => {
  it('message, with legacy capdata too', () => {
    const kd = ['message', 'ko22', { methargs: sc(['openAccount', ['x0', '+0']]), result: 'kp46' }];
    expect(bodyLines(v1([{ type: 'deliver', kd }]), { nonoise: true })).toEqual([
      'deliver: @ko22 <- openAccount("x0", 0): @kp46',
    ]);
    const old = ['message', 'ko22', { methargs: legacy(['openAccount', ['x0', { '@qclass': 'bigint', digits: '0' }]]), result: 'kp46' }];
    expect(bodyLines(v1([{ type: 'deliver', kd: old }]), { nonoise: true })).toEqual([
      'deliver: @ko22 <- openAccount("x0", 0): @kp46',
    ]);
  });

  it('notify, one and several resolutions, in kernel and vat space', () => {
    const one = { type: 'deliver', kd: ['notify', [['kp46', { state: 'fulfilled', data: sc('$0', ['ko31']) }]]], vd: ['notify', [['p+5', false, sc('$0', ['o-56'])]]] };
    expect(bodyLines(v1([one]), { nonoise: true })).toEqual(['fulfilled: @kp46 := @ko31']);
    expect(bodyLines(v1([one]), { nonoise: true, vatspace: true })).toEqual(['fulfilled: @p+5 := @o-56']);
    const two = {
      type: 'deliver',
      kd: ['notify', [['kp1', { state: 'fulfilled', data: sc(1) }], ['kp2', { state: 'rejected', data: sc({ '#error': 'no', name: 'Error' }) }]]],
    };
    expect(bodyLines(v1([two]), { nonoise: true })).toEqual(['fulfilled: 0 @kp1 := 1', 'rejected: 1 @kp2 := {#error: "no", name: "Error"}']);
    expect(bodyLines(v1([two]), { nonoise: true, usesloggertags: true })[0]).toBe('notify fulfilled: 0 @kp1 := 1');
  });

  it('the other delivery kinds', () => {
    const lines = bodyLines(
      v1([
        { type: 'deliver', kd: ['startVat', sc({ argv: [] })] },
        { type: 'deliver', kd: ['dropExports', ['ko23', 'ko24']] },
        { type: 'deliver', kd: ['retireExports', ['ko23']] },
        { type: 'deliver', kd: ['retireImports', ['ko25']] },
        { type: 'deliver', kd: ['bringOutYourDead'] },
        { type: 'deliver', kd: ['stopVat', sc('#undefined')] },
        { type: 'deliver', kd: ['changeVatOptions', { reapInterval: 5 }] },
        { type: 'deliver-result', dr: ['ok', null, null] },
        { type: 'deliver-result', dr: ['error', 'vat is dead', null] },
      ]),
      { nonoise: true },
    );
    expect(lines).toEqual([
      'startVat: {argv: []}',
      'recv-dropExports: [@ko23 @ko24]',
      'recv-retireExports: [@ko23]',
      'recv-retireImports: [@ko25]',
      'bringOutYourDead',
      'stopVat: undefined',
      'changeVatOptions: {reapInterval: 5}',
      'deliver-result: error vat is dead',
    ]);
  });
});

/** A syscall and its result, `dt` seconds apart. */
function sys(ksc: unknown[], ksr: unknown[] = ['ok', null], t = 100.0002, dt = 0.000017, vsc?: unknown[], vsr?: unknown[]) {
  return [
    { type: 'syscall', ksc, vsc: vsc ?? ksc, time: t },
    { type: 'syscall-result', ksr, vsr: vsr ?? ksr, time: t + dt },
  ];
}

describe('syscalls', () => {
  it('each kind', () => {
    const lines = bodyLines(
      v1([
        ...sys(['send', 'ko30', { methargs: sc(['deposit', [10]]), result: 'kp60' }]),
        ...sys(['resolve', 'v1', [['kp46', false, sc('$0', ['ko31'])]]]),
        ...sys(['resolve', 'v1', [['kp1', false, sc(1)], ['kp2', true, sc('x')]]]),
        ...sys(['invoke', 'kd30', 'getLastPolled', sc([])], ['ok', sc(1000)]),
        ...sys(['callNow', 'kd30', 'poll', legacy([1])], ['ok', legacy({ '@qclass': 'undefined' })]),
        ...sys(['subscribe', 'v1', 'kp41']),
        ...sys(['vatstoreGet', 'v1', 'idCounters'], ['ok', null]),
        ...sys(['vatstoreGetNextKey', 'v1', 'vc.3.'], ['ok', 'vc.3.|entryCount']),
        ...sys(['vatstoreSet', 'v1', 'kindIDID', '1']),
        ...sys(['vatstoreDelete', 'v1', 'vom.rc.o+d13/1']),
        ...sys(['dropImports', ['ko31']]),
        ...sys(['retireImports', ['ko31']]),
        ...sys(['retireExports', ['ko40']]),
        ...sys(['abandonExports', 'v1', ['ko41']]),
        ...sys(['exit', 'v1', true, sc({ '#error': 'all done', name: 'Error' })]),
        ...sys(['exit', 'v1', false, sc('bye')]),
      ]),
    );
    expect(lines).toEqual([
      'crank-start: delivery crank 5',
      'send: @ko30 <- deposit(10): @kp60',
      'resolve fulfill: @kp46 := @ko31',
      'resolve 0 fulfill: @kp1 := 1',
      'resolve 1 reject: @kp2 := "x"',
      'invoke: @kd30.getLastPolled(): 1000',
      'invoke: @kd30.poll(1): undefined',
      'subscribe: @kp41',
      "vatstoreGet: 'idCounters' : 'null'",
      "vatstoreGetNextKey: 'vc.3.' : 'vc.3.|entryCount'",
      "vatstoreSet: 'kindIDID' := '1'",
      "vatstoreDelete: 'vom.rc.o+d13/1'",
      'send-dropImports: [@ko31]',
      'send-retireImports: [@ko31]',
      'send-retireExports: [@ko40]',
      'send-abandonExports: [@ko41]',
      'exit: (failure) {#error: "all done", name: "Error"}',
      'exit: (success) "bye"',
      'crank-finish: 1000µs crank 5',
    ]);
  });

  it('a failed syscall prints its result first, and its line shows nothing given back (the error is no value read)', () => {
    const lines = bodyLines(v1(sys(['vatstoreGet', 'v1', 'k'], ['error', 'no such key'])), { nonoise: true });
    expect(lines).toEqual(['result: error no such key', "vatstoreGet: 'k'"]);
    const tagged = bodyLines(v1(sys(['send', 'ko1', { methargs: sc(['m', []]), result: 'kp1' }], ['error', 'dead'])), { nonoise: true, usesloggertags: true });
    expect(tagged).toEqual(['syscall-result send: error dead', 'syscall send: @ko1 <- m(): @kp1']);
    const after = bodyLines(v1(sys(['vatstoreGetAfter', 'v1', '', 'vc.4.', 'vc.4.{'], ['error', 'bad range'])), { nonoise: true, timing: true });
    expect(after).toEqual(['result: error bad range', "vatstoreGetAfter: '' 'vc.4.' 'vc.4.{' (17µs)"]);
    // Under --novatstore a vatstore syscall goes whole: its failure's result: line too.
    expect(bodyLines(v1(sys(['vatstoreGet', 'v1', 'k'], ['error', 'no such key'])), { nonoise: true, novatstore: true })).toEqual([]);
  });

  it('--timing puts the syscall time after each line, --novatstore and --nonoise drop theirs', () => {
    const crank = v1([...sys(['vatstoreGet', 'v1', 'a'], ['ok', '1']), ...sys(['subscribe', 'v1', 'kp1']), ...sys(['dropImports', ['ko1']])]);
    expect(bodyLines(crank, { timing: true })).toEqual([
      'crank-start: delivery crank 5',
      "vatstoreGet: 'a' : '1' (17µs)",
      'subscribe: @kp1 (17µs)',
      'send-dropImports: [@ko1] (17µs)',
      'crank-finish: 1000µs crank 5',
    ]);
    expect(bodyLines(crank, { nonoise: true, novatstore: true })).toEqual(['send-dropImports: [@ko1]']);
  });

  it('a syscall whose result never came is kept', () => {
    const lines = bodyLines(deliveryCrank(5, 'v1', [{ type: 'syscall', ksc: ['vatstoreGet', 'v1', 'k'], time: 100 }]), { nonoise: true });
    expect(lines).toEqual(["vatstoreGet: 'k'"]);
  });
});

describe('crank headers', () => {
  const crank = [
    { type: 'create-vat', vatID: 'v9', name: 'zoe', dynamic: false, description: 'zoe', time: 1 },
    { type: 'crank-start', crankType: 'delivery', crankNum: 7, message: { type: 'send' }, time: 10 },
    { type: 'deliver', crankNum: 7, vatID: 'v9', kd: ['bringOutYourDead'], time: 10.0001 },
    { type: 'syscall', crankNum: 7, vatID: 'v9', ksc: ['vatstoreGet', 'v9', 'a'], time: 10.0002 },
    { type: 'syscall-result', crankNum: 7, vatID: 'v9', ksr: ['ok', null], time: 10.000312 },
    { type: 'deliver-result', crankNum: 7, vatID: 'v9', dr: ['ok', null, { compute: 12345 }], time: 10.0008 },
    { type: 'crank-finish', crankNum: 7, time: 10.000902 },
    { type: 'crank-start', crankType: 'routing', crankNum: 8, time: 11 },
    { type: 'crank-finish', crankNum: 8, time: 11.000118 },
  ];

  it('timing, computrons, vat from the delivery, routing time', () => {
    const text = renderEntries(crank, { timing: true, nonoise: false });
    expect(text).toContain('\n// crank 7: v9 zoe [total:902µs local:790µs 87.58% syscall:112µs 12.42%] 1 syscalls 12345 computrons\n');
    expect(text).toContain('\n// crank 8: routing 118µs\n');
  });

  it('annotation vat names win, crank labels follow ---', () => {
    const annotations = parseAnnotations({ vatNames: { v9: 'Zoe!' }, crankLabels: { 7: 'round 1' } }, 'a.json');
    const text = renderEntries(crank, {}, annotations);
    expect(text).toContain('create-vat: v9 Zoe! static "zoe"\n');
    expect(text).toContain('\n// crank 7: v9 Zoe! --- round 1\n');
  });

  it('an unfinished crank prints its lines under (unfinished), without label or timing', () => {
    const cut = crank.slice(0, 5);
    const annotations = parseAnnotations({ crankLabels: { 7: 'round 1' } }, 'a.json');
    const text = renderEntries(cut, { timing: true }, annotations);
    expect(text.split('\n')).toEqual([
      '// startup',
      'create-vat: v9 zoe static "zoe"',
      '',
      '// crank 7: v9 zoe (unfinished)',
      'crank-start: delivery crank 7',
      'bringOutYourDead',
      "vatstoreGet: 'a' : 'null' (112µs)",
      '',
      '// end of slog',
      '',
    ]);
    const routing = renderEntries(crank.slice(7, 8));
    expect(routing).toContain('\n// crank 8: routing (unfinished)\ncrank-start: routing crank 8\n');
  });

  it('--nonoise drops routing cranks entirely, --no-crankbreaks drops headers and frame', () => {
    expect(renderEntries(crank, { nonoise: true })).not.toContain('routing');
    const plain = renderEntries(crank, { crankbreaks: false });
    expect(plain).not.toContain('//');
    expect(plain.startsWith('create-vat:')).toBe(true);
  });
});

describe('kernel and chain entries', () => {
  it('startup pairs, vats, snapshots, termination, stats', () => {
    const lines = bodyLines([
      { type: 'kernel-init-start', time: 1 },
      { type: 'bundle-kernel-start', time: 1.5 },
      { type: 'bundle-kernel-finish', time: 1.75 },
      { type: 'import-kernel-start', time: 2 },
      { type: 'import-kernel-finish', time: 2.25 },
      { type: 'create-vat', vatID: 'v8', name: 'carol', dynamic: true, description: 'carol (from bundleID: b1-x)', time: 3 },
      { type: 'vat-startup-start', vatID: 'v8', time: 3 },
      { type: 'vat-startup-finish', vatID: 'v8', time: 3.002143 },
      { type: 'start-replay', vatID: 'v8', deliveries: 1, time: 3.1 },
      { type: 'finish-replay', vatID: 'v8', time: 3.100292 },
      { type: 'kernel-init-finish', time: 3.985756 },
      { type: 'heap-snapshot-save', vatID: 'v1', snapshotID: 'abc', endPosition: 4, time: 4 },
      { type: 'heap-snapshot-save', vatID: 'v1', snapshotID: 'def', endPosition: { itemCount: 9 }, time: 4 },
      { type: 'heap-snapshot-load', vatID: 'v1', hash: 'abc', snapPos: 4, time: 4 },
      { type: 'terminate', vatID: 'v8', shouldReject: true, info: sc({ '#error': 'x', name: 'Error' }), time: 5 },
      { type: 'terminate', vatID: 'v8', shouldReject: false, info: sc('ok'), time: 5 },
      { type: 'vat-cleanup', vatID: 'v8', work: { exports: 1, kv: 25 }, time: 5 },
      { type: 'vat-cleanup-complete', vatID: 'v8', time: 5 },
      { type: 'kernel-stats', stats: { syscalls: 10, kernelObjects: 3 }, time: 6 },
      { type: 'no-such-type', a: 1 },
    ]);
    expect(lines).toEqual([
      'bundle-kernel: 250000µs',
      'kernel-import: 250000µs',
      'create-vat: v8 carol dynamic "carol (from bundleID: b1-x)"',
      'vat-startup: v8 2143µs',
      'start-replay: v8 1',
      'finish-replay v8 292µs',
      'kernel-init: 2985756µs',
      'heap-snapshot-save v1 abc at 4',
      'heap-snapshot-save v1 def at 9',
      'heap-snapshot-load v1 abc at 4',
      'terminate!: {#error: "x", name: "Error"}',
      'terminate: "ok"',
      'vat-cleanup: v8 exports:1 kv:25',
      'vat-cleanup-complete: v8',
      'kernel-stats: syscalls:10, kernelObjects:3',
      '@ no-such-type: {"type":"no-such-type","a":1}',
    ]);
  });

  it('cosmic-swingset blocks', () => {
    const block = { blockHeight: 17, blockTime: 1700000000 };
    const lines = bodyLines([
      { type: 'cosmic-swingset-bootstrap-block-start', blockTime: 1, time: 0 },
      { type: 'cosmic-swingset-bootstrap-block-finish', blockTime: 1, time: 0.5 },
      { type: 'cosmic-swingset-begin-block', ...block, time: 10 },
      { type: 'cosmic-swingset-bridge-inbound', source: 'wallet', time: 10.1 },
      { type: 'cosmic-swingset-deliver-inbound', count: 2, sender: 'agoric1x', time: 10.1 },
      { type: 'cosmic-swingset-end-block-start', ...block, time: 10.25 },
      { type: 'cosmic-swingset-end-block-finish', ...block, time: 10.75 },
      { type: 'cosmic-swingset-commit-block-start', ...block, time: 11 },
      { type: 'cosmic-swingset-commit-block-finish', ...block, time: 11.125 },
      { type: 'cosmic-swingset-after-commit-stats', ...block, time: 11.2 },
      { type: 'cosmic-swingset-run-finish', usedBeans: 12, remainingBeans: 0, seconds: 0.001234, time: 11.3, monotime: 3 },
      { type: 'cosmic-swingset-end-block-finish', blockHeight: 18, blockTime: 1700000000, time: 12 },
      { type: 'cosmic-swingset-commit-block-finish', blockHeight: 17, blockTime: 5, time: 12 },
    ]);
    expect(lines).toEqual([
      'cosmic-swingset-bootstrap-block: 500000µs',
      'cosmic-swingset-begin-block: 17 1700000000',
      'cosmic-swingset-bridge-inbound: wallet',
      'cosmic-swingset-deliver-inbound: 2 agoric1x',
      'cosmic-swingset-end-block-start',
      'cosmic-swingset-end-block: 17 1700000000 250000µs+500000µs',
      'cosmic-swingset-commit-block-start',
      'cosmic-swingset-commit-block: 17 1700000000 1000000µs+125000µs',
      'cosmic-swingset-after-commit-stats',
      'cosmic-swingset-run-finish: usedBeans=12 remainingBeans=0 seconds=1234µs',
      "cosmic-swingset-end-block-finish height 18 doesn't match cosmic-swingset-begin-block height 17",
      "cosmic-swingset-commit-block-finish time 5 doesn't match cosmic-swingset-begin-block time 1700000000",
    ]);
  });
});

describe('clist and console', () => {
  const entries = v1([
    { type: 'clist', mode: 'import', vatID: 'v1', kobj: 'ko22', vobj: 'o-50' },
    { type: 'console', level: 'log', state: 'delivery', args: ['setup', 'done', { n: 1 }, 2] },
  ]);
  it('terse and slogger tags', () => {
    expect(bodyLines(entries).slice(1, 3)).toEqual(['import: v1:@o-50 :: @ko22', 'log: setup done {"n":1} 2']);
    expect(bodyLines(entries, { usesloggertags: true }).slice(1, 3)).toEqual([
      'clist import: v1:@o-50 :: @ko22',
      'console log (delivery): setup done {"n":1} 2',
    ]);
  });
  it('clist names both sides from the annotations; --no-clist and --nonoise drop them', () => {
    const annotations = parseAnnotations({ kernelRefs: { ko22: 'bob' }, vatRefs: { v1: { 'o-50': 'bobRef' } } }, 'a.json');
    expect(bodyLines(entries, {}, annotations)[1]).toBe('import: v1:<bobRef> :: <bob>');
    expect(bodyLines(entries, { clist: false })[1]).toBe('log: setup done {"n":1} 2');
    expect(bodyLines(entries, { nonoise: true })[0]).toBe('log: setup done {"n":1} 2');
  });
});

describe('a slog that starts inside a crank', () => {
  it('renders the crank tail with the usual lines', () => {
    const lines = bodyLines([
      { type: 'syscall', crankNum: 4, vatID: 'v1', ksc: ['send', 'ko1', { methargs: sc(['ping', []]), result: 'kp9' }], time: 1 },
      { type: 'syscall-result', crankNum: 4, vatID: 'v1', ksr: ['ok', null], time: 1.00002 },
      { type: 'syscall', crankNum: 4, vatID: 'v1', ksc: ['subscribe', 'v1', 'kp9'], time: 1.1 },
      { type: 'clist', crankNum: 4, mode: 'drop', vatID: 'v1', kobj: 'kp8', vobj: 'p-60' },
      { type: 'crank-start', crankType: 'routing', crankNum: 5, time: 2 },
      { type: 'crank-finish', crankNum: 5, time: 2.0001 },
    ]);
    // The crank's entries form a crank (SLOG-FORMAT.md, "Starting in the middle"); as in any crank,
    // a syscall whose result never came stands at its end.
    expect(lines).toEqual([
      'send: @ko1 <- ping(): @kp9',
      'drop: v1:@p-60 :: @kp8',
      'subscribe: @kp9',
      'crank-start: routing crank 5',
      'crank-finish: 100µs crank 5',
    ]);
  });
});
