/**
 * Big buffers kept for the life of the process and lent out one reader at a
 * time, instead of allocated for each file or long line and freed.
 *
 * Why: glibc hands out a block of 128 KB or more by mmap, and when such a
 * block is freed it raises its mmap threshold (and its trim threshold, to
 * twice that) to the block's size for the rest of the process. Every later
 * allocation under that size then stays in malloc's heap, which is not given
 * back. A file's 512 KB read buffer, freed at its end, and the megabyte
 * buffers that joined each create-vat line (a line longer than a chunk) did
 * that: `compare FILE FILE` peaked anywhere from 79 to 100 MB from run to
 * run with the same JavaScript heap (76-79 MB with the thresholds fixed by
 * `MALLOC_MMAP_THRESHOLD_`).
 *
 * A buffer is lent to one reader at a time: a reader that finds it lent out
 * (two slogs read at once) gets a buffer of its own, freed as before.
 */

/** One big buffer, lent to one reader at a time. */
export class KeptBuffer {
  private buffer: Buffer | undefined;
  private lent = false;

  /** `minBytes`: the size it is made with, so that it seldom has to grow (pages not written take no memory). */
  constructor(private readonly minBytes: number) {}

  /** The kept buffer (made, or grown, to `size` if need be) when it is free, else a new one. */
  take(size: number): Buffer {
    if (this.lent) return Buffer.allocUnsafeSlow(size);
    this.lent = true;
    if (this.buffer === undefined || this.buffer.length < size) this.buffer = Buffer.allocUnsafeSlow(Math.max(size, this.minBytes));
    return this.buffer;
  }

  /** A buffer of at least `size` bytes in place of `buffer`, which `take` gave, with its first `keep` bytes. */
  grow(buffer: Buffer, size: number, keep: number): Buffer {
    const grown = Buffer.allocUnsafeSlow(Math.max(size, 2 * buffer.length));
    buffer.copy(grown, 0, 0, keep);
    if (buffer === this.buffer) this.buffer = grown;
    return grown;
  }

  /** Hands back a buffer `take` or `grow` gave (the kept one can be lent again; another is dropped). */
  give(buffer: Buffer): void {
    if (buffer === this.buffer) this.lent = false;
  }
}

/**
 * Bytes appended one piece after another (a line that spans chunks) in a
 * kept buffer. `view()` is valid until the next append or `release()`.
 */
export class JoinedBytes {
  private buffer: Buffer | undefined;
  length = 0;

  constructor(private readonly kept: KeptBuffer) {}

  append(bytes: Uint8Array): void {
    const need = this.length + bytes.length;
    if (this.buffer === undefined) this.buffer = this.kept.take(need);
    else if (need > this.buffer.length) this.buffer = this.kept.grow(this.buffer, need, this.length);
    this.buffer.set(bytes, this.length);
    this.length = need;
  }

  /** The bytes appended since the last `clear()`. */
  view(): Buffer {
    return this.buffer === undefined ? Buffer.alloc(0) : this.buffer.subarray(0, this.length);
  }

  /** Empty again (the buffer is kept for the next line). */
  clear(): void {
    this.length = 0;
  }

  /** Done: the buffer goes back. */
  release(): void {
    if (this.buffer !== undefined) this.kept.give(this.buffer);
    this.buffer = undefined;
    this.length = 0;
  }
}
