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

/** What a fast reader answers when the value needs its full zod reader (and maybe an error message). */
export const NEEDS_FULL_READ: unique symbol = Symbol('needs the full reader');

/**
 * A fast reader: for the forms Proxmox usually sends, the value its zod
 * reader above would produce, without building zod's parse context;
 * NEEDS_FULL_READ for anything else (strings holding numbers, wrong types).
 */
export type FastScalarReader = (v: unknown) => unknown;

const finiteNumber = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : NEEDS_FULL_READ);

const flags = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ['1', true],
  ['0', false],
]);

/** The fast reader of each scalar reader above, by identity. */
export const fastScalarReaders = new Map<z.ZodType, FastScalarReader>([
  [pveNumber, finiteNumber],
  [pveInteger, (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : NEEDS_FULL_READ)],
  [pveString, (v) => (typeof v === 'string' ? v : NEEDS_FULL_READ)],
  [pveBoolean, (v) => flags.get(v) ?? NEEDS_FULL_READ],
  [pveList, (v) => (typeof v === 'string' ? splitPveList(v) : NEEDS_FULL_READ)],
]);
