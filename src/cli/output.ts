/**
 * Buffered text output to stdout or a file, with backpressure, a quiet end
 * on a closed pipe (`slogulate big.slog | head`), and write errors as one
 * line naming the output (`slogulate: out.txt: no space left on device`,
 * exit 1). Outputs are opened by output-file.ts (`openOutput`), which
 * writes a file through a temporary file that `close()` puts in place.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { CliError, EXIT_FAILURE } from './errors.js';

const FLUSH_AT = 1 << 16;

/** How standard output is named in errors. */
export const STDOUT_NAME = 'stdout';

/** A write error as a user reads it: `no space left on device`, `permission denied`... */
export function describeWriteError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOSPC':
      return 'no space left on device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large';
    case 'EIO':
      return 'input/output error';
    case 'EROFS':
      return 'read-only file system';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOENT':
      return 'no such directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ENAMETOOLONG':
      return 'file name too long';
    default: {
      const message = e.message ?? String(err);
      // `ENOSPC: no space left on device, write` -> `no space left on device`
      return message.replace(/^E[A-Z]+: /, '').replace(/, (write|open|close|rename)\b.*$/, '');
    }
  }
}

/** The error that ends a command when its output cannot be written. */
export function writeError(name: string, err: unknown): CliError {
  if (err instanceof CliError) return err;
  return new CliError(`${name}: ${describeWriteError(err)}`, EXIT_FAILURE);
}

/** What happens to a file output at the end (output-file.ts). */
export interface OutputEnd {
  /** After every byte was written and the stream closed: put the file in place. */
  commit?: () => Promise<void>;
  /** After a failure: remove what was written. Synchronous; safe to call twice. */
  discard?: () => void;
}

/** An error a stream reported: the reader went away (EPIPE) ends the process quietly. */
function streamError(err: NodeJS.ErrnoException, record: (err: Error) => void): void {
  // The reader went away: nothing more can be said, and that is fine.
  if (err.code === 'EPIPE') process.exit(0);
  record(err);
}

/** Standard output's first error, watched once for every Output on it. */
let stdoutFailure: Error | undefined;
let stdoutWatched = false;
function watchStdout(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => streamError(err, (e) => (stdoutFailure ??= e)));
}

export class Output {
  private parts: string[] = [];
  private size = 0;
  private ownFailure: Error | undefined;
  private done = false;

  constructor(
    readonly stream: Writable,
    readonly name: string,
    private readonly end: OutputEnd = {},
  ) {
    if (stream === process.stdout) watchStdout();
    else stream.on('error', (err: NodeJS.ErrnoException) => streamError(err, (e) => (this.ownFailure ??= e)));
  }

  private get failed(): Error | undefined {
    return this.stream === process.stdout ? stdoutFailure : this.ownFailure;
  }

  private set failed(err: Error | undefined) {
    if (this.stream === process.stdout) stdoutFailure ??= err;
    else this.ownFailure ??= err;
  }

  get isTTY(): boolean {
    return (this.stream as { isTTY?: boolean }).isTTY === true;
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) this.flush();
  }

  /** Bytes as they are (a slog's lines: `extract`), after the text written before; `bytes` is copied (it may be lent). */
  writeBytes(bytes: Uint8Array): void {
    this.flush();
    if (this.failed) throw this.fail(this.failed);
    try {
      this.stream.write(Buffer.from(bytes));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
      this.failed = err as Error;
      throw this.fail(err);
    }
  }

  /** Hands buffered text to the stream. */
  flush(): void {
    if (this.size === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.size = 0;
    if (this.failed) throw this.fail(this.failed);
    try {
      // Standard output to a file or a device is written synchronously: its errors are thrown here.
      this.stream.write(text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
      this.failed = err as Error;
      throw this.fail(err);
    }
  }

  /** Waits while the stream is over its high-water mark. */
  async drained(): Promise<void> {
    if (this.failed) throw this.fail(this.failed);
    if (this.stream.writableNeedDrain) {
      try {
        await once(this.stream, 'drain');
      } catch (err) {
        throw this.fail(err);
      }
    }
  }

  /** Flushes and, for a file, closes it and puts it in place. Throws a one-line CliError when the output failed. */
  async close(): Promise<void> {
    if (this.done) return;
    try {
      this.flush();
      if (this.stream === process.stdout) {
        await this.drained();
        if (this.failed) throw this.fail(this.failed);
        this.done = true;
        return;
      }
      await new Promise<void>((resolve, reject) => {
        this.stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
      });
      if (this.failed) throw this.failed;
      await this.end.commit?.();
      this.done = true;
    } catch (err) {
      this.discard();
      throw this.fail(err);
    }
  }

  /**
   * The command failed: a file output is removed (an existing file stays as
   * it was); standard output gets what was written so far.
   */
  discard(): void {
    if (this.done) return;
    this.done = true;
    if (this.stream === process.stdout) {
      try {
        this.flush();
      } catch {
        // the command's own error is the one to report
      }
      return;
    }
    if (!this.stream.destroyed) this.stream.destroy();
    this.end.discard?.();
  }

  private fail(err: unknown): CliError {
    return writeError(this.name, err);
  }
}
