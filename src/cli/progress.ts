/**
 * A progress bar on stderr while a big slog file is read: bytes read, MB/s
 * and time left, redrawn in place a few times a second, erased at the end.
 * Only when stderr is a terminal and the file is over 50 MB (and the text is
 * not going to that same terminal); nothing otherwise.
 */
import type { SlogSource } from '../source/open.js';

export const PROGRESS_MIN_BYTES = 50 * 1024 * 1024;
const REDRAW_MS = 200;
const MB = 1024 * 1024;

/** Where the bar is drawn: a stream that may be a terminal. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressConfig {
  /** Default: process.stderr. */
  stream?: ProgressStream;
  /** Is the rendered text going to the terminal too? Then a bar would only be torn by it. */
  outputIsTerminal?: boolean;
  /** Smallest file that gets a bar (default 50 MB). */
  minBytes?: number;
  /** Clock in ms (tests). */
  now?: () => number;
  /** Redraw on a timer (default true; tests call `draw()` themselves). */
  timer?: boolean;
}

/** Should a source get a bar? */
export function wantsProgress(source: Pick<SlogSource, 'rawSize'>, config: ProgressConfig = {}): boolean {
  const stream = config.stream ?? process.stderr;
  const size = source.rawSize;
  return stream.isTTY === true && !config.outputIsTerminal && size !== undefined && size > (config.minBytes ?? PROGRESS_MIN_BYTES);
}

/** `1:05` or `1:02:03`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The rate is shown once this much time has passed: over the first milliseconds it says nothing (0.5 MB in 1 ms is no 500 MB/s). */
const RATE_AFTER_SECONDS = 1;

/** One line of the bar: `[#######-------]  45%  412.3/916.0 MB  87.1 MB/s  0:05 left` (`--.- MB/s  ?:?? left` in its first second). */
export function progressLine(read: number, size: number, elapsedSeconds: number, width = 80): string {
  const fraction = size > 0 ? Math.min(1, read / size) : 1;
  const rate = elapsedSeconds >= RATE_AFTER_SECONDS ? read / elapsedSeconds : 0;
  const left = rate > 0 ? clock((size - read) / rate) : '?:??';
  const rateText = rate > 0 ? (rate / MB).toFixed(1) : '--.-';
  const figures = ` ${(fraction * 100).toFixed(0).padStart(3)}%  ${(read / MB).toFixed(1)}/${(size / MB).toFixed(1)} MB  ${rateText} MB/s  ${left} left`;
  const barWidth = Math.max(10, Math.min(40, width - figures.length - 3));
  const done = Math.round(fraction * barWidth);
  return `[${'#'.repeat(done)}${'-'.repeat(barWidth - done)}]${figures}`;
}

export class ProgressBar {
  private readonly stream: ProgressStream;
  private readonly now: () => number;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;
  private lastDraw = 0;

  constructor(
    private readonly source: Pick<SlogSource, 'rawSize' | 'rawBytesRead'>,
    config: ProgressConfig = {},
  ) {
    this.stream = config.stream ?? process.stderr;
    this.now = config.now ?? Date.now;
    this.started = this.now();
    if (config.timer ?? true) {
      this.timer = setInterval(() => this.draw(), REDRAW_MS);
      this.timer.unref();
    }
  }

  /** Draws the bar if it was not drawn for a while: for a pass that reads without giving the timer a turn. */
  tick(): void {
    const now = this.now();
    if (now - this.lastDraw >= REDRAW_MS) this.draw();
  }

  draw(): void {
    this.lastDraw = this.now();
    const size = this.source.rawSize ?? 0;
    const line = progressLine(this.source.rawBytesRead(), size, (this.now() - this.started) / 1000, this.stream.columns || 80);
    this.stream.write(`\r${line}\x1b[K`);
    this.drawn = true;
  }

  /** Stops and erases the bar. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** A bar for the source if it wants one (see wantsProgress), else undefined. */
export function startProgress(source: SlogSource, config: ProgressConfig = {}): ProgressBar | undefined {
  return wantsProgress(source, config) ? new ProgressBar(source, config) : undefined;
}
