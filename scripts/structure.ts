/**
 * The structure's proof, runnable by anyone: `npm run structure`.
 *
 * Reads every product source file under main/, renderer/, shared/ and scripts/ with TypeScript's own import
 * scanner (static, type-only, dynamic and re-exports alike) and prints:
 *   - imports of core internals from outside main/core (must be 0: the core's face is main/core/index.ts),
 *   - imports of the core from the simulator (must be 0: it models Proxmox independently),
 *   - circles between areas and between files in main/ and renderer/ (must be 0; each found is listed),
 *   - imports up the provider's folders, rules <- calls <- cluster <- operations <- provider.ts (must be 0),
 *   - the count of `as unknown as` in main/,
 *   - files over 450 lines, and files over 300 lines whose header does not say why they are long.
 * `--json` prints the same as one JSON object (the test under test/unit/structure reads it);
 * the exit code is 1 when a must-be-0 count is not 0.
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_ROOTS = ['main', 'renderer', 'shared', 'scripts'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs'];
const LONG_FILE = 450;
const HEADER_NEEDED = 300;

/** A repository-relative path with forward slashes. */
type RelPath = string;

function listSources(dir: string): RelPath[] {
  const out: RelPath[] = [];
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(abs, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts')) out.push(toRel(path));
    }
  };
  if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  return out;
}

function toRel(abs: string): RelPath {
  return relative(ROOT, abs).split(sep).join('/');
}

function resolveImport(from: RelPath, spec: string): RelPath | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(ROOT, dirname(from), spec);
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => join(base, 'index' + ext))];
  // An import written with a .js suffix names the .ts file beside it.
  if (base.endsWith('.js')) candidates.unshift(base.slice(0, -3) + '.ts', base.slice(0, -3) + '.tsx');
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return toRel(candidate);
  }
  return undefined;
}

/** Every file's imports of other files of this tree. */
function readGraph(files: RelPath[]): Map<RelPath, RelPath[]> {
  const graph = new Map<RelPath, RelPath[]>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const targets = info.importedFiles
      .map((ref) => resolveImport(file, ref.fileName))
      .filter((target): target is RelPath => target !== undefined && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The area a file belongs to: main's top folders (core, ipc, app, …), each service under main/services,
 * the simulator; the renderer's shell (its top files), transport, stores, the shell's components, the common
 * building blocks and the views (one area: the view folders open each other's dialogs); shared/ and scripts/.
 */
export function areaOf(file: RelPath): string {
  const parts = file.split('/');
  if (parts[0] === 'main') {
    if (parts.length === 2) return 'main/' + parts[1]!.replace(/\.tsx?$/, '');
    if (parts[1] === 'services' && parts.length > 3) return `main/services/${parts[2]}`;
    return `main/${parts[1]}`;
  }
  if (parts[0] === 'renderer' && parts[1] === 'src') {
    if (parts.length === 3) return 'renderer/src';
    // The shell's parts (Nav, StatusBar, TaskPanel…) open views; the building blocks under common/ serve them all.
    if (parts[2] === 'components' && parts[3] === 'common') return 'renderer/src/components/common';
    return `renderer/src/${parts[2]}`;
  }
  return parts[0]!;
}

/** Strongly connected components with more than one member (Tarjan), each sorted, largest first. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return found.sort((a, b) => b.length - a.length);
}

/** For a circle, the arrows inside it (who imports whom), so a reader sees what ties it. */
function arrowsWithin(circle: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(circle);
  return circle.flatMap((from) => (graph.get(from) ?? []).filter((to) => members.has(to)).map((to) => `${from} -> ${to}`));
}

function areaGraph(fileGraph: Map<RelPath, RelPath[]>, witnesses: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [from, targets] of fileGraph) {
    const fromArea = areaOf(from);
    if (!graph.has(fromArea)) graph.set(fromArea, new Set());
    for (const to of targets) {
      const toArea = areaOf(to);
      if (toArea === fromArea) continue;
      graph.get(fromArea)!.add(toArea);
      const key = `${fromArea} -> ${toArea}`;
      if (!witnesses.has(key)) witnesses.set(key, `${from} -> ${to}`);
    }
  }
  return new Map([...graph].map(([area, targets]) => [area, [...targets]]));
}

const CORE = 'main/core/';
const CORE_FACE = 'main/core/index.ts';
const PROVIDER = 'main/core/provider/';
/** The provider's folders from the ground up (docs/core.md): each imports only those below it. */
const PROVIDER_LAYERS = ['rules', 'calls', 'cluster', 'operations'];

/** A provider file's floor: its folder's place in PROVIDER_LAYERS; a file directly in provider/ stands above them all. */
function providerFloor(file: RelPath): number {
  const folder = file.slice(PROVIDER.length).split('/');
  return folder.length === 1 ? PROVIDER_LAYERS.length : PROVIDER_LAYERS.indexOf(folder[0]!);
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** A header that says why a long file is long: its opening comment names that it is long, and why. */
function hasWhyLongHeader(text: string): boolean {
  const opening = /^\s*(?:\/\/[^\n]*\n\s*)+|^\s*\/\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
  return /\b(long|lines)\b[^.]*\bbecause\b|\bwhy (it is )?long\b|\bLong because\b/i.test(opening);
}

export interface StructureReport {
  coreInternalImports: string[];
  simulatorCoreImports: string[];
  areaCircles: { areas: string[]; arrows: string[] }[];
  fileCircles: { files: string[]; arrows: string[] }[];
  providerUpImports: string[];
  asUnknownAs: { count: number; files: Record<string, number> };
  over450: { file: string; lines: number }[];
  over300WithoutWhy: { file: string; lines: number }[];
}

export function measure(): StructureReport {
  const files = SOURCE_ROOTS.flatMap(listSources).sort();
  const graph = readGraph(files);

  const coreInternalImports: string[] = [];
  const simulatorCoreImports: string[] = [];
  for (const [from, targets] of graph) {
    if (from.startsWith(CORE)) continue;
    for (const to of targets) {
      if (!to.startsWith(CORE)) continue;
      if (from.startsWith('main/simulator/')) simulatorCoreImports.push(`${from} -> ${to}`);
      if (to !== CORE_FACE) coreInternalImports.push(`${from} -> ${to}`);
    }
  }

  // Circles are judged in main/ and renderer/ (shared/ and scripts/ are leaves and roots).
  const inScope = (file: RelPath): boolean => file.startsWith('main/') || file.startsWith('renderer/');
  const scoped = new Map([...graph].filter(([file]) => inScope(file)).map(([file, targets]) => [file, targets.filter(inScope)]));
  const fileCircles = circlesOf(scoped).map((circle) => ({ files: circle, arrows: arrowsWithin(circle, scoped) }));
  const witnesses = new Map<string, string>();
  const areas = areaGraph(scoped, witnesses);
  const areaCircles = circlesOf(areas).map((circle) => ({
    areas: circle,
    arrows: arrowsWithin(circle, areas).map((arrow) => `${arrow}   (${witnesses.get(arrow)})`),
  }));

  // An import from a lower floor of the provider to a higher one, or into a folder not named in PROVIDER_LAYERS.
  const providerUpImports: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith(PROVIDER)) continue;
    for (const to of targets) {
      if (!to.startsWith(PROVIDER)) continue;
      const [fromFloor, toFloor] = [providerFloor(from), providerFloor(to)];
      if (fromFloor < 0 || toFloor < 0 || toFloor > fromFloor) providerUpImports.push(`${from} -> ${to}`);
    }
  }

  const asUnknownAs = { count: 0, files: {} as Record<string, number> };
  const over450: { file: string; lines: number }[] = [];
  const over300WithoutWhy: { file: string; lines: number }[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (file.startsWith('main/')) {
      const hits = text.match(/\bas unknown as\b/g)?.length ?? 0;
      if (hits > 0) {
        asUnknownAs.count += hits;
        asUnknownAs.files[file] = hits;
      }
    }
    if (!inScope(file) && !file.startsWith('shared/')) continue;
    const lines = lineCount(text);
    if (lines > LONG_FILE) over450.push({ file, lines });
    if (lines > HEADER_NEEDED && !hasWhyLongHeader(text)) over300WithoutWhy.push({ file, lines });
  }
  const byLines = (a: { lines: number }, b: { lines: number }): number => b.lines - a.lines;
  return {
    coreInternalImports,
    simulatorCoreImports,
    areaCircles,
    fileCircles,
    providerUpImports,
    asUnknownAs,
    over450: over450.sort(byLines),
    over300WithoutWhy: over300WithoutWhy.sort(byLines),
  };
}

/** The counts that must be 0, by name. */
export function mustBeZero(report: StructureReport): Record<string, number> {
  return {
    'imports of core internals from outside main/core': report.coreInternalImports.length,
    'imports of the core from the simulator': report.simulatorCoreImports.length,
    'circles between areas': report.areaCircles.length,
    'circles between files': report.fileCircles.length,
    "imports up the provider's folders": report.providerUpImports.length,
  };
}

function print(report: StructureReport): void {
  const section = (title: string, count: number, rows: string[]): void => {
    console.log(`${title}: ${count}`);
    for (const row of rows) console.log(`  ${row}`);
  };
  section('Imports of core internals from outside main/core (must be 0)', report.coreInternalImports.length, report.coreInternalImports);
  section('Imports of the core from main/simulator (must be 0)', report.simulatorCoreImports.length, report.simulatorCoreImports);
  section(
    'Circles between areas in main/ and renderer/ (must be 0)',
    report.areaCircles.length,
    report.areaCircles.flatMap((circle) => [circle.areas.join(' <-> '), ...circle.arrows.map((arrow) => `  ${arrow}`)]),
  );
  section(
    'Circles between files in main/ and renderer/ (must be 0)',
    report.fileCircles.length,
    report.fileCircles.flatMap((circle) => [circle.files.join(' <-> '), ...circle.arrows.map((arrow) => `  ${arrow}`)]),
  );
  section("Imports up the provider's folders (must be 0)", report.providerUpImports.length, report.providerUpImports);
  section(
    '`as unknown as` in main/',
    report.asUnknownAs.count,
    Object.entries(report.asUnknownAs.files).map(([file, count]) => `${file}: ${count}`),
  );
  section(
    `Files over ${LONG_FILE} lines`,
    report.over450.length,
    report.over450.map((row) => `${row.file}: ${row.lines}`),
  );
  section(
    `Files over ${HEADER_NEEDED} lines without a header saying why`,
    report.over300WithoutWhy.length,
    report.over300WithoutWhy.map((row) => `${row.file}: ${row.lines}`),
  );
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const report = measure();
  if (process.argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
  else print(report);
  const failing = Object.entries(mustBeZero(report)).filter(([, count]) => count > 0);
  if (failing.length > 0) {
    if (!process.argv.includes('--json')) console.log(`\nNot 0: ${failing.map(([name, count]) => `${name} (${count})`).join(', ')}`);
    process.exitCode = 1;
  }
}
