/**
 * A text file written in pieces of about 256 KB, synchronously: the pass
 * makes rows faster than a stream would take them, and a synchronous write
 * of a piece to the page cache costs less than the promise that would wait
 * for it. Memory: one piece.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const PIECE = 1 << 18;

export class TextFile {
  private fd: number;
  private parts: string[] = [];
  private size = 0;
  /** Bytes (UTF-16 code units, near enough) handed to write so far. */
  written = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx');
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    this.written += text.length;
    if (this.size >= PIECE) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }

  close(): void {
    if (this.fd < 0) return;
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
  }
}
