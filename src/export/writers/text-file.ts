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
