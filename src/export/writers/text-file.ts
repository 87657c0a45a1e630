/**
 * A text file written through a 256 KB buffer, synchronously: rows are
 * written into the buffer (csv-text.ts, RowBytes) or text encoded into it
 * at once, and a full buffer is written to the file with writeSync (the
 * page cache takes it faster than a stream's promise would be resolved).
 * Memory: the buffer.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { RowBytes } from '../csv-text.js';

const BUFFER = 1 << 18;

/**
 * Buffer's own encoder, which `write()` calls after sorting out its
 * optional arguments (typed here: @types/node leaves it out).
 */
interface Utf8Writer {
  utf8Write(text: string, offset: number): number;
}

export class TextFile implements RowBytes {
  private fd: number;
  readonly buf = Buffer.allocUnsafe(BUFFER);
  used = 0;
  /** Bytes written to the file so far (the rest is in the buffer). */
  private flushed = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx');
    // room()'s flush once now, with nothing to write: V8 then compiles room() (inlined into every table's row writer)
    // knowing the call, instead of throwing that code away at the first full buffer and compiling it again.
    this.room(BUFFER + 1);
  }

  /** Bytes written so far (those still in the buffer too). */
  get written(): number {
    return this.flushed + this.used;
  }

  room(bytes: number): number {
    if (this.used + bytes > BUFFER) this.flush();
    return this.used;
  }

  text(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + text.length * 3 > BUFFER) {
      this.flush();
      if (text.length * 3 > BUFFER) {
        this.flushed += writeSync(this.fd, text);
        return;
      }
    }
    this.used += (this.buf as unknown as Utf8Writer).utf8Write(text, this.used);
  }

  flush(): void {
    if (this.used === 0) return;
    let at = 0;
    while (at < this.used) at += writeSync(this.fd, this.buf, at, this.used - at);
    this.flushed += this.used;
    this.used = 0;
  }

  close(): void {
    if (this.fd < 0) return;
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
  }
}
