/**
 * Scalar readers for Proxmox JSON. Proxmox's Perl backend sends the same
 * field as a number in one answer and a string in another (F19: `cores: 1`
 * next to `memory: "1024"`), and booleans as 0/1. These accept every form
 * it really sends and produce one type.
 */
import { z } from 'zod';

const numericText = /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/;

/** A number, or a string holding one. */
export const pveNumber = z.union([
  z.number(),
  z
    .string()
    .regex(numericText, 'expected a number')
    .transform((s) => Number(s)),
]);

/** A whole number, or a string holding one. */
export const pveInteger = pveNumber.pipe(z.number().int());

/** A string; a number is turned into its decimal text. */
export const pveString = z.union([z.string(), z.number().transform((n) => String(n))]);

/** true/false, 1/0 or "1"/"0" as Proxmox sends flags. */
export const pveBoolean = z.union([
  z.boolean(),
  z.literal(0).transform(() => false),
  z.literal(1).transform(() => true),
  z.literal('0').transform(() => false),
  z.literal('1').transform(() => true),
]);

/** `iso, vztmpl,,images` → `['iso', 'vztmpl', 'images']`. */
export const splitPveList = (s: string): string[] =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);

/** A comma-separated list (`iso,vztmpl,images`) as an array; also accepts an array. */
export const pveList = z.union([z.string().transform(splitPveList), z.array(z.string())]);

/** What readScalarFast answers when the value needs its full zod reader (and maybe an error message). */
export const NEEDS_FULL_READ: unique symbol = Symbol('needs the full reader');

/** The readers above that have a fast form, by identity; `text` is a plain z.string(). */
export type FastScalarKind = 'text' | 'number' | 'integer' | 'string' | 'flag' | 'list';
export const fastScalarKinds = new Map<z.ZodType, FastScalarKind>([
  [pveNumber, 'number'],
  [pveInteger, 'integer'],
  [pveString, 'string'],
  [pveBoolean, 'flag'],
  [pveList, 'list'],
]);

/**
 * For the forms Proxmox usually sends, the value the zod reader of `kind`
 * would produce, without zod's parse context; NEEDS_FULL_READ for anything
 * else (strings holding numbers, wrong types), which the full reader then
 * accepts or words the error for. One switch, not a closure per kind: it
 * runs for every field of 5,000 entries.
 */
export function readScalarFast(kind: FastScalarKind, v: unknown): unknown {
  switch (kind) {
    case 'text':
    case 'string':
      return typeof v === 'string' ? v : NEEDS_FULL_READ;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? v : NEEDS_FULL_READ;
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : NEEDS_FULL_READ;
    case 'flag':
      if (v === true || v === 1 || v === '1') return true;
      return v === false || v === 0 || v === '0' ? false : NEEDS_FULL_READ;
    case 'list':
      return typeof v === 'string' ? splitPveList(v) : NEEDS_FULL_READ;
  }
}
