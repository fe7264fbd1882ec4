/**
 * The deterministic VMID (spec entry 2): FNV-1a 64-bit over the UID's UTF-8
 * bytes, placed in the range and stepped forward per attempt. A retry of the
 * same create lands on the same VMID, and the numbers equal the Go
 * provider's for the same UID and range. BigInt keeps all 64 bits exact.
 */
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;

export function fnv1a64(text: string): bigint {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK64;
  }
  return hash;
}

export interface VmidRange {
  min: number;
  max: number;
}

/** `min + (hash mod span + attempt mod span) mod span`, as the Go provider computes it. */
export function vmidFor(uid: string, range: VmidRange, attempt: number): number {
  const span = BigInt(range.max - range.min + 1);
  const offset = ((fnv1a64(uid) % span) + (BigInt(attempt) % span)) % span;
  return range.min + Number(offset);
}
