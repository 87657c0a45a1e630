/**
 * Node.js modules that only some runs need, loaded the first time one is
 * needed instead of when slogulate starts: gzip (`node:zlib`), following a
 * growing file (`node:fs/promises`, which loads readline's internals), the
 * temporary folder (`node:os`), whether stdin is a terminal (`node:tty`,
 * which loads `node:net`), and the heap governor's `node:v8` and
 * `node:vm`, which a small slog never reaches. Loading them all at start
 * cost about 5 ms of a start that Node.js itself makes in about 100
 * (`npm run bench`'s start-up row).
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export const zlib = (): typeof import('node:zlib') => load('node:zlib') as typeof import('node:zlib');
export const fsPromises = (): typeof import('node:fs/promises') => load('node:fs/promises') as typeof import('node:fs/promises');
export const os = (): typeof import('node:os') => load('node:os') as typeof import('node:os');
export const v8 = (): typeof import('node:v8') => load('node:v8') as typeof import('node:v8');
export const vm = (): typeof import('node:vm') => load('node:vm') as typeof import('node:vm');
export const tty = (): typeof import('node:tty') => load('node:tty') as typeof import('node:tty');
export const crypto = (): typeof import('node:crypto') => load('node:crypto') as typeof import('node:crypto');
