/**
 * Automatic kref names, after how each kref first appeared (the convention
 * of SLOG-FORMAT.md, "Annotation files"):
 *
 * - a send's result promise: `${method}-${NN}/rp`, NN counting the messages
 *   of that method in the slog (vats' sends and the kernel's), without
 *   `-NN` when there is only one;
 * - promises passed in a message's arguments: `${method}-${NN}/argp`, then
 *   `/arg2p`, `/arg3p` for the second and third new ones of that message;
 * - promises inside the value a promise P was resolved to: `${P}/r/p` when P
 *   is named `.../rp` (`handleOffer-3/rp` -> `handleOffer-3/r/p`), else
 *   `${P}/p` (`handleOffer-3/r/p` -> `handleOffer-3/r/p/p`), `/p2` for the
 *   second; four or more steps down such a chain print as `/p{4}`;
 * - an object that is the whole resolution of P: `${method}-${NN}/r`; one
 *   inside it, by its path there: `makePair-1/r.left`, `.../r.brands[0]`;
 * - an object first passed in arguments, by its argument (from 1) and path:
 *   `register-1/arg2`, `foo-3/arg1.brand`;
 * - a vat's root object (its `o+0`, or an entry of bootstrap's `vats`
 *   record): `${vatName}.root`;
 * - a device the kernel handed out under a name (bootstrap's `devices`
 *   record): that name (`timer`); one returned by a device invoke:
 *   `${device}.${method}-${NN}/r`.
 *
 * A kref first seen where nothing says how it was made (it predates the
 * slog) gets no name.
 */
import type { Annotations } from '../../model/annotations.js';
import { compareKrefIds, formatKref, krefId, KIND_DEVICE, KIND_OBJECT, KIND_PROMISE, type KrefId } from '../../model/kref-ids.js';
import { bootstrapRecordKey, Origin, type KrefFacts, type KrefModel } from '../../model/krefs.js';
import type { VatNames } from '../../model/vats.js';

/** `handleOffer-3/rp` -> `handleOffer-3/r`; any other name N -> `N/r`. */
function resolutionBase(parent: string): string {
  return parent.endsWith('/rp') ? `${parent.slice(0, -3)}/r` : `${parent}/r`;
}

/** The k-th new promise in the resolution of `parent`. */
function resolutionPromise(parent: string, ordinal: number): string {
  if (ordinal > 1) return `${resolutionBase(parent)}/p${ordinal}`;
  const chain = /\/p\{(\d+)\}$/.exec(parent);
  if (chain) return `${parent.slice(0, chain.index)}/p{${Number(chain[1]) + 1}}`;
  const name = parent.endsWith('/rp') ? `${parent.slice(0, -3)}/r/p` : `${parent}/p`;
  const run = /(?:\/p)+$/.exec(name);
  const steps = run ? run[0].length / 2 : 0;
  return steps >= 4 && run ? `${name.slice(0, run.index)}/p{${steps}}` : name;
}

/** A path in a message's arguments, `[1].brand`, as `arg2.brand`. */
function argPath(path: string | undefined): string {
  const m = path === undefined ? null : /^\[(\d+)\](.*)$/.exec(path);
  return m ? `arg${Number(m[1]) + 1}${m[2] ?? ''}` : `arg${path ?? ''}`;
}

/** The record key a value sits under at the end of its path (`[1].timer` -> `timer`). */
function lastKey(path: string | undefined): string | undefined {
  const m = path === undefined ? null : /\.([^.[\]]+)$/.exec(path);
  return m?.[1];
}

export class AutoNames {
  private readonly cache = new Map<KrefId, string | null>();

  constructor(
    readonly model: KrefModel,
    readonly vats: VatNames,
  ) {}

  /** A vat's name (annotated or from the slog), else its ID. */
  vatName(vatID: string | undefined): string {
    if (vatID === undefined) return 'the kernel';
    return this.vats.lookup(vatID) ?? vatID;
  }

  /** `deposit-3`, or `deposit` when only one deposit was sent; `deposit-?` when the slog does not say which. */
  messageName(methodId: number, count: number): string {
    const method = this.model.methods.get(methodId) ?? '<unknown method>';
    if (count < 0) return `${method}-?`;
    return this.model.sendCount(methodId) <= 1 ? method : `${method}-${count}`;
  }

  private invokeName(methodId: number, count: number): string {
    const method = this.model.methods.get(methodId) ?? '<unknown method>';
    return this.model.invokeCount(methodId) <= 1 ? method : `${method}-${count}`;
  }

  /** The automatic name of a kref, or undefined when nothing says how it was made. */
  name(id: KrefId): string | undefined {
    if (!this.cache.has(id)) {
      // Names lean on their parent's (a promise's resolution, a device's invoke):
      // name the chain from its top down, without recursion (chains can be long).
      const chain = [id];
      const inChain = new Set(chain);
      for (let cur = id; ; ) {
        const parent = this.model.parent(cur);
        if (parent < 0 || this.cache.has(parent) || !this.model.has(parent) || inChain.has(parent)) break;
        chain.push(parent);
        inChain.add(parent);
        cur = parent;
      }
      for (let i = chain.length - 1; i >= 0; i -= 1) {
        const k = chain[i] as KrefId;
        this.cache.set(k, this.compute(k) ?? null);
      }
    }
    return this.cache.get(id) ?? undefined;
  }

  /** The name to print: the annotation file's, else the automatic one, else `@ko12`. */
  shown(id: KrefId, annotations: Annotations): string {
    const kref = formatKref(id);
    return annotations.kernelRefs.get(kref) ?? this.name(id) ?? `@${kref}`;
  }

  /** Vats by the name bootstrap's `vats` record gives their root (model/krefs.ts bootstrapNames); made when first asked, once the slog was read. */
  private recordNames: Map<string, string> | undefined;

  /** The name bootstrap's `vats` record gives a vat's root, for a vat nothing else names. */
  private recordName(vatID: string): string | undefined {
    if (!this.recordNames) {
      this.recordNames = new Map();
      for (const [id, name] of this.model.bootstrapNames) {
        const f = this.model.facts(id);
        if (f?.root && f.owner !== undefined && !this.recordNames.has(f.owner)) this.recordNames.set(f.owner, name);
      }
    }
    return this.recordNames.get(vatID);
  }

  /** The parent's name, or its kref when it has none. */
  private parentName(parent: KrefId): string {
    return this.cache.get(parent) ?? formatKref(parent);
  }

  private compute(id: KrefId): string | undefined {
    const f = this.model.facts(id);
    if (!f) return undefined;
    // A vat's root: its vat's name, else the name bootstrap's `vats` record gives it, else its vat ID.
    if (f.root && f.owner !== undefined) return `${this.vats.lookup(f.owner) ?? this.recordName(f.owner) ?? f.owner}.root`;
    const promise = f.kind === KIND_PROMISE;
    switch (f.origin) {
      case Origin.SEND_RESULT:
      case Origin.KERNEL_RESULT:
        return `${this.messageName(f.methodId, f.count)}/rp`;
      case Origin.SEND_ARG:
      case Origin.KERNEL_ARG: {
        const message = this.messageName(f.methodId, f.count);
        if (promise) return `${message}/arg${f.ordinal > 1 ? f.ordinal : ''}p`;
        if (f.origin === Origin.KERNEL_ARG) {
          // The kernel's bootstrap(vats, devices): `{comms: root, ...}` names vat roots, `{timer: device}` devices.
          const root = bootstrapRecordName(f);
          if (root !== undefined) return `${root}.root`;
          const key = f.kind === KIND_DEVICE ? lastKey(f.path) : undefined;
          if (key !== undefined) return key;
        }
        return `${message}/${argPath(f.path)}`;
      }
      case Origin.RESOLUTION: {
        const parent = this.parentName(f.parent);
        return promise ? resolutionPromise(parent, f.ordinal) : `${resolutionBase(parent)}${f.path ?? ''}`;
      }
      case Origin.INVOKE_RESULT:
      case Origin.INVOKE_ARG: {
        const invoke = `${this.parentName(f.parent)}.${this.invokeName(f.methodId, f.count)}`;
        const result = f.origin === Origin.INVOKE_RESULT;
        if (promise) return `${invoke}/${result ? 'r/p' : 'argp'}${f.ordinal > 1 ? f.ordinal : ''}`;
        return result ? `${invoke}/r${f.path ?? ''}` : `${invoke}/${argPath(f.path)}`;
      }
      default:
        return undefined;
    }
  }
}

/** How a kref came to be, in words (for `slogulate kref`). */
export function describeOrigin(f: KrefFacts, names: AutoNames, display: (id: KrefId) => string): string {
  const message = f.methodId >= 0 ? names.messageName(f.methodId, f.count) : '?';
  const inArgs = f.origin === Origin.SEND_ARG || f.origin === Origin.KERNEL_ARG || f.origin === Origin.INVOKE_ARG;
  const where = f.path ? ` (at ${inArgs ? argPath(f.path) : f.path})` : '';
  switch (f.origin) {
    case Origin.SEND_RESULT:
      return `the result promise of send ${message}`;
    case Origin.KERNEL_RESULT:
      return `the result promise of ${message}, a message from the kernel`;
    case Origin.SEND_ARG:
      return `passed in the arguments of send ${message}${where}`;
    case Origin.KERNEL_ARG:
      return `passed in the arguments of ${message}, a message from the kernel${where}`;
    case Origin.RESOLUTION:
      return `passed in the resolution of ${display(f.parent)}${where}`;
    case Origin.INVOKE_RESULT:
      return `returned by invoke ${display(f.parent)}.${f.method ?? '?'}${where}`;
    case Origin.INVOKE_ARG:
      return `passed to invoke ${display(f.parent)}.${f.method ?? '?'}${where}`;
    default:
      return 'first seen here (made before the slog, or by the kernel)';
  }
}

/** A JSON annotation file, keys in a fixed order. */
export interface AnnotationJson {
  comment?: string;
  bigWidth?: number;
  vatNames?: Record<string, string>;
  crankLabels?: Record<string, string>;
  kernelRefs: Record<string, string>;
  vatRefs?: Record<string, Record<string, string>>;
}

/**
 * The annotation file `slogulate annotate` writes: every name in `merge`
 * kept as it is (and its other keys passed through), every other kref the
 * slog shows named automatically. kernelRefs are listed kd, ko, kp, each by
 * number. An automatic name that some other kref already has gets ` #2`.
 */
export function annotationFile(names: AutoNames, merge: Annotations | undefined): AnnotationJson {
  const kept = merge?.kernelRefs ?? new Map<string, string>();
  const used = new Set(kept.values());
  const ids = new Set<KrefId>(names.model.ids());
  for (const kref of kept.keys()) {
    const id = krefId(kref);
    if (id >= 0) ids.add(id);
  }
  const kernelRefs: Record<string, string> = {};
  const keptOut = new Set<string>();
  for (const id of [...ids].sort(compareKrefIds)) {
    const kref = formatKref(id);
    const mine = kept.get(kref);
    if (mine !== undefined) {
      kernelRefs[kref] = mine;
      keptOut.add(kref);
      continue;
    }
    let name = names.name(id);
    if (name === undefined) continue;
    if (used.has(name)) {
      let n = 2;
      while (used.has(`${name} #${n}`)) n += 1;
      name = `${name} #${n}`;
    }
    used.add(name);
    kernelRefs[kref] = name;
  }
  // Names in the merged file whose key is no kref this model understands (k.. with a huge number): kept as they are.
  for (const [kref, name] of kept) if (!keptOut.has(kref)) kernelRefs[kref] = name;

  const result: Partial<AnnotationJson> = {};
  if (merge?.comment !== undefined) result.comment = merge.comment;
  if (merge?.bigWidth !== undefined) result.bigWidth = merge.bigWidth;
  if (merge?.vatNames.size) result.vatNames = Object.fromEntries(merge.vatNames);
  if (merge?.crankLabels.size) {
    const labels = [...merge.crankLabels].sort((a, b) => a[0] - b[0]);
    result.crankLabels = Object.fromEntries(labels.map(([crank, label]) => [String(crank), label]));
  }
  result.kernelRefs = kernelRefs;
  if (merge?.vatRefs.size) {
    result.vatRefs = Object.fromEntries([...merge.vatRefs].map(([vat, table]) => [vat, Object.fromEntries(table)]));
  }
  return result as AnnotationJson;
}

/** The key an object has in the kernel's bootstrap(vats, ...) record (`{comms: root, ...}`): its vat's name there. */
function bootstrapRecordName(f: KrefFacts): string | undefined {
  if (f.origin !== Origin.KERNEL_ARG || f.method !== 'bootstrap' || f.kind !== KIND_OBJECT) return undefined;
  return bootstrapRecordKey(f.path);
}
