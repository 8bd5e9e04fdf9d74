// How parity compares events, and the two ways an allowance may let them move: a permutation
// checked pair by pair (reorderable), and two adjacent segments trading places (adjacentSwap).
// Split from parity.ts, which owns the rules; this owns equality and the reordering walks.
import { type AllowedDifference, type PairEvidence, type ParityDifference, type ParityEvent } from "./parity-types.js";

export interface WalkContext {
  used: Set<string>;
  reordered: string[];
  pairs?: PairEvidence;
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

/** How many events from `start` belong to the arrival there: up to the next arrival or send. */
function segment(events: ParityEvent[], start: number): number {
  let end = start + 1;
  while (end < events.length && events[end]!.kind !== "frame.arrived" && events[end]!.kind !== "frame.sent") end++;
  return Math.min(end, events.length) - start;
}

/** The events at i in memory and at j in the other run are two adjacent segments, swapped. */
export function swappedSegments(memory: ParityEvent[], other: ParityEvent[], i: number, j: number): number {
  const a = segment(memory, i);
  const b = i + a < memory.length && memory[i + a]!.kind === "frame.arrived" ? segment(memory, i + a) : 0;
  if (b === 0) return 0;
  const swapped = [...memory.slice(i + a, i + a + b), ...memory.slice(i, i + a)];
  return swapped.every((e, k) => other[j + k] !== undefined && same(e, other[j + k]!)) ? a + b : 0;
}

/**
 * The same events in both runs, each matched once (up to the rule's detailKeys); where two swap
 * places, the rule's `reorderable` must allow that very pair.
 */
export function permuted(memory: ParityEvent[], other: ParityEvent[], rule: AllowedDifference, used: Set<string>, reordered: string[]): ParityDifference | undefined {
  const taken = new Set<number>();
  const at: number[] = [];
  for (const [i, m] of memory.entries()) {
    const j = other.findIndex((o, k) => !taken.has(k) && sameExcept(m, o, rule.detailKeys ?? []));
    if (j === -1) return { sequence: rule.kind, index: i, otherIndex: -1, memory: m, other: undefined };
    taken.add(j);
    at.push(j);
  }
  const extra = other.findIndex((_, k) => !taken.has(k));
  if (extra !== -1) return { sequence: rule.kind, index: -1, otherIndex: extra, memory: undefined, other: other[extra] };
  for (let i = 0; i < memory.length; i++) {
    for (let k = i + 1; k < memory.length; k++) {
      if (at[i]! < at[k]!) continue;
      if (!rule.reorderable!(memory[i]!, memory[k]!)) return { sequence: rule.kind, index: k, otherIndex: at[k]!, memory: memory[k], other: other[at[i]!] };
      used.add(rule.reorderReason ?? rule.reason);
      reordered.push(`${rule.kind}: ${eventName(memory[k]!)} before ${eventName(memory[i]!)}`);
    }
  }
  return undefined;
}

export const eventName = (e: ParityEvent) => `${e.frameType ?? ""} ${e.method ?? ""}${e.id !== undefined ? ` #${e.id}` : ""}`.trim();

export const same = (a: ParityEvent, b: ParityEvent): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));

export function sameExcept(a: ParityEvent, b: ParityEvent, keys: readonly string[]): boolean {
  const strip = (e: ParityEvent): ParityEvent => {
    const detail = Object.fromEntries(Object.entries(e.detail ?? {}).filter(([k]) => !keys.includes(k)));
    return { ...e, detail };
  };
  return same(strip(a), strip(b));
}

