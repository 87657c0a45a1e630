/**
 * A plain file's bytes in chunks of one reused buffer (each valid until the
 * next), read synchronously: for the analyses' pass (byte-entries.ts),
 * which has nothing else to do meanwhile, where an asynchronous read left
 * the thread idle while each read went to another thread and back (a tenth
 * of the pass, measured).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { describe, InputError } from './open.js';

const CHUNK = 4 << 20;

/** Throws InputError (`FILE: why`) when the file cannot be opened or read, as openFile's reader does. */
export function* fileChunks(path: string): Generator<Buffer> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new InputError(path, describe(err));
  }
  try {
    const buf = Buffer.allocUnsafeSlow(CHUNK);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, CHUNK, null);
      } catch (err) {
        throw new InputError(path, describe(err));
      }
      if (n === 0) return;
      yield buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
