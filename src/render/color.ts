/**
 * Color for a terminal, as a layer over the plain text: each rendered line is
 * read back and wrapped in ANSI styles, never changed otherwise, so removing
 * the escapes gives exactly the plain output. The line renderers know
 * nothing of it.
 *
 * Styled: crank headers (crank number, vat, label, timing), method names,
 * krefs and vrefs, names from the annotation file, and times that are among
 * the largest seen so far (the top 5% of delivery crank times, and of
 * syscall times).
 */
import type { ChalkInstance } from 'chalk';
import type { Annotations } from '../model/annotations.js';

/** Should output be colored? `--color`/`--no-color` win, then FORCE_COLOR, NO_COLOR, and a terminal. */
export function colorWanted(choice: {
  /** true for --color, false for --no-color, undefined for neither. */
  flag: boolean | undefined;
  /** Is the output a terminal? */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
}): boolean {
  const { flag, isTTY, env } = choice;
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

/** The ANSI escapes chalk writes (SGR sequences). */
const ANSI = /\x1b\[[0-9;]*m/g;

/** The text without its color. */
export function stripColor(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Is a time among the largest `top` fraction of those seen so far? Times are
 * counted in buckets of 1/16 octave (about 4.4% wide), so memory stays fixed
 * whatever the number of times; a Fenwick tree keeps each step O(log).
 */
export class LargeTimes {
  static readonly BUCKETS_PER_OCTAVE = 16;
  private static readonly SIZE = 1024;
  private readonly tree = new Float64Array(LargeTimes.SIZE + 1);
  private count = 0;

  constructor(
    /** The fraction of times that counts as large. */
    readonly top = 0.05,
    /** Nothing is large before this many times were seen. */
    readonly warmup = 20,
  ) {}

  static bucket(micros: number): number {
    const b = Math.floor(Math.log2(Math.max(0, micros) + 1) * LargeTimes.BUCKETS_PER_OCTAVE);
    return Math.min(Math.max(b, 0), LargeTimes.SIZE - 1);
  }

  /** Records a time (µs) and says whether it is large among all recorded so far (itself included). */
  add(micros: number): boolean {
    const b = LargeTimes.bucket(micros);
    for (let i = b + 1; i <= LargeTimes.SIZE; i += i & -i) this.tree[i] = (this.tree[i] ?? 0) + 1;
    this.count += 1;
    if (this.count < this.warmup) return false;
    // Its bucket and those above hold no more than the top fraction of all times.
    const atOrAbove = this.count - this.upTo(b - 1);
    return atOrAbove <= this.top * this.count;
  }

  /** How many recorded times fall in buckets 0..b (none for b < 0). */
  private upTo(b: number): number {
    let sum = 0;
    for (let i = b + 1; i > 0; i -= i & -i) sum += this.tree[i] ?? 0;
    return sum;
  }
}

/** One style per kind of thing. */
interface Palette {
  header: ChalkInstance;
  vat: ChalkInstance;
  routing: ChalkInstance;
  label: ChalkInstance;
  unfinished: ChalkInstance;
  timing: ChalkInstance;
  large: ChalkInstance;
  method: ChalkInstance;
  ref: ChalkInstance;
  named: ChalkInstance;
  big: ChalkInstance;
  comment: ChalkInstance;
  problem: ChalkInstance;
}

function palette(chalk: ChalkInstance): Palette {
  return {
    header: chalk.bold,
    vat: chalk.cyan.bold,
    routing: chalk.dim,
    label: chalk.magenta.bold,
    unfinished: chalk.red,
    timing: chalk.dim,
    large: chalk.red.bold,
    method: chalk.green,
    ref: chalk.blue,
    named: chalk.magenta,
    big: chalk.dim,
    comment: chalk.dim,
    problem: chalk.red,
  };
}

/**
 * Tokens inside a line: refs, method names (after `<- `, or after the `.` of
 * an invoke), `<...>` (annotation names, `<BIG>`), and a syscall's ` (17µs)`.
 */
const TOKENS = new RegExp(
  [
    String.raw`(?<ref>@(?:k[opd]\d+|[opd][+-][0-9A-Za-z/]+(?::\d+)*))`,
    String.raw`(?<=<- )(?<method>[^\s(]+)(?=\()`,
    String.raw`(?<=^(?:syscall )?(?:invoke|callNow): \S+\.)(?<invoked>[^\s(.]+)(?=\()`,
    String.raw`(?<angle><[^<>\n]+>)`,
    String.raw`(?<took> \((?<us>\d+)\u00b5s\)$)`,
  ].join('|'),
  'g',
);

/** ` [total:902µs local:... 12.42%] 4 syscalls 12345 computrons` (figures absent with --no-times). */
const HEADER_TIMING = / (?:\[total:(\d+)\u00b5s [^\]]*\] )?\d+ syscalls(?: \d+ computrons)?$/;
const HEADER = /^\/\/ crank (\d+): (.*)$/;
const CRANK_START = /^crank-start: (\S+) crank (\d+)$/;
const CRANK_FINISH = /^crank-finish: (\d+)\u00b5s crank (\d+)$/;
const PROBLEM = /^(deliver-result|result|syscall-result \S+):/;

export class Colorizer {
  private readonly style: Palette;
  /** Every `<name>` the annotation file can print. */
  private readonly names = new Set<string>();
  private readonly crankTimes = new LargeTimes();
  private readonly syscallTimes = new LargeTimes();
  /** Is the crank being printed a routing crank, and which crank's time was counted last. */
  private routing = false;
  private counted = -1;

  constructor(
    chalk: ChalkInstance,
    private readonly annotations: Annotations,
  ) {
    this.style = palette(chalk);
    for (const name of annotations.kernelRefs.values()) this.names.add(name);
    for (const table of annotations.vatRefs.values()) for (const name of table.values()) this.names.add(name);
  }

  /**
   * A colorizer writing the 16 basic ANSI colors, which every terminal has.
   * (The decision to color at all is colorWanted's; chalk's own detection is not used.)
   */
  static async ansi(annotations: Annotations): Promise<Colorizer> {
    // chalk is loaded only when color is wanted: the plain render starts faster without it.
    const { Chalk } = await import('chalk');
    return new Colorizer(new Chalk({ level: 1 }), annotations);
  }

  /** Colors text made of whole lines (each ending with '\n'), as the text renderer writes it. */
  text(text: string): string {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i] as string;
      if (line.length) lines[i] = this.line(line);
    }
    return lines.join('\n');
  }

  /** Colors one line (no '\n'). */
  line(line: string): string {
    if (line.startsWith('// crank ')) {
      const header = this.header(line);
      if (header !== undefined) return header;
    }
    if (line.startsWith('//')) {
      // The annotation file's comment stands out; `// startup`, `// end of slog` recede.
      const comment = this.annotations.comment;
      return comment !== undefined && line === `// ${comment}` ? this.style.label(line) : this.style.comment(line);
    }
    let m = CRANK_START.exec(line);
    if (m) {
      this.routing = m[1] === 'routing';
    } else if ((m = CRANK_FINISH.exec(line))) {
      const crankNum = Number(m[2]);
      if (!this.routing && crankNum !== this.counted) {
        this.counted = crankNum;
        if (this.crankTimes.add(Number(m[1]))) {
          const at = 'crank-finish: '.length;
          const end = at + (m[1] as string).length + 2;
          return `${line.slice(0, at)}${this.style.large(line.slice(at, end))}${line.slice(end)}`;
        }
      }
      return line;
    }
    const problem = PROBLEM.exec(line);
    const body = this.tokens(line);
    if (!problem) return body;
    const tag = problem[0];
    return `${this.style.problem(tag)}${body.slice(tag.length)}`;
  }

  private tokens(line: string): string {
    const s = this.style;
    return line.replace(TOKENS, (match: string, ...rest: unknown[]) => {
      const groups = rest[rest.length - 1] as Record<string, string | undefined>;
      if (groups.ref !== undefined) return s.ref(match);
      if (groups.method !== undefined || groups.invoked !== undefined) return s.method(match);
      if (groups.angle !== undefined) {
        const inner = match.slice(1, -1);
        if (this.names.has(inner)) return s.named(match);
        return inner === 'BIG' ? s.big(match) : match;
      }
      if (groups.us !== undefined) {
        const large = this.syscallTimes.add(Number(groups.us));
        return large ? ` ${s.large(match.slice(1))}` : ` ${s.timing(match.slice(1))}`;
      }
      return match;
    });
  }

  /** `// crank 96: v1 bootstrap --- label [timing] N syscalls`, `// crank 21: routing 118µs`, `... (unfinished)`. */
  private header(line: string): string | undefined {
    const m = HEADER.exec(line);
    if (!m) return undefined;
    const s = this.style;
    const crankNum = Number(m[1]);
    let rest = m[2] as string;
    const head = s.header(line.slice(0, line.length - rest.length));

    if (rest.endsWith(' (unfinished)')) {
      const who = rest.slice(0, -' (unfinished)'.length);
      this.routing = who === 'routing';
      return `${head}${this.who(who)} ${s.unfinished('(unfinished)')}`;
    }
    const routing = /^routing(?: (\d+)\u00b5s)?$/.exec(rest);
    if (routing) {
      this.routing = true;
      return `${head}${s.routing('routing')}${routing[1] === undefined ? '' : ` ${s.timing(`${routing[1]}µs`)}`}`;
    }
    this.routing = false;

    let timing = '';
    const t = HEADER_TIMING.exec(rest);
    if (t) {
      rest = rest.slice(0, t.index);
      const text = t[0].slice(1);
      const total = t[1] === undefined ? '' : `total:${t[1]}µs`;
      if (t[1] !== undefined) {
        this.counted = crankNum;
        const large = this.crankTimes.add(Number(t[1]));
        const at = text.indexOf(total);
        const after = text.slice(at + total.length);
        timing = ` ${s.timing(text.slice(0, at))}${(large ? s.large : s.timing)(total)}${s.timing(after)}`;
      } else {
        timing = ` ${s.timing(text)}`;
      }
    }
    let label = '';
    const labelText = this.annotations.crankLabels.get(crankNum);
    if (labelText !== undefined && rest.endsWith(` --- ${labelText}`)) {
      rest = rest.slice(0, rest.length - labelText.length - 5);
      label = ` --- ${s.label(labelText)}`;
    }
    return `${head}${this.who(rest)}${label}${timing}`;
  }

  /** `v1 bootstrap` (vat ID and name), or `routing`. */
  private who(who: string): string {
    if (who === 'routing') return this.style.routing(who);
    return this.style.vat(who);
  }
}
