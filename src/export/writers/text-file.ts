/**
 * A text file written through a 256 KB buffer, synchronously: each piece of
 * text is encoded into the buffer at once (so that the strings the rows
 * were made of die young, where collecting them costs little: kept as
 * strings until a write, they cost the export a quarter of its time in
 * collections), and a full buffer is written to the file with writeSync (the
 * page cache takes it faster than a stream's promise would be resolved).
 * Memory: the buffer.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const BUFFER = 1 << 18;

/**
 * Buffer's own encoder, which `write()` calls after sorting out its
 * optional arguments (typed here: @types/node leaves it out): called for
 * every row, those checks were a twentieth of the export's main thread.
 */
interface Utf8Writer {
  utf8Write(text: string, offset: number): number;
}

export class TextFile {
  private fd: number;
  private readonly buf = Buffer.allocUnsafe(BUFFER);
  private used = 0;
  /** Characters handed to write so far. */
  written = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx');
  }

  write(text: string): void {
    this.written += text.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + text.length * 3 > BUFFER) {
      this.flush();
      if (text.length * 3 > BUFFER) {
        writeSync(this.fd, text);
        return;
      }
    }
    this.used += (this.buf as unknown as Utf8Writer).utf8Write(text, this.used);
  }

  /**
   * The cells of a CSV row, written straight into the buffer as bytes
   * (csv-text.ts's csvRowWriter calls these, one per field): no line
   * string is built and flattened, no number made a string first. Each
   * writes exactly the bytes that `write` would of the same text, and
   * counts its characters in `written` as `write` does.
   */

  /** One ASCII character (a comma, the newline). */
  byte(code: number): void {
    if (this.used >= BUFFER) this.flush();
    this.buf[this.used] = code;
    this.used += 1;
    this.written += 1;
  }

  /** A number as JavaScript prints it (`'' + value`): a small whole one digit by digit, any other through its text. */
  number(value: number): void {
    if ((value | 0) !== value || value < 0) {
      this.ascii(`${value}`);
      return;
    }
    // -0 passes the test above and prints as 0, as `'' + -0` does.
    let digits = 1;
    for (let rest = value; rest >= 10; rest = (rest / 10) | 0) digits += 1;
    if (this.used + digits > BUFFER) this.flush();
    const buf = this.buf;
    let at = this.used + digits;
    this.used = at;
    this.written += digits;
    let rest = value;
    do {
      at -= 1;
      const next = (rest / 10) | 0;
      buf[at] = 48 + rest - next * 10;
      rest = next;
    } while (rest > 0);
  }

  /** Text known to be ASCII (a number's, `true`): its characters are its bytes. */
  ascii(text: string): void {
    const n = text.length;
    if (this.used + n > BUFFER) {
      this.write(text);
      return;
    }
    const buf = this.buf;
    let at = this.used;
    for (let i = 0; i < n; i += 1) buf[at++] = text.charCodeAt(i);
    this.used = at;
    this.written += n;
  }

  /**
   * A string cell as csv-text.ts's csvString makes it: written byte by
   * byte while it is plain ASCII with nothing to quote; else (a comma, a
   * quote, a line break, a character beyond ASCII, the empty string)
   * through csvString and `write`.
   */
  csvString(text: string, quoted: (text: string) => string): void {
    const n = text.length;
    if (n === 0 || this.used + n > BUFFER) {
      this.write(quoted(text));
      return;
    }
    const buf = this.buf;
    const start = this.used;
    let at = start;
    for (let i = 0; i < n; i += 1) {
      const c = text.charCodeAt(i);
      if (c >= 128 || c === 44 || c === 34 || c === 10 || c === 13) {
        // The bytes written so far are left behind (`used` has not moved): write writes over them.
        this.write(quoted(text));
        return;
      }
      buf[at++] = c;
    }
    this.used = at;
    this.written += n;
  }

  flush(): void {
    if (this.used === 0) return;
    let at = 0;
    while (at < this.used) at += writeSync(this.fd, this.buf, at, this.used - at);
    this.used = 0;
  }

  close(): void {
    if (this.fd < 0) return;
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
  }
}
