/**
 * Following a slog that is still being written (`tail -f`): a SlogSource
 * whose stream reads the file from the start and, at its end, waits for more
 * instead of ending. `stop()` (Ctrl-C) reads what is left and ends the
 * stream, so the consumer finishes as it would at the end of a file.
 *
 * Growth is noticed by fs.watch, with a slow poll as a safety net (some file
 * systems do not report changes). A file cut shorter than what was read (a
 * new run writing it afresh) is read again from its start. A file replaced
 * under its name (rotated: renamed away, a new file created, as logrotate
 * does) is noticed as `tail -F` does, by the path's inode no longer being the
 * open file's: the old file is read to its end, then the new one from its
 * start. A gzipped file is decompressed as it grows; stopping inside a gzip
 * member is not an error.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { closeSync, openSync, readSync } from 'node:fs';
import { fsPromises, zlib } from './builtins.js';
import { describe, InputError, isGzipMagic, type SlogSource } from './open.js';

const CHUNK = 1 << 20;
/** A read smaller than this is copied out, so that the 1 MB read buffer can be reused. */
const COPY_BELOW = CHUNK >> 2;

export interface FollowOptions {
  /** How often to look at the file when no change was reported (ms, default 500). */
  pollMs?: number;
  /** Told when the file was cut shorter, or replaced, and is read again from its start. */
  onNotice?: (message: string) => void;
}

export interface FollowSource extends SlogSource {
  /** Ends the stream once what the file holds now is read. */
  stop(): void;
}

/** The raw bytes of a growing file, read as they come. */
class FollowReader extends Readable {
  private handle: FileHandle | undefined;
  /** The open file's device and inode, to see the path name another file. */
  private opened: { dev: number; ino: number } | undefined;
  /** The path names another file: read the open one to its end once more, then switch. */
  private replaced = false;
  private position = 0;
  private pumping = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private slab = Buffer.allocUnsafe(CHUNK);

  constructor(
    private readonly path: string,
    private readonly options: FollowOptions,
  ) {
    super({ highWaterMark: CHUNK });
  }

  get bytesRead(): number {
    return this.position;
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  override _read(): void {
    void this.pump();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.stopWatching();
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback(err);
    handle.close().then(
      () => callback(err),
      () => callback(err),
    );
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      if (!this.handle) await this.openPath();
      for (;;) {
        if (!this.handle) return;
        const { bytesRead } = await this.handle.read(this.slab, 0, CHUNK, this.position);
        if (this.destroyed) return;
        if (bytesRead > 0) {
          this.position += bytesRead;
          let chunk: Buffer;
          if (bytesRead < COPY_BELOW) {
            chunk = Buffer.from(this.slab.subarray(0, bytesRead));
          } else {
            chunk = this.slab.subarray(0, bytesRead);
            this.slab = Buffer.allocUnsafe(CHUNK);
          }
          if (!this.push(chunk)) return;
          continue;
        }
        // At the end of what is written so far.
        if (this.replaced) {
          // The old file is read to its end: on to the new one.
          this.options.onNotice?.(`${this.path}: file replaced (rotated); reading the new file from its start`);
          await this.switchFile();
          continue;
        }
        if (await this.pathNamesAnotherFile()) {
          // What was written to the old file since the last read comes first.
          this.replaced = true;
          continue;
        }
        if (this.stopped) {
          this.stopWatching();
          this.push(null);
          return;
        }
        const { size } = await this.handle.stat();
        if (size < this.position) {
          this.options.onNotice?.(`${this.path}: file truncated; reading it again from the start`);
          this.position = 0;
          continue;
        }
        await this.changed();
        if (this.destroyed) return;
      }
    } catch (err) {
      this.destroy(new InputError(this.path, describe(err)));
    } finally {
      this.pumping = false;
    }
  }

  private async openPath(): Promise<void> {
    const handle = await fsPromises().open(this.path, 'r');
    const { dev, ino } = await handle.stat();
    this.handle = handle;
    this.opened = { dev, ino };
  }

  /** Does the path now name a file other than the open one? (No file there yet: not yet.) */
  private async pathNamesAnotherFile(): Promise<boolean> {
    try {
      const { dev, ino } = await fsPromises().stat(this.path);
      return this.opened !== undefined && (dev !== this.opened.dev || ino !== this.opened.ino);
    } catch {
      return false;
    }
  }

  private async switchFile(): Promise<void> {
    const old = this.handle;
    this.handle = undefined;
    this.replaced = false;
    this.position = 0;
    await old?.close().catch(() => undefined);
    if (this.destroyed) return;
    await this.openPath();
    // Change events came from the old file: watch the new one.
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poll) this.watchPath();
  }

  /** Resolves when the file may have grown (a change event, a poll tick) or on stop(). */
  private changed(): Promise<void> {
    this.startWatching();
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  private startWatching(): void {
    if (this.poll) return;
    this.watchPath();
    // The poll keeps the process alive while following, as `tail -f` does (and sees a rotation).
    this.poll = setInterval(() => this.wake?.(), this.options.pollMs ?? 500);
  }

  private watchPath(): void {
    try {
      this.watcher = watch(this.path, { persistent: false }, () => this.wake?.());
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No change events here: the poll alone will do.
    }
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    this.wake?.();
  }
}

/** Is the file at `path` gzipped (its first bytes)? Throws InputError when it cannot be read. */
function probeGzip(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(2);
      return isGzipMagic(head.subarray(0, readSync(fd, head, 0, 2, 0)));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new InputError(path, describe(err));
  }
}

/** Opens `path` to follow it; throws InputError when it cannot be read. */
export function openFollow(path: string, options: FollowOptions = {}): FollowSource {
  const gzipped = probeGzip(path);
  const raw = new FollowReader(path, options);
  let stream: Readable = raw;
  if (gzipped) {
    // A member cut short when following stops is not an error: flush what it holds.
    const gunzip = zlib().createGunzip({ chunkSize: CHUNK, finishFlush: zlib().constants.Z_SYNC_FLUSH });
    raw.on('error', (err) => gunzip.destroy(err));
    stream = raw.pipe(gunzip);
  }
  return {
    name: path,
    chunks: () => stream,
    rawBytesRead: () => raw.bytesRead,
    rawSize: undefined,
    gzipped,
    stop: () => raw.stop(),
  };
}
