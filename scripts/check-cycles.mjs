#!/usr/bin/env node
// No import circles: every import of src/ and webview/ (type-only imports too: a type that two
// files take from each other still ties their designs together) is resolved as the compiler
// resolves it, and the strongly connected components of that graph (Tarjan) are reported, each
// with its files and one loop through them. Exit code 1 when there is any. `npm run lint` runs it.
// Run: node scripts/check-cycles.mjs [folder ...]   (default: src webview)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The compiler options of a tsconfig file (its `extends` followed), for resolving imports. */
export function compilerOptionsOf(configFile) {
  const read = ts.readConfigFile(configFile, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configFile)).options;
}

/** Every .ts/.tsx file (not .d.ts) under `dir`, sorted. */
export function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(p));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** The module names a file imports: import and export declarations (`type` ones too), import(), require(). */
export function importedNames(text) {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The import graph of `files`: file -> the files of the set it imports. `optionsFor(file)` gives
 * the compiler options a file is compiled with (imports resolve as that project resolves them).
 */
export function importGraph(files, optionsFor) {
  const inSet = new Set(files.map((f) => path.resolve(f)));
  const graph = new Map();
  for (const file of inSet) {
    const options = optionsFor(file);
    const targets = new Set();
    for (const name of importedNames(fs.readFileSync(file, 'utf8'))) {
      const r = ts.resolveModuleName(name, file, options, ts.sys).resolvedModule;
      const target = r && path.resolve(r.resolvedFileName);
      if (target && inSet.has(target) && target !== file) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan's algorithm, iterative). */
export function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ v: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.v) ?? [];
      if (frame.i < edges.length) {
        const w = edges[frame.i++];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent), low.get(frame.v)));
      }
      if (low.get(frame.v) === index.get(frame.v)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.v);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One loop through a circle: from its first file, the shortest way back to it (breadth first). */
export function loopThrough(graph, component) {
  const members = new Set(component);
  const first = component[0];
  const cameFrom = new Map();
  const queue = [first];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === first) {
        const loop = [first];
        for (let u = v; u !== first; u = cameFrom.get(u)) loop.splice(1, 0, u);
        return [...loop, first];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [first];
}

/**
 * The circles among the files under `folders` of project `root`: each as its files and one loop
 * (paths relative to `root`). Files under webview/ resolve with tsconfig.webview.json, others with
 * tsconfig.json.
 */
export function findCircles(root, folders = ['src', 'webview']) {
  const main = compilerOptionsOf(path.join(root, 'tsconfig.json'));
  const webviewConfig = path.join(root, 'tsconfig.webview.json');
  const web = fs.existsSync(webviewConfig) ? compilerOptionsOf(webviewConfig) : main;
  const webDir = path.join(root, 'webview') + path.sep;
  const files = folders.flatMap((f) => sourceFiles(path.join(root, f)));
  const graph = importGraph(files, (file) => (file.startsWith(webDir) ? web : main));
  const rel = (p) => path.relative(root, p).split(path.sep).join('/');
  return circles(graph).map((component) => ({
    files: component.map(rel),
    loop: loopThrough(graph, component).map(rel),
  }));
}

/** The report printed for `found` (empty when there is no circle). */
export function describeCircles(found) {
  return found
    .map(
      (c, i) =>
        `Import circle ${i + 1} (${c.files.length} files): ${c.loop.join(' -> ')}\n` +
        c.files.map((f) => `  ${f}`).join('\n'),
    )
    .join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const folders = process.argv.slice(2);
  const found = findCircles(root, folders.length > 0 ? folders : undefined);
  if (found.length > 0) {
    console.error(describeCircles(found));
    console.error(
      `\n${found.length} import circle${found.length === 1 ? '' : 's'}: a file must not reach itself through imports (type-only ones too). Move what both sides need into a file both import, or let one side take it as a parameter.`,
    );
    process.exit(1);
  }
  console.log('No import circles.');
}
