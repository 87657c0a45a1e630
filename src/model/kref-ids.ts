/**
 * A kref as one small number: `ko12` is (12 << 2) | 0, `kp40` (40 << 2) | 1,
 * `kd3` (3 << 2) | 2. The kref model stores these numbers, never the strings.
 */

/** A kref coded as `(serial << 2) | kind`; -1 for "none". */
export type KrefId = number;

export const KIND_OBJECT = 0;
export const KIND_PROMISE = 1;
export const KIND_DEVICE = 2;
export type KrefKind = typeof KIND_OBJECT | typeof KIND_PROMISE | typeof KIND_DEVICE;

const KIND_LETTERS = ['o', 'p', 'd'] as const;
export const KIND_WORDS = ['object', 'promise', 'device'] as const;

/** Serial numbers at or above this are not tracked (they would not fit an Int32 id). */
const MAX_SERIAL = 2 ** 29;

const CODE_K = 107; // 'k'
const CODE_O = 111; // 'o'
const CODE_P = 112; // 'p'
const CODE_D = 100; // 'd'
const CODE_0 = 48;

/** The id of `ref` when it is a kref (`ko12`, `kp40`, `kd3`), else -1. */
export function krefId(ref: unknown): KrefId {
  if (typeof ref !== 'string' || ref.length < 3 || ref.length > 12 || ref.charCodeAt(0) !== CODE_K) return -1;
  const k = ref.charCodeAt(1);
  const kind = k === CODE_O ? KIND_OBJECT : k === CODE_P ? KIND_PROMISE : k === CODE_D ? KIND_DEVICE : -1;
  if (kind < 0) return -1;
  let serial = 0;
  for (let i = 2; i < ref.length; i += 1) {
    const digit = ref.charCodeAt(i) - CODE_0;
    if (digit < 0 || digit > 9) return -1;
    serial = serial * 10 + digit;
  }
  if (serial >= MAX_SERIAL) return -1;
  return serial * 4 + kind;
}

export function krefKind(id: KrefId): KrefKind {
  return (id & 3) as KrefKind;
}

export function krefSerial(id: KrefId): number {
  return id >>> 2;
}

/** `ko12` for the id of ko12. */
export function formatKref(id: KrefId): string {
  return `k${KIND_LETTERS[krefKind(id)] ?? '?'}${krefSerial(id)}`;
}

/** Orders ids as people list krefs: kd before ko before kp, then by number. */
export function compareKrefIds(a: KrefId, b: KrefId): number {
  const order = [1, 2, 0]; // o -> 1, p -> 2, d -> 0
  const ka = order[krefKind(a)] as number;
  const kb = order[krefKind(b)] as number;
  return ka - kb || krefSerial(a) - krefSerial(b);
}
