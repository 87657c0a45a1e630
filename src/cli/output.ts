/**
 * Buffered text output to stdout or a file, with backpressure and a quiet
 * end on a closed pipe (`slogulate big.slog | head`).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const FLUSH_AT = 1 << 16;

export class Output {
  private parts: string[] = [];
  private size = 0;
  private failed: Error | undefined;

  constructor(
    readonly stream: Writable,
    readonly name: string,
  ) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') {
        // The reader went away: nothing more can be said, and that is fine.
        process.exit(0);
      }
      this.failed = err;
    });
  }

  /** Standard output, or the file `path` (created or truncated). */
  static open(path: string | undefined): Output {
    if (path === undefined || path === '-') return new Output(process.stdout, '<stdout>');
    return new Output(createWriteStream(path), path);
  }

  get isTTY(): boolean {
    return (this.stream as { isTTY?: boolean }).isTTY === true;
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) this.flush();
  }

  /** Hands buffered text to the stream. */
  flush(): void {
    if (this.size === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.size = 0;
    if (this.failed) throw this.failed;
    this.stream.write(text);
  }

  /** Waits while the stream is over its high-water mark. */
  async drained(): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.stream.writableNeedDrain) await once(this.stream, 'drain');
  }

  /** Flushes and, for a file, closes it. */
  async close(): Promise<void> {
    this.flush();
    if (this.stream === process.stdout) {
      if (this.stream.writableNeedDrain) await once(this.stream, 'drain');
      return;
    }
    await new Promise<void>((resolve, reject) => {
      this.stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
    if (this.failed) throw this.failed;
  }
}
