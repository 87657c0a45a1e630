/**
 * Real slogs with huge lines put in, for the big-line tests: each case
 * takes the first line of a kind in the slog and makes it (or a line added
 * after it) huge in one way, the way a kernel would have written it
 * (`JSON.stringify` of the entry, kd and vd both carrying the value).
 */

/** A text of `n` characters of every sort a string can hold: quotes, backslashes, line breaks, accents, astral characters (surrogate pairs), control characters. */
export function bigText(n: number, seed = 1): string {
  const pieces = ['abc def ', 'é', '中文', '😀', '"quoted"', '\\', '\n', '\t', '\u0001', '$0.x', ' {', '}', '0123456789', '\u2028', 'ẞ'];
  let state = seed >>> 0 || 1;
  let out = '';
  while (out.length < n) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += pieces[state % pieces.length];
  }
  // Not cut inside a surrogate pair.
  const end = out.charCodeAt(n - 1) >= 0xd800 && out.charCodeAt(n - 1) <= 0xdbff ? n - 1 : n;
  return out.slice(0, end);
}

type Entry = Record<string, unknown>;

const smallcaps = (value: unknown): string => `#${JSON.stringify(value)}`;
const parseBody = (body: string): unknown => JSON.parse(body.startsWith('#') ? body.slice(1) : body);

/** Applies `edit` to a capdata body (`{body, slots}`) in place. */
function editBody(capdata: { body: string }, edit: (value: unknown) => unknown): void {
  const legacy = !capdata.body.startsWith('#');
  const value = edit(parseBody(capdata.body));
  capdata.body = legacy ? JSON.stringify(value) : smallcaps(value);
}

interface Case {
  name: string;
  /** Does this case take this entry? */
  takes: (e: Entry) => boolean;
  /** The lines that stand for it (the entry itself, changed, and maybe others). */
  lines: (e: Entry, n: number) => string[];
}

const args = (v: unknown): unknown[] => ((v as unknown[])[1] as unknown[]);

export const CASES: Case[] = [
  {
    name: 'console with a huge string, and an object holding one',
    takes: (e) => e.type === 'console' && e.level !== undefined,
    lines: (e, n) => [
      JSON.stringify(e),
      JSON.stringify({ ...e, args: ['big:', bigText(n, 2), { n: 1, text: bigText(n, 3), list: [1, 'x'] }, 42] }),
    ],
  },
  {
    name: 'deliver with a huge string argument',
    takes: (e) => e.type === 'deliver' && (e.kd as unknown[])?.[0] === 'message',
    lines: (e, n) => {
      for (const d of [e.kd, e.vd] as Array<[string, string, { methargs: { body: string } }]>) {
        editBody(d[2].methargs, (v) => [(v as unknown[])[0], [...args(v), `!${bigText(n, 4)}`]]);
      }
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'send with a huge record, a remotable with a huge interface name, and many small arguments',
    takes: (e) => e.type === 'syscall' && (e.ksc as unknown[])?.[0] === 'send',
    lines: (e, n) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < n / 20; i += 1) record[`k${i}`] = i % 3 ? `!v${i}` : i;
      const many = Array.from({ length: 40 }, (_, i) => i);
      for (const s of [e.ksc, e.vsc] as Array<[string, string, { methargs: { body: string; slots: string[] } }]>) {
        const slot = s[2].methargs.slots.length;
        s[2].methargs.slots.push(s === e.ksc ? 'ko999' : 'o-999');
        editBody(s[2].methargs, (v) => [(v as unknown[])[0], [...args(v), record, `$${slot}.Alleged: ${bigText(n, 5)}`, ...many]]);
      }
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'resolve with a huge string',
    takes: (e) => e.type === 'syscall' && (e.ksc as unknown[])?.[0] === 'resolve',
    lines: (e, n) => {
      const big = `!${bigText(n, 6)}`;
      ((e.ksc as unknown[])[2] as Array<[string, boolean, { body: string }]>)[0]![2].body = smallcaps(big);
      ((e.vsc as unknown[])[1] as Array<[string, boolean, { body: string }]>)[0]![2].body = smallcaps(big);
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'notify with a huge array resolution',
    takes: (e) => e.type === 'deliver' && (e.kd as unknown[])?.[0] === 'notify',
    lines: (e, n) => {
      const value = [bigText(n, 7), Array.from({ length: n / 10 }, (_, i) => i), { short: 'kept' }];
      ((e.kd as unknown[])[1] as Array<[string, { data: { body: string } }]>)[0]![1].data.body = smallcaps(value);
      const vd = (e.vd as unknown[])[1] as Array<[string, boolean, { body: string }]>;
      vd[0]![2].body = smallcaps(value);
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'invoke with huge arguments, its result huge',
    takes: (e) => e.type === 'syscall' && (e.ksc as unknown[])?.[0] === 'invoke',
    lines: (e, n) => {
      for (const s of [e.ksc, e.vsc] as Array<unknown[]>) editBody(s[3] as { body: string }, (v) => [...(v as unknown[]), bigText(n, 8), 7]);
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'invoke result huge',
    takes: (e) => e.type === 'syscall-result' && e.syscall === 'callNow',
    lines: (e, n) => {
      for (const r of [e.ksr, e.vsr] as Array<[string, { body: string }]>) editBody(r[1], () => ({ big: bigText(n, 9), small: 'x' }));
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'vatstoreSet with a huge value (printed whole)',
    takes: (e) => e.type === 'syscall' && (e.ksc as unknown[])?.[0] === 'vatstoreSet',
    lines: (e, n) => {
      const value = bigText(n, 10);
      (e.ksc as unknown[])[3] = value;
      (e.vsc as unknown[])[2] = value;
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'a replayed vatstoreSet with a huge value holding line breaks',
    takes: (e) => e.type === 'syscall' && e.replay === true && (e.vsc as unknown[])?.[0] === 'vatstoreSet',
    lines: (e, n) => {
      (e.vsc as unknown[])[2] = `first\n${bigText(n, 22)}\nlast`;
      return [JSON.stringify(e)];
    },
  },
  {
    name: 'vatstoreGet whose result is huge',
    takes: (e) => e.type === 'syscall-result' && e.syscall === 'vatstoreGet',
    lines: (e, n) => [JSON.stringify({ ...e, ksr: ['ok', bigText(n, 11)], vsr: ['ok', bigText(n, 11)] })],
  },
  {
    name: 'a failed send whose error is huge capdata',
    takes: (e) => e.type === 'syscall-result' && e.syscall === 'send',
    lines: (e, n) => {
      const error = { body: smallcaps({ '#error': bigText(n, 21), name: 'Error' }), slots: [] };
      return [JSON.stringify({ ...e, ksr: ['error', error], vsr: ['error', error] })];
    },
  },
  {
    name: 'create-vat with a huge bundle',
    takes: (e) => e.type === 'create-vat' && e.vatSourceBundle !== undefined,
    lines: (e, n) => [JSON.stringify({ ...e, vatSourceBundle: { moduleFormat: 'endoZipBase64', endoZipBase64: bigText(n, 12) } })],
  },
  {
    name: 'an unknown entry type with a huge field, a blank huge line, a huge line that is not JSON, one that is not an object',
    takes: (e) => e.type === 'crank-finish',
    lines: (e, n) => [
      JSON.stringify(e),
      JSON.stringify({ type: 'mystery-entry', note: bigText(n, 13), nested: { also: bigText(n, 14) } }),
      ' '.repeat(n),
      JSON.stringify({ type: 'console', level: 'log', args: [bigText(n, 15)] }).slice(0, -10),
      JSON.stringify([bigText(n, 16)]),
    ],
  },
  {
    name: 'a failed delivery with a huge problem',
    takes: (e) => e.type === 'deliver-result',
    lines: (e, n) => [JSON.stringify({ ...e, dr: ['error', bigText(n, 17), null] })],
  },
  {
    name: 'a legacy (non-smallcaps) message with a huge string and @qclass records',
    takes: (e) => e.type === 'deliver' && (e.kd as unknown[])?.[0] === 'message' && (e.crankNum as number) > 100,
    lines: (e, n) => {
      const body = JSON.stringify([
        'legacyMethod',
        [bigText(n, 18), { '@qclass': 'bigint', digits: '1'.repeat(n) }, { '@qclass': 'undefined', junk: bigText(n, 19) }, { '@qclass': 'slot', index: 0 }],
      ]);
      for (const d of [e.kd, e.vd] as Array<[string, string, { methargs: { body: string; slots: string[] } }]>) d[2].methargs.body = body;
      return [JSON.stringify(e)];
    },
  },
];

/**
 * The slog with each case applied once (to the first line it takes), lines
 * huge by about `n` characters each. `unterminated`: a huge last line with
 * no newline (cut short) ends it.
 */
export function withBigLines(text: string, n: number, opts: { unterminated?: boolean; cases?: Case[] } = {}): string {
  const pending = [...(opts.cases ?? CASES)];
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let entry: Entry | undefined;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      entry = undefined;
    }
    const body = entry && typeof entry.body === 'object' && entry.body !== null && !('type' in entry) ? (entry.body as Entry) : entry;
    const i = body ? pending.findIndex((c) => c.takes(body)) : -1;
    if (!entry || !body || i < 0) {
      out.push(line);
      continue;
    }
    const c = pending.splice(i, 1)[0] as Case;
    const lines = c.lines(body, n);
    // A contextual line: the first of them keeps the line's attributes.
    out.push(...(body === entry ? lines : lines.map((l, k) => (k === 0 ? JSON.stringify({ ...entry, body: JSON.parse(l) }) : l))));
  }
  let slog = `${out.join('\n')}\n`;
  if (opts.unterminated) slog += JSON.stringify({ type: 'console', level: 'log', args: [bigText(n, 20)] }).slice(0, -3);
  return slog;
}

/** The cases no line of the slog took (to check a test covers what it means to). */
export function casesTaken(text: string): string[] {
  const pending = [...CASES];
  const taken: string[] = [];
  for (const line of text.split('\n')) {
    let entry: Entry | undefined;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      continue;
    }
    const body = entry && typeof entry.body === 'object' && entry.body !== null && !('type' in entry) ? (entry.body as Entry) : entry;
    const i = pending.findIndex((c) => c.takes(body));
    if (i >= 0) taken.push((pending.splice(i, 1)[0] as Case).name);
  }
  return taken;
}
