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

/** A comma-separated list (`iso,vztmpl,images`) as an array; also accepts an array. */
export const pveList = z.union([
  z.string().transform((s) =>
    s
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0),
  ),
  z.array(z.string()),
]);
