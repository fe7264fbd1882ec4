/**
 * Imported FIRST by the renderer's entry, before any module that builds a
 * zod schema. zod v4 probes `new Function('')` the first time it builds an
 * object schema, unless told it runs jitless; under the strict CSP (no
 * 'unsafe-eval') that probe is refused and reported as a violation even
 * though zod swallows the error. ES modules run in import order, so this
 * module's body runs before App, the stores and shared/ are evaluated.
 */
import { z } from 'zod';

z.config({ jitless: true });
