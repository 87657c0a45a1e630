/**
 * The lines the render reads without parsing them whole (render-lines.ts,
 * lite-entries.ts) render exactly as the JSON.parse'd lines do.
 *
 * In process, so that it can be checked on every option set: each shared
 * slog rendered with the lite reader and with parseLine must give the same
 * text and the same bad-line reports. Then real cranks, changed in ways the
 * slogger never writes (keys in another order, spaces, escapes, numbers
 * spelled otherwise, repeated keys, non-ASCII text, control characters), and
 * every line cut short at every place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LineParser } from '../src/input/entries.js';
import { decoded, jsonNumber, tailStart, tailTime } from '../src/input/line-scan.js';
import { parseLine } from '../src/input/parse.js';
import { renderLineParser } from '../src/input/render-lines.js';
import { CrankAssembler } from '../src/model/assembler.js';
import { emptyAnnotations, loadAnnotations, type Annotations } from '../src/model/annotations.js';
import type { SyscallEntry } from '../src/model/types.js';
import { fixed0, fixed2 } from '../src/render/format.js';
import { defaultRenderOptions, type RenderOptions } from '../src/render/options.js';
import { TextRenderer } from '../src/render/text-renderer.js';
import { FIXTURES, SLOG_NAMES, slogPath } from './helpers.js';

/** Renders lines as runSlog does, with the lite reader or with parseLine. */
function render(lines: readonly string[], options: RenderOptions, lite: boolean, annotations: Annotations = emptyAnnotations()): string {
  let text = '';
  const renderer = new TextRenderer({ options, annotations, out: (t) => (text += t) });
  const assembler = new CrankAssembler(renderer);
  const parse: LineParser = lite ? renderLineParser(options, assembler) : parseLine;
  renderer.begin();
  lines.forEach((line, i) => {
    const parsed = parse(line, i === lines.length - 1);
    if (parsed === undefined) return;
    if (typeof parsed === 'string') {
      text += `BAD LINE ${i + 1}: ${parsed}\n`;
      return;
    }
    renderer.observe(parsed);
    assembler.push(parsed, i + 1);
  });
  assembler.end();
  renderer.end();
  return text;
}

const OPTION_SETS: Array<[string, Partial<RenderOptions>]> = [
  ['default', {}],
  ['nonoise', { nonoise: true }],
  ['novatstore', { novatstore: true }],
  ['timing', { timing: true }],
  ['nonoise novatstore', { nonoise: true, novatstore: true }],
  ['nonoise novatstore timing', { nonoise: true, novatstore: true, timing: true }],
  ['vatspace', { vatspace: true }],
  ['vatspace nonoise novatstore timing', { vatspace: true, nonoise: true, novatstore: true, timing: true }],
  ['no-clist no-crankbreaks', { clist: false, crankbreaks: false }],
  ['usesloggertags bigwidth 40', { usesloggertags: true, bigWidth: 40 }],
  ['summarize', { summarize: true }],
  ['no-times timing', { noTimes: true, timing: true }],
  ['no-times nonoise', { noTimes: true, nonoise: true }],
];

const optionsOf = (overrides: Partial<RenderOptions>): RenderOptions => ({ ...defaultRenderOptions(), ...overrides });
const slogLines = (slog: string): string[] => readFileSync(slogPath(slog), 'utf8').split('\n').slice(0, -1);

describe('every shared slog renders the same read lite or parsed', () => {
  const annotations = loadAnnotations(join(FIXTURES, 'annotations', 'a-local-3.annot.json'));
  it.each(SLOG_NAMES)('%s', (slog) => {
    const lines = slogLines(slog);
    for (const [name, overrides] of OPTION_SETS) {
      const options = optionsOf(overrides);
      const plain = render(lines, options, false);
      expect(render(lines, options, true) === plain, name).toBe(true);
    }
    const options = optionsOf({ nonoise: true, novatstore: true, timing: true });
    expect(render(lines, options, true, annotations)).toBe(render(lines, options, false, annotations));
  });

  it('reads nearly every line lite (else this test would test little)', () => {
    const options = optionsOf({});
    let lite = 0;
    let total = 0;
    for (const slog of SLOG_NAMES) {
      const assembler = new CrankAssembler({ entry: () => undefined, crank: () => undefined });
      const parse = renderLineParser(options, assembler);
      for (const line of slogLines(slog)) {
        const entry = parse(line, false);
        if (entry === undefined || typeof entry === 'string') continue;
        total += 1;
        // A lite entry leaves out what the render does not read: monotime, at least.
        if (!('monotime' in entry)) lite += 1;
        assembler.push(entry, total);
      }
    }
    expect(lite / total).toBeGreaterThan(0.95);
  });
});

/** The crank holding line `at`: from its crank-start to its crank-finish. */
function crankAround(lines: readonly string[], at: number): string[] {
  let start = at;
  while (start > 0 && !(lines[start] as string).startsWith('{"type":"crank-start"')) start -= 1;
  let end = at;
  while (end < lines.length - 1 && !(lines[end] as string).startsWith('{"type":"crank-finish"')) end += 1;
  return lines.slice(start, end + 1);
}

/**
 * Real cranks with every kind of line the lite reader reads: the first 300
 * lines after startup of each shared slog, and a crank with a
 * bringOutYourDead delivery from each.
 */
function sampleCranks(): string[] {
  const sample: string[] = [];
  for (const slog of SLOG_NAMES) {
    const lines = slogLines(slog);
    const first = lines.findIndex((l) => l.startsWith('{"type":"crank-start"'));
    sample.push(...lines.slice(first, first + 300));
    sample.push(...crankAround(lines, lines.findIndex((l) => l.includes('"kd":["bringOutYourDead"]'))));
  }
  return sample;
}

/**
 * A syscall's ksc is not read with --vatspace, nor its vsc without: damage
 * there may go unreported (the line is rendered where the plain path
 * reports it). The line's start and usual shapes are checked by JSON's
 * grammar; what is skipped after a value JSON.parse'd from its slice is not.
 */
const kscUnread = (options: RenderOptions): boolean => options.vatspace;
const vscUnread = (options: RenderOptions): boolean => !options.vatspace;

/**
 * Ways to write the same lines (or nearly) that the slogger does not, and
 * (third) the options under which what a change damages is not read.
 */
const CHANGES: Array<[string, (line: string) => string, ((options: RenderOptions) => boolean)?]> = [
  [
    'keys in reverse order',
    (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(Object.entries(entry).reverse()));
    },
  ],
  [
    'time first',
    (line) => {
      const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ time, ...rest });
    },
  ],
  ['spaces after commas and colons', (line) => line.replaceAll(',"', ', "').replaceAll('":', '": ')],
  ['a space before the end', (line) => `${line.slice(0, -1)} }`],
  ['a space at the start', (line) => ` ${line}`],
  ['escaped vat IDs', (line) => line.replaceAll('"v', '"\\u0076')],
  ['escaped type names', (line) => line.replace(/^\{"type":"(.)/, (_m, c: string) => `{"type":"\\u00${c.charCodeAt(0).toString(16)}`)],
  ['escaped keys', (line) => line.replace('"ksc"', '"k\\u0073c"').replace('"vatID"', '"vat\\u0049D"').replace('"time"', '"tim\\u0065"')],
  ['escaped syscall names', (line) => line.replaceAll('"vatstore', '"vatstor\\u0065').replaceAll('"send"', '"s\\u0065nd"')],
  ['escaped ok', (line) => line.replaceAll('"ok"', '"o\\u006b"')],
  ['quotes in bodies as \\u0022', (line) => line.replaceAll('\\"', '\\u0022')],
  ['escapes in vatstore strings', (line) => line.replace(/"(vatstore(?:Get|Set|GetNextKey|Delete))","(v\d+)","/, '"$1","$2","\\t\\\\\\"\\/\\b\\f\\n\\r')],
  ['non-ASCII text', (line) => line.replaceAll('Alleged', 'Allégé ☕ 日本 🎉').replaceAll('vc.', 'vç.').replaceAll('"o+', '"ø+')],
  ['a raw control character in a string', (line) => line.replace('"vatID":"v', '"vatID":"\tv')],
  ['a raw control character in a vatstore key', (line) => line.replace(/"(vatstore\w+)","(v\d+)","/, '"$1","$2","\u0001'), kscUnread],
  ['a bad escape in a vatstore key', (line) => line.replace(/"(vatstore\w+)","(v\d+)","/, '"$1","$2","\\x'), kscUnread],
  ['times spelled with exponents', (line) => line.replace(/,"time":(\d+)\.(\d+)/, ',"time":$1$2E-6')],
  ['times as 1e-7', (line) => line.replace(/,"time":[\d.]+/, ',"time":1e-7')],
  ['times as -0', (line) => line.replace(/,"time":[\d.]+/, ',"time":-0')],
  ['times as integers with .0', (line) => line.replace(/,"time":(\d+)\.\d+/, ',"time":$1.0')],
  ['times with 20 digits', (line) => line.replace(/,"time":(\d+)\.(\d+)/, ',"time":$1.$2123456789')],
  ['a time that is not a JSON number', (line) => line.replace(/,"time":(\d+)\.(\d+)/, ',"time":$1.')],
  ['a time that is a string', (line) => line.replace(/,"time":([\d.]+)/, ',"time":"$1"')],
  ['crank numbers as 1.0e1', (line) => line.replace(/"crankNum":(\d+)/, '"crankNum":$1.0e0')],
  ['crank numbers with a leading zero', (line) => line.replace(/"crankNum":(\d+)/, '"crankNum":0$1')],
  ['no monotime', (line) => line.replace(/,"monotime":[\d.]+/, '')],
  ['seconds on every line', (line) => (line.includes('"seconds"') ? line : line.replace(/\}$/, ',"seconds":0.5}'))],
  ['a repeated vatID before the time', (line) => line.replace(',"time":', ',"vatID":"v99","time":')],
  ['a repeated type before the time', (line) => line.replace(',"time":', ',"type":"console","time":')],
  ['a repeated ksc, ksr, kd, dr before the time', (line) =>
    line.replace(',"time":', line.includes('"ksc"') ? ',"ksc":["vatstoreGet","v1","dup"],"time":'
      : line.includes('"ksr"') ? ',"ksr":["error","dup"],"time":' : line.includes('"kd"') ? ',"kd":["bringOutYourDead"],"time":'
        : ',"dr":["error","dup",null],"time":')],
  ['a repeated time', (line) => line.replace(',"time":', ',"time":5,"time":')],
  ['a repeated crankNum before the end', (line) => line.replace(/\}$/, ',"crankNum":7}')],
  ['a repeated message type', (line) => line.replace(/("message":\{[^}]*)\}/, '$1,"type":"create-vat"}')],
  ['extra keys in a message', (line) => line.replace('"message":{', '"message":{"extra":[1,{"a":"}"}],')],
  ['a message with a dynamicOptions name', (line) => line.replace('"message":{"type":"send"', '"message":{"type":"create-vat","vatID":"v77","dynamicOptions":{"name":"zed"}')],
  ['nulls for values', (line) => line.replace(/"(vatID|kd|ksc|ksr|dr|mode|kobj|message)":/, '"$1":null,"x$1":')],
  ['ok results with other values', (line) => line.replace('"ksr":["ok",null]', '"ksr":["ok",{"a":[1,"x"]}]').replace('"vsr":["ok",null]', '"vsr":["ok",3]')],
  ['bringOutYourDead in one space only', (line) => line.replace('"vd":["bringOutYourDead"]', '"vd":["bringOutYourDead",1]')],
  ['a trailing comma', (line) => line.replace(/\}$/, ',}')],
  ['trailing garbage', (line) => `${line}x`],
  ['a trailing comma in ksc', (line) => line.replace(/("ksc":\[[^\]]*)\]/, '$1,]'), kscUnread],
  ['a raw control character in a vsc', (line) => line.replace(/("vsc":\["\w+",")/, '$1\u0002'), vscUnread],
  ['another key named like the tail inside vsc', (line) => line.replace('"vsc":[', '"vsc":[{"time":1},')],
  [',"vsc": inside ksc', (line) => line.replace('"ksc":[', '"ksc":[{"a":1,"vsc":[2]},')],
];

describe('cranks changed in ways the slogger never writes render the same read lite or parsed', () => {
  const lines = sampleCranks();
  it.each(CHANGES)('%s', (_name, change, unread) => {
    const changed = lines.map(change);
    expect(changed).not.toEqual(lines);
    for (const [name, overrides] of OPTION_SETS) {
      const options = optionsOf(overrides);
      if (unread?.(options)) continue;
      expect(render(changed, options, true), name).toBe(render(changed, options, false));
    }
  });

  it('the same, with only every 7th line changed (the others in the usual shape around them)', () => {
    for (const [change, transform, unread] of CHANGES) {
      const changed = lines.map((line, i) => (i % 7 === 3 ? transform(line) : line));
      for (const [name, overrides] of OPTION_SETS) {
        const options = optionsOf(overrides);
        if (unread?.(options)) continue;
        expect(render(changed, options, true), `${change}, ${name}`).toBe(render(changed, options, false));
      }
    }
  });

  it('damage where it is not read may go unreported (so the tests above would see it)', () => {
    const damaged = lines.map((line) => line.replace(/"(send)","(ko\d+)",/, '"$1","$2\u0001",'));
    const options = optionsOf({ vatspace: true });
    expect(render(damaged, options, false)).toMatch(/BAD LINE/);
    expect(render(damaged, options, true)).not.toMatch(/BAD LINE/);
  });
});

describe('lines cut short', () => {
  it('are reported exactly as parseLine reports them, cut anywhere', () => {
    // One line of each type and shape in the sample, cut at every place, read where a lite entry could be made.
    const seen = new Set<string>();
    const samples = sampleCranks().filter((line) => {
      const shape = line.slice(0, 40).replace(/\d+/g, '0');
      if (seen.has(shape)) return false;
      seen.add(shape);
      return true;
    });
    expect(samples.length).toBeGreaterThan(10);
    for (const [name, overrides] of OPTION_SETS) {
      const pendingSyscall: SyscallEntry = { type: 'syscall', ksc: ['vatstoreGet'], vsc: ['vatstoreGet'] };
      const where = { inCrank: true, awaitingResult: true, pendingSyscall };
      const lite = renderLineParser(optionsOf(overrides), where);
      for (const line of samples) {
        for (let cut = 0; cut < line.length; cut += 1) {
          const text = line.slice(0, cut);
          for (const unterminated of [false, true]) {
            const expected = parseLine(text, unterminated);
            const got = lite(text, unterminated);
            if (typeof expected === 'string' || expected === undefined) expect(got, `${name}: ${text}`).toEqual(expected);
          }
        }
      }
    }
  });
});

describe('a ksc with nested capdata and escapes', () => {
  const body = `#${JSON.stringify(['foo', ['a "quoted" \\ string', 'é日本🎉', '$0.Alleged: x', { '#tag': 'x' }, '\u0007']])}`;
  const ksc = ['send', 'ko25', { methargs: { body, slots: ['ko1'] }, result: 'kp41' }];
  const vsc = ['send', 'o-53', { methargs: { body, slots: ['o+1'] }, result: 'p+5' }];
  const crank = [
    '{"type":"crank-start","crankType":"delivery","crankNum":8,"messageType":"send","message":{"type":"send","target":"ko25","msg":{"methargs":{"body":"#[]","slots":[]},"result":null}},"time":1795308057.679,"monotime":12.077}',
    `{"type":"syscall","crankNum":8,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"send","ksc":${JSON.stringify(ksc)},"vsc":${JSON.stringify(vsc)},"time":1795308057.680686,"monotime":12.078444349}`,
    '{"type":"syscall-result","crankNum":8,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"send","ksr":["ok",null],"vsr":["ok",null],"time":1795308057.68088,"monotime":12.078637059,"seconds":0.00015632000000005065}',
    `{"type":"syscall","crankNum":8,"vatID":"v1","deliveryNum":1,"syscallNum":1,"replay":false,"syscall":"vatstoreSet","ksc":["vatstoreSet","v1","k\\"é","${JSON.stringify(body).slice(1, -1)}"],"vsc":["vatstoreSet","k\\"é","x"],"time":1795308057.680686,"monotime":12.078444349}`,
    '{"type":"syscall-result","crankNum":8,"vatID":"v1","deliveryNum":1,"syscallNum":1,"replay":false,"syscall":"vatstoreSet","ksr":["ok",null],"vsr":["ok",null],"time":1795308057.68088,"monotime":12.078637059,"seconds":0.00015632000000005065}',
    '{"type":"crank-finish","crankType":"delivery","messageType":"send","crankNum":8,"crankhash":"ab","activityhash":"cd","time":1795308057.705101,"monotime":12.102858905,"seconds":0.025}',
  ];
  it('renders as parsed, in every option set', () => {
    for (const [name, overrides] of OPTION_SETS) {
      const options = optionsOf(overrides);
      const text = render(crank, options, true);
      expect(text, name).toBe(render(crank, options, false));
    }
    expect(render(crank, optionsOf({ crankbreaks: false }), true)).toContain('send: @ko25 <- foo("a \\"quoted\\" \\\\ string", "é日本🎉", @ko1, {#tag: "x"}, "\\u0007"): @kp41');
  });
});

describe('scanning primitives and number formats', () => {
  it('jsonNumber reads numbers as JSON.parse does', () => {
    const texts = ['0', '-0', '1', '-1', '1.0', '0.1', '1e-7', '1E+7', '-1.5e300', '1795308057.680686', '12.078444349', '0.00015632000000005065', '9007199254740993', '9007199254740993.5', '123456789012345678901234567890', '0.1234567890123456789012345', '4.35', '5e-324', '1e400', '-1e400'];
    for (let i = 0; i < 20000; i += 1) {
      const digits = Math.floor(Math.random() * 18) + 1;
      const int = String(Math.floor(Math.random() * 10 ** Math.min(digits, 15)));
      const frac = String(Math.random()).slice(2, 2 + Math.floor(Math.random() * 17));
      texts.push(frac ? `${int}.${frac}` : int, `-${int}`);
    }
    for (const text of texts) {
      const parsed = JSON.parse(text) as number;
      const got = jsonNumber(`"x":${text},`, 4);
      expect(Object.is(got, parsed), text).toBe(true);
    }
  });

  it('decoded reads string contents as JSON.parse does, undefined when not JSON', () => {
    expect(decoded('plain')).toBe('plain');
    expect(decoded('a\\"b\\\\c\\u00e9\\n')).toBe('a"b\\c\u00e9\n');
    expect(decoded('bad \\x escape')).toBeUndefined();
  });

  it('tailTime checks the line ends as the slogger ends it', () => {
    const line = '{"type":"x","time":1795308057.68088,"monotime":12.078637059,"seconds":0.00015632000000005065}';
    expect(tailTime(line, tailStart(line))).toBe(1795308057.68088);
    expect(tailTime(line.slice(0, -1), tailStart(line.slice(0, -1)))).toBeNaN();
    expect(tailTime(`${line} `, tailStart(`${line} `))).toBeNaN();
    const noSeconds = '{"type":"x","time":5,"monotime":1}';
    expect(tailTime(noSeconds, tailStart(noSeconds))).toBe(5);
    const twoTimes = `{"type":"x","a":{"time":1,"monotime":2}${'x'.repeat(100)},"time":3,"monotime":4}`;
    expect(tailTime(twoTimes, tailStart(twoTimes))).toBe(3);
  });

  it('fixed0 prints as toFixed(0)', () => {
    const values = [0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.3, 0.3, 1e21, -1e21, 1e22, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 2 ** 53 - 0.5, 4503599627370495.5, 5e-324];
    for (let i = 0; i < 100000; i += 1) {
      values.push((Math.random() - 0.5) * 10 ** (Math.random() * 25 - 3), Math.round((Math.random() - 0.5) * 1e6) / 2);
    }
    for (const value of values) expect(fixed0(value), String(value)).toBe(value.toFixed(0));
  });

  it('fixed2 prints as toFixed(2), ties and near-ties included', () => {
    const values = [0, -0, 0.005, -0.005, 0.015, 0.125, 1.005, 2.675, 87.575, 99.995, 100, 1e-9, -1e-9, NaN, Infinity, -Infinity, 2 ** 28, -(2 ** 28), 1e21, 5e-324];
    for (let i = 0; i < 50000; i += 1) {
      const r = Math.random();
      const tie = Math.round(r * 20000) / 200;
      values.push(r * 100, -r * 100, tie, tie + (Math.random() - 0.5) * 1e-9, r * 10 ** (Math.random() * 12 - 4));
    }
    for (const value of values) expect(fixed2(value), String(value)).toBe(value.toFixed(2));
  });
});
