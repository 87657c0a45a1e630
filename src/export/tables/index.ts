/**
 * The tables an export writes, in this order. Adding a table is one new
 * file beside these (a `TableDef`, see ../schema.ts) and its line here; the
 * writers, `query`'s views and the docs' table test take it from this list.
 *
 * Still to come with the chain view: `blocks` and `runs` (as `blocks --json`
 * and `runs --json` give them: their rows come from the entries outside
 * cranks, TableRows.entry), and the block of each delivery (the
 * deliveries' `blockNum`, from the crank it ran in: DeliveryFacts.crank).
 */
import type { AnyTableDef } from '../schema.js';
import { cranks } from './cranks.js';
import { deliveries } from './deliveries.js';
import { syscalls } from './syscalls.js';
import { vats } from './vats.js';

export const TABLES: readonly AnyTableDef[] = [deliveries, syscalls, cranks, vats];

export function tableNamed(name: string): AnyTableDef | undefined {
  return TABLES.find((t) => t.name === name);
}
