/**
 * The tables an export writes, in this order. Adding a table is one new
 * file beside these (a `TableDef`, see ../schema.ts) and its line here; the
 * writers, `query`'s views and the docs' table test take it from this list.
 */
import type { AnyTableDef } from '../schema.js';
import { blocks } from './blocks.js';
import { clist } from './clist.js';
import { cranks } from './cranks.js';
import { deliveries } from './deliveries.js';
import { growth } from './growth.js';
import { messages } from './messages.js';
import { runs } from './runs.js';
import { snapshots } from './snapshots.js';
import { stalls } from './stalls.js';
import { syscalls } from './syscalls.js';
import { vats } from './vats.js';

export const TABLES: readonly AnyTableDef[] = [deliveries, syscalls, cranks, blocks, runs, snapshots, stalls, vats, messages, clist, growth];

/** What `export` writes unless told otherwise (`--tables`): every table but the opt-in ones. */
export const DEFAULT_TABLES: readonly AnyTableDef[] = TABLES.filter((t) => t.optIn !== true);

export function tableNamed(name: string): AnyTableDef | undefined {
  return TABLES.find((t) => t.name === name);
}
