/**
 * Slog lines from the entry grammar (../shared/SLOG-FORMAT.md), as
 * fast-check arbitraries: every crank entry type the byte reader takes
 * (crank-start, crank-finish, syscall, syscall-result, deliver,
 * deliver-result, clist) with the fields and value shapes the kernel writes
 * (capdata bodies in smallcaps and in the legacy encoding, 2021 messages,
 * transcript replays), the entries around them (create-vat with its bundle,
 * console, replays, snapshots), chain entries (cosmic-swingset-*), and the
 * contextual envelope. Each line is written in the slogger's key order or
 * in another (keys moved, dropped, added, given twice), with exotic numbers
 * and escapes where a reader could stumble.
 */
import fc from 'fast-check';
import { jsonText, Raw, Rec, rec, type TextStyle, type Value } from './json-text.js';

// ---- small values

/** Numbers as other writers spell them, and numbers at the edges of a double. */
export const EXOTIC_NUMBERS = [
  '1e400', '-1e400', '-0', '-0.0', '0e0', '1E+2', '1e-2', '2.5E-3', '1.0', '100.000', '9007199254740993', '18446744073709551616',
  '123456789012345678901234567890', '5e-324', '1e-400', '1.7976931348623157e308', '0.1', '0.30000000000000004',
  '1795308269.3968010000000000000000001', '1795308269396801e-6', '-1795308269.396801',
  // Not JSON: leading zeros, a bare dot, a plus sign, a hex number, NaN.
  '007', '00', '-01', '1.', '.5', '+1', '0x10', 'NaN', 'Infinity', '1e', '--1', '1.2.3',
];

const exotic = fc.constantFrom(...EXOTIC_NUMBERS).map((t) => new Raw(t));

/** A count the kernel writes (crankNum, deliveryNum): mostly small, sometimes big, odd or not a number. */
export const count: fc.Arbitrary<Value> = fc.oneof(
  { weight: 80, arbitrary: fc.nat(3000) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e15, 999999999999999, 1e21) },
  { weight: 2, arbitrary: exotic },
  { weight: 1, arbitrary: fc.constantFrom<Value>('7', null, true, -1, 1.5, [7]) },
);

/** A wall-clock time in seconds, as the kernel writes it (a float with microseconds), or odd. */
export const seconds: fc.Arbitrary<Value> = fc.oneof(
  { weight: 60, arbitrary: fc.integer({ min: 1_600_000_000_000_000, max: 1_800_000_000_000_000 }).map((us) => us / 1e6) },
  { weight: 3, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: exotic },
  { weight: 1, arbitrary: fc.constantFrom<Value>('1795308269.3', null, 0, -0) },
);

/** A duration in seconds (monotime, a -finish's seconds). */
const duration: fc.Arbitrary<Value> = fc.oneof(
  { weight: 60, arbitrary: fc.integer({ min: 0, max: 100_000_000_000 }).map((ns) => ns / 1e9) },
  { weight: 3, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) },
  { weight: 2, arbitrary: exotic },
  { weight: 1, arbitrary: fc.constantFrom<Value>(null, '0.5', -0) },
);

/** Text with what JSON and UTF-8 make hard: escapes, quotes, controls, non-ASCII, surrogate pairs and lone surrogates. */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '\ud83d', '\ude00', '😀', 'é', '\u0000', '\u2028', '\ufeff', '"', '\\', '\n', '\r', '/'), maxLength: 8 }) },
);

const word = (...words: string[]): fc.Arbitrary<string> => fc.oneof({ weight: 40, arbitrary: fc.constantFrom(...words) }, { weight: 1, arbitrary: oddText });

export const vatID = word('v1', 'v2', 'v5', 'v6', 'v7', 'v9', 'v46');
const kref = word('ko20', 'ko22', 'ko31', 'kp40', 'kp46', 'kd30');
const kpid = word('kp40', 'kp41', 'kp46', 'kp1827');
const vref = word('o+0', 'o+5', 'o-50', 'o-51', 'p+5', 'p-60', 'd-70', 'o+d17/1');
const ref = fc.oneof(kref, vref);
const hash = fc.oneof(
  { weight: 30, arbitrary: fc.stringMatching(/^[0-9a-f]{64}$/) },
  { weight: 1, arbitrary: oddText },
);

// ---- capdata

/** A passable as smallcaps encodes it: strings tagged by their first character. */
const smallcapsValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('x0', 'hello', '', '!escaped', '!%not a symbol', '%asyncIterator', '#undefined', '#NaN', '#Infinity', '#-Infinity', '+12', '-45', '+123456789012345678901234567890'),
    fc.nat(4).map((i) => `$${i}.Alleged: root`),
    fc.nat(4).map((i) => `&${i}`),
    fc.nat(4).map((i) => `$${i}`),
    oddText,
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom('alice', 'bob', 'timer', 'argv'), oddText), tie('v'), { maxKeys: 4 }),
    fc.record({ '#error': fc.constantFrom('boom', ''), name: fc.constantFrom('Error', 'TypeError') }),
  ),
})).v;

/** A passable as the legacy encoding has it: `@qclass` records. */
const legacyValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.constantFrom(
      { '@qclass': 'undefined' },
      { '@qclass': 'NaN' },
      { '@qclass': 'Infinity' },
      { '@qclass': 'bigint', digits: '123' },
      { '@qclass': 'symbol', name: 'asyncIterator' },
      { '@qclass': 'error', name: 'Error', message: 'boom' },
      { '@qclass': 'slot', iface: 'Alleged: root', index: 0 },
      { '@qclass': 'slot', index: 1 },
      { '@qclass': 'mystery' },
    ),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('alice', 'bob', 'n'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** A value nested thousands deep (arrays, or records), as JSON text. */
export const deepText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(60, 2000, 30000), fc.boolean())
  .map(([d, record]) => (record ? `${'{"a":'.repeat(d)}1${'}'.repeat(d)}` : `${'['.repeat(d)}1${']'.repeat(d)}`));

/** A capdata body's text: smallcaps (`#` and JSON), legacy JSON, nested deep, or damaged. */
function bodyText(value: fc.Arbitrary<unknown>, legacy: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: deepText.map((t) => `#${t}`) },
    { weight: 6, arbitrary: value.map((v) => `#${JSON.stringify(v)}`) },
    { weight: 3, arbitrary: legacy.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.tuple(value, fc.nat()).map(([v, n]) => { const t = `#${JSON.stringify(v)}`; return t.slice(0, n % (t.length + 1)); }) },
    { weight: 1, arbitrary: oddText },
  );
}

const slots = fc.array(ref, { maxLength: 4 });
export const capdata: fc.Arbitrary<Value> = fc.tuple(bodyText(smallcapsValue, legacyValue), slots).map(([body, s]) => rec({ body, slots: s }));

/** A method as a methargs body names it. */
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('openAccount', 'deposit', 'bootstrap', 'getBalance', 'x'.repeat(389), 'y'.repeat(391), 'z'.repeat(700)) },
  { weight: 2, arbitrary: fc.constantFrom('%asyncIterator', '!%escaped', '#undefined', 'with"quote', 'back\\slash', 'café', 'tab\there', '😀') },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 7, ['a']) },
  { weight: 1, arbitrary: oddText },
);

/** A methargs body: `#["method",[args]]` (or legacy, or damaged). */
const methargsBody = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(method, fc.array(smallcapsValue, { maxLength: 3 })).map(([m, a]) => `#${JSON.stringify([m, a])}`) },
  { weight: 1, arbitrary: fc.tuple(method, deepText).map(([m, t]) => `#[${JSON.stringify(m)},[${t}]]`) },
  { weight: 2, arbitrary: fc.tuple(method, fc.array(legacyValue, { maxLength: 3 })).map(([m, a]) => JSON.stringify([typeof m === 'string' && m.startsWith('%') ? { '@qclass': 'symbol', name: m.slice(1) } : m, a])) },
  { weight: 1, arbitrary: bodyText(smallcapsValue, legacyValue) },
);

const methargs = fc.tuple(methargsBody, slots).map(([body, s]) => rec({ body, slots: s }));
const result = fc.oneof({ weight: 5, arbitrary: kpid }, { weight: 1, arbitrary: fc.constant<Value>(null) });

/** A message: today's `{methargs, result}`, or 2021's `{method, args, result}`. */
const message = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(methargs, result).map(([m, r]) => rec({ methargs: m, result: r })) },
  {
    weight: 1,
    arbitrary: fc.tuple(method, capdata, result, fc.boolean()).map(([m, a, r, symbol]) =>
      rec({ method: symbol ? rec({ '@qclass': 'symbol', name: 'asyncIterator' }) : (m as Value), args: a, result: r }),
    ),
  },
);

/** `[[kpid, rejected, capdata], ...]`. */
const resolutions: fc.Arbitrary<Value> = fc.array(fc.tuple(kpid, fc.boolean(), capdata).map((r) => [...r]), { minLength: 1, maxLength: 3 });

/** A delivery's kd or vd. */
const delivery: fc.Arbitrary<Value> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(ref, message).map(([t, m]) => ['message', t, m]) },
  { weight: 3, arbitrary: resolutions.map((r) => ['notify', r]) },
  // An older kernel's notify: `[kpid, {state, data}]`.
  { weight: 1, arbitrary: fc.array(fc.tuple(kpid, fc.constantFrom('fulfilled', 'rejected'), capdata).map(([k, state, data]) => [k, rec({ state, data })]), { minLength: 1, maxLength: 2 }).map((r) => ['notify', r]) },
  { weight: 1, arbitrary: capdata.map((c) => ['startVat', c]) },
  { weight: 1, arbitrary: fc.constantFrom('dropExports', 'retireExports', 'retireImports').chain((k) => fc.array(kref, { maxLength: 3 }).map((r) => [k, r])) },
  { weight: 1, arbitrary: fc.constant<Value>(['bringOutYourDead']) },
  { weight: 1, arbitrary: capdata.map((c) => ['stopVat', c]) },
  { weight: 1, arbitrary: fc.constant<Value>(['changeVatOptions', rec({ reapInterval: 5 })]) },
);

/** Syscall names, and the arguments each takes after the name (kernel space: with the vat; vat space: without). */
const SYSCALL_NAMES = ['send', 'resolve', 'invoke', 'callNow', 'subscribe', 'vatstoreGet', 'vatstoreGetNextKey', 'vatstoreSet', 'vatstoreDelete', 'vatstoreGetAfter', 'dropImports', 'retireImports', 'retireExports', 'abandonExports', 'exit'] as const;

function syscallArgs(name: string, kernel: boolean): fc.Arbitrary<Value[]> {
  const vat: Value[] = kernel ? ['v1'] : [];
  switch (name) {
    case 'send':
      return fc.tuple(ref, message).map(([t, m]) => [t, m]);
    case 'resolve':
      return resolutions.map((r) => [...vat, r]);
    case 'invoke':
    case 'callNow':
      return fc.tuple(fc.constantFrom('kd30', 'd-70'), fc.constantFrom('getLastPolled', 'x'), capdata).map((a) => a);
    case 'subscribe':
      return kpid.map((k) => [...vat, k]);
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreDelete':
      return oddText.map((k) => [...vat, k]);
    case 'vatstoreSet':
      return fc.tuple(oddText, oddText).map(([k, v]) => [...vat, k, v]);
    case 'vatstoreGetAfter':
      return fc.tuple(oddText, oddText).map(([a, b]) => [...vat, '', a, b]);
    case 'exit':
      return fc.tuple(fc.boolean(), capdata).map(([f, c]) => [...vat, f, c]);
    default:
      return fc.array(kref, { maxLength: 3 }).map((r) => [...vat, r]);
  }
}

// ---- crank entries, in the slogger's key order

export type Members = Array<[string, Value]>;

const tail = (withSeconds: boolean): fc.Arbitrary<Members> =>
  fc.tuple(seconds, duration, duration).map(([t, m, s]) => (withSeconds ? [['time', t], ['monotime', m], ['seconds', s]] : [['time', t], ['monotime', m]]));

const entry = (type: string, head: fc.Arbitrary<Members>, withSeconds: boolean): fc.Arbitrary<Members> =>
  fc.tuple(head, tail(withSeconds)).map(([h, t]) => [['type', type], ...h, ...t]);

const crankMessage: fc.Arbitrary<Value> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(kref, fc.oneof(message)).map(([t, m]) => rec({ type: 'send', target: t, msg: m })) },
  { weight: 3, arbitrary: fc.tuple(vatID, kpid).map(([v, k]) => rec({ type: 'notify', vatID: v, kpid: k })) },
  { weight: 1, arbitrary: fc.tuple(vatID, capdata).map(([v, c]) => rec({ type: 'startVat', vatID: v, vatParameters: c })) },
  { weight: 1, arbitrary: vatID.map((v) => rec({ type: 'create-vat', vatID: v, source: rec({ bundleID: 'b1-abc' }), dynamicOptions: rec({ name: 'carol' }) })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('bringOutYourDead', 'dropExports', 'changeVatOptions'), vatID).map(([t, v]) => rec({ type: t, vatID: v })) },
  // A vatID further on, or only as a value.
  { weight: 1, arbitrary: fc.tuple(vatID, oddText).map(([v, x]) => rec({ type: 'send', target: 'ko1', x, vatID: v })) },
  { weight: 1, arbitrary: fc.constant(rec({ type: 'send', target: 'ko1', x: 'vatID' })) },
);

const crankStart = entry(
  'crank-start',
  fc.tuple(fc.constantFrom('routing', 'delivery'), count, crankMessage).map(([t, n, m]) => [
    ['crankType', t],
    ['crankNum', n],
    ['messageType', (m as Rec).members.find(([k]) => k === 'type')?.[1] ?? 'send'],
    ['message', m],
  ]),
  false,
);

const crankFinish = entry(
  'crank-finish',
  fc.tuple(fc.constantFrom('routing', 'delivery'), fc.constantFrom('send', 'notify', 'startVat'), count, hash, hash).map(([t, m, n, c, a]) => [
    ['crankType', t],
    ['messageType', m],
    ['crankNum', n],
    ['crankhash', c],
    ['activityhash', a],
  ]),
  true,
);

/** A crank entry's first keys: crankNum, vatID, deliveryNum (and syscallNum), replay; a replay's lack crankNum. */
const crankHead = (withSyscallNum: boolean, replay: boolean): fc.Arbitrary<Members> =>
  fc.tuple(count, vatID, count, count).map(([c, v, d, s]) => [
    ...(replay ? [] : ([['crankNum', c]] as Members)),
    ['vatID', v],
    ['deliveryNum', d],
    ...(withSyscallNum ? ([['syscallNum', s]] as Members) : []),
    ['replay', replay],
  ]);

const syscallName = fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...SYSCALL_NAMES) }, { weight: 1, arbitrary: oddText });

const syscall = fc.tuple(syscallName, fc.boolean(), fc.nat(9)).chain(([name, replay, older]) =>
  entry(
    'syscall',
    fc.tuple(crankHead(true, replay), syscallArgs(name, true), syscallArgs(name, false)).map(([head, k, v]) => [
      ...head,
      // Before 2023 no `syscall` key; `callNow` is an older kernel's `invoke`, its `syscall` key the vat's.
      ...(older === 0 ? [] : ([['syscall', name === 'callNow' ? 'invoke' : name]] as Members)),
      ...(replay ? [] : ([['ksc', [name, ...k]]] as Members)),
      ['vsc', [name, ...v]],
    ]),
    false,
  ),
);

const resultValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Value>(['ok', null]) },
  { weight: 2, arbitrary: oddText.map((s) => ['ok', s]) },
  { weight: 1, arbitrary: capdata.map((c) => ['ok', c]) },
  { weight: 1, arbitrary: oddText.map((s) => ['error', s]) },
  { weight: 1, arbitrary: fc.constantFrom<Value>([], [null], [7, 'x'], 'ok') },
);

const syscallResult = fc.tuple(syscallName, fc.boolean(), resultValue).chain(([name, replay, r]) =>
  entry(
    'syscall-result',
    crankHead(true, replay).map((head) => [...head, ['syscall', name], ...(replay ? [] : ([['ksr', r]] as Members)), ['vsr', r]]),
    true,
  ),
);

const deliver = fc.tuple(delivery, fc.boolean(), fc.nat(9)).chain(([kd, replay, older]) =>
  entry(
    'deliver',
    crankHead(false, replay).map((head) => [
      ...head,
      ...(older === 0 ? [] : ([['dispatch', Array.isArray(kd) ? (kd as Value[])[0] as Value : 'message']] as Members)),
      ...(replay ? [] : ([['kd', kd]] as Members)),
      ['vd', kd],
    ]),
    false,
  ),
);

const usage: fc.Arbitrary<Value> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Value>(null) },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.oneof(fc.nat(), exotic, fc.constantFrom<Value>(null, '5', 1e300)), fc.array(seconds, { maxLength: 6 }), fc.boolean()).map(([c, ts, twice]) =>
      new Rec([
        ['meterType', 'xs-meter-36'],
        ['currentHeapCount', 152142],
        ['compute', c],
        ...(twice ? ([['compute', 42]] as Members) : []),
        ['allocate', 42074144],
        ['timestamps', ts],
      ]),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<Value>(rec({}), [], 7, rec({ compute: rec({}) })) },
);

const dr: fc.Arbitrary<Value> = fc.oneof(
  { weight: 5, arbitrary: usage.map((u) => ['ok', null, u]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('error', 'terminate', 'fatal'), fc.oneof(oddText, capdata), usage).map(([s, p, u]) => [s, p as Value, u]) },
  { weight: 1, arbitrary: fc.constantFrom<Value>([], ['ok'], ['ok', null], [7, null, null], 'ok') },
);

const deliverResult = fc.tuple(fc.boolean(), dr).chain(([replay, d]) =>
  entry(
    'deliver-result',
    crankHead(false, replay).map((head) => [...head, ['dispatch', 'message'], ['dr', d]]),
    true,
  ),
);

const clist = entry(
  'clist',
  fc.tuple(count, fc.constantFrom('import', 'export', 'drop'), vatID, kref, vref).map(([n, m, v, k, o]) => [
    ['crankNum', n],
    ['mode', m],
    ['vatID', v],
    ['kobj', k],
    ['vobj', o],
  ]),
  false,
);

/** The seven crank types the byte reader takes. */
export const crankEntry: fc.Arbitrary<Members> = fc.oneof(crankStart, crankFinish, syscall, syscallResult, deliver, deliverResult, clist);

// ---- the entries around cranks, and the chain's

const createVat = fc.tuple(vatID, fc.nat(3000), fc.boolean()).chain(([v, size, bare]) =>
  bare
    ? fc.constant<Members>([['type', 'create-vat'], ['vatID', v]])
    : entry(
        'create-vat',
        fc.constant<Members>([
          ['vatID', v],
          ['dynamic', false],
          ['description', `${String(v)} (from bundleID: b1-4cb0)`],
          ['name', 'alice'],
          ['managerType', 'xsnap'],
          ['vatSourceBundle', rec({ moduleFormat: 'endoZipBase64', endoZipBase64Sha512: '4cb0', endoZipBase64: 'UEsDBA'.repeat(size) })],
        ]),
        false,
      ),
);

const consoleEntry = entry(
  'console',
  fc.tuple(count, vatID, fc.constantFrom('vat', 'kernel'), fc.array(fc.oneof(oddText, fc.integer(), fc.constant<Value>(rec({ n: 1 })), deepText.map((t) => new Raw(t))), { maxLength: 3 })).map(([n, v, s, args]) => [
    ['crankNum', n],
    ['vatID', v],
    ['source', s],
    ['state', 'delivery'],
    ['level', 'log'],
    ['args', args as Value],
  ]),
  false,
);

const vatEvents: fc.Arbitrary<Members> = fc.oneof(
  entry('start-replay', fc.tuple(vatID, count).map(([v, n]) => [['vatID', v], ['deliveries', n]]), false),
  entry('finish-replay', vatID.map((v) => [['vatID', v]]), true),
  entry('vat-startup-start', vatID.map((v) => [['vatID', v]]), false),
  entry('vat-startup-finish', vatID.map((v) => [['vatID', v]]), true),
  entry('heap-snapshot-save', fc.tuple(vatID, hash, count).map(([v, h, n]) => [['vatID', v], ['snapshotID', h], ['endPosition', n], ['restartWorker', false]]), false),
  entry('heap-snapshot-load', fc.tuple(vatID, hash, count).map(([v, h, n]) => [['vatID', v], ['hash', h], ['snapPos', n]]), false),
  entry('terminate', fc.tuple(vatID, fc.boolean(), capdata).map(([v, r, c]) => [['vatID', v], ['shouldReject', r], ['info', c]]), false),
  entry('kernel-init-start', fc.constant([]), false),
  entry('kernel-init-finish', fc.constant([]), true),
  entry('kernel-stats', fc.dictionary(fc.constantFrom('syscalls', 'cranks', 'kernelObjects'), fc.oneof(fc.nat(), exotic)).map((d) => [['stats', new Rec(Object.entries(d))]]), false),
  entry('vat-cleanup', fc.tuple(vatID, fc.nat(9)).map(([v, n]) => [['vatID', v], ['counts', rec({ exports: n, kv: 25 })]]), false),
  entry('some-future-entry', fc.dictionary(oddText, fc.oneof(oddText, fc.integer())).map((d) => Object.entries(d)), false),
);

const height: fc.Arbitrary<Value> = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 20_000_000 }) }, { weight: 1, arbitrary: exotic }, { weight: 1, arbitrary: fc.constantFrom<Value>('85', null) });
const beans: fc.Arbitrary<Value> = fc.oneof(fc.nat(), fc.constantFrom<Value>(1e20, 123456789012345680000, '5'), exotic);

const chainEntry: fc.Arbitrary<Members> = fc.oneof(
  entry('cosmic-swingset-begin-block', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t], ['interBlockSeconds', 6], ['inboundQueueStats', rec({ queued: 0 })]]), false),
  entry('cosmic-swingset-end-block-start', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t]]), false),
  entry('cosmic-swingset-end-block-finish', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t], ['processedActionCounts', [rec({ count: 1, phase: 'inbound', type: 'x' })]]]), true),
  entry('cosmic-swingset-commit-block-start', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t]]), false),
  entry('cosmic-swingset-commit-block-finish', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t]]), true),
  entry('cosmic-swingset-run-start', fc.tuple(height, fc.nat(9), fc.constantFrom('leftover', 'forced', 'priority', 'timer', 'inbound', 'cleanup', 'odd'), beans, beans).map(([h, n, p, s, r]) => [['blockHeight', h], ['runNum', n], ['phase', p], ['startBeans', s], ['remainingBeans', r]]), false),
  entry('cosmic-swingset-run-finish', fc.tuple(height, fc.nat(9), beans, beans, beans).map(([h, n, s, f, u]) => [['blockHeight', h], ['runNum', n], ['phase', 'inbound'], ['startBeans', s], ['finishBeans', f], ['usedBeans', u], ['remainingBeans', 0]]), true),
  entry('cosmic-swingset-bridge-inbound', fc.tuple(fc.nat(99), oddText).map(([n, s]) => [['inboundNum', `${n}-x`], ['source', s], ['body', rec({ type: 'WALLET_SPEND_ACTION' })]]), false),
  entry('cosmic-swingset-deliver-inbound', fc.tuple(fc.nat(9), oddText).map(([n, s]) => [['inboundNum', n], ['sender', s], ['count', n], ['messages', []], ['ack', 0]]), false),
  entry('cosmic-swingset-timer-poll', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t], ['added', 0]]), false),
  entry('cosmic-swingset-after-commit-stats', fc.tuple(height, seconds).map(([h, t]) => [['blockHeight', h], ['blockTime', t], ['memoryUsage', rec({ rss: 1e9 })], ['statsTime', 0.01]]), false),
  entry('cosmic-swingset-bootstrap-block-start', seconds.map((t) => [['blockTime', t]]), false),
  entry('cosmic-swingset-bootstrap-block-finish', seconds.map((t) => [['blockTime', t]]), true),
);

/** Every kind of entry, crank entries most often (as in a slog). */
export const anyEntry: fc.Arbitrary<Members> = fc.oneof(
  { weight: 12, arbitrary: crankEntry },
  { weight: 1, arbitrary: createVat },
  { weight: 1, arbitrary: consoleEntry },
  { weight: 2, arbitrary: vatEvents },
  { weight: 2, arbitrary: chainEntry },
);

// ---- key orders, envelopes, styles

/**
 * How an entry's keys are laid out: as the slogger writes them, or moved
 * (one key elsewhere, all shuffled, the type not first), one dropped, one
 * added, one given twice (same or another value, next to it or last).
 */
export type Layout =
  | { kind: 'slogger' }
  | { kind: 'move'; from: number; to: number }
  | { kind: 'shuffle'; order: number[] }
  | { kind: 'drop'; at: number }
  | { kind: 'add'; at: number; key: string; value: Value }
  | { kind: 'twice'; at: number; value: Value | undefined; last: boolean };

export const layout: fc.Arbitrary<Layout> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Layout>({ kind: 'slogger' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), from: fc.nat(), to: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('shuffle' as const), order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom('extra', 'vatID', 'crankNum', 'type', 'time', 'seconds', 'syscall', 'ksc', 'dispatch', 'body', '__proto__'), oddText),
      value: fc.oneof(fc.constantFrom<Value>('v9', 8, 'deliver', null, rec({ x: 1 }), ['message', 'ko1']), oddText),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('twice' as const), at: fc.nat(), value: fc.option(fc.constantFrom<Value>(8, 'v9', 'x', rec({}), [], false, 'syscall'), { nil: undefined }), last: fc.boolean() }) },
);

export function laidOut(members: Members, l: Layout): Members {
  const out = [...members];
  const n = out.length;
  switch (l.kind) {
    case 'slogger':
      return out;
    case 'move': {
      const [m] = out.splice(l.from % n, 1);
      out.splice(l.to % n, 0, m as [string, Value]);
      return out;
    }
    case 'shuffle':
      return out.map((m, i) => ({ m, k: l.order[i % l.order.length] as number })).sort((a, b) => a.k - b.k).map((x) => x.m);
    case 'drop':
      out.splice(l.at % n, 1);
      return out;
    case 'add':
      out.splice(l.at % (n + 1), 0, [l.key, l.value]);
      return out;
    case 'twice': {
      const m = out[l.at % n] as [string, Value];
      const copy: [string, Value] = [m[0], l.value === undefined ? m[1] : l.value];
      if (l.last) out.push(copy);
      else out.splice((l.at % n) + 1, 0, copy);
      return out;
    }
  }
}

/** The contextual form of an entry (CONTEXTUAL_SLOGFILE): its body, the crank in the attributes, the time outside. */
export const contextual = (members: Members): fc.Arbitrary<Value> =>
  fc.tuple(count, vatID, count, fc.boolean(), fc.boolean()).map(([n, v, d, replay, keepCrank]) => {
    const body = members.filter(([k]) => k !== 'time' && k !== 'monotime' && (keepCrank || !['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay'].includes(k)));
    const time = members.find(([k]) => k === 'time')?.[1] ?? 1795403906.613857;
    return rec({
      body: new Rec(body),
      attributes: rec({ 'chain-id': 'agoriclocal', 'crank.num': n, 'crank.vatID': v, 'crank.deliveryNum': d, replay, 'block.height': 85, 'run.num': 1 }),
      time,
    });
  });

export const textStyle: fc.Arbitrary<TextStyle> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<TextStyle>({ space: '', strings: 'plain' }) },
  { weight: 1, arbitrary: fc.record({ space: fc.constantFrom('', ' ', '\t', '\r', '  '), strings: fc.constantFrom('plain', 'escape-non-ascii', 'escape-keys', 'escape-slash') }) },
);

/** One line of a slog from the grammar: an entry, laid out, maybe in its contextual envelope, written in a style. */
export const grammarLine: fc.Arbitrary<string> = fc
  .tuple(anyEntry, layout, textStyle, fc.nat(19))
  .chain(([members, l, style, envelope]) => {
    const laid = laidOut(members, l);
    if (envelope === 0) return contextual(laid).map((v) => jsonText(v, style));
    return fc.constant(jsonText(new Rec(laid), style));
  });
