/**
 * Import cycles among the `src` files of workspace packages, found with the TypeScript compiler's own module
 * resolution. Every kind of import counts: static, `import type`, `export ... from` (`export *` included), `import()`
 * expressions and `import("...")` types. Resolution follows what Biome's `noImportCycles` does not: the package's own
 * name, `#` subpath imports and the `@zarrkit/source` condition, once as Node resolves (the "node" condition) and once
 * as a bundler does (without it), so both variants of a conditional import are followed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/** One import of one file. */
export interface ImportEdge {
  /** The importing file (absolute). */
  from: string;
  /** The file it resolves to (absolute). */
  to: string;
  /** The specifier as written, e.g. "./data-types.js". */
  specifier: string;
  /** 1-based line of the import. */
  line: number;
}

/** A closed chain of imports, its last edge leading back to the first edge's file, and its tangle's size. */
export interface ImportCycle {
  /** The imports around the cycle, in order. */
  edges: ImportEdge[];
  /** Files in the strongly connected set the cycle belongs to (at least the cycle's own). */
  tangle: string[];
}

const SOURCE_EXTENSIONS = /\.(?:[cm]?ts|tsx|[cm]?js)$/;

/** The package directories `pnpm-workspace.yaml` at `root` lists (entries `dir/*` or `dir`). */
export function workspacePackages(root: string): string[] {
  const text = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const entries = [...text.matchAll(/^\s*-\s*["']?([^"'\s#]+)["']?\s*$/gm)].map((match) => match[1]!);
  const dirs: string[] = [];
  for (const entry of entries) {
    if (entry.endsWith("/*")) {
      const parent = join(root, entry.slice(0, -2));
      for (const name of readdirSync(parent).sort()) {
        const dir = join(parent, name);
        if (isFile(join(dir, "package.json"))) dirs.push(dir);
      }
    } else if (!/[*?{[!]/.test(entry)) {
      if (isFile(join(root, entry, "package.json"))) dirs.push(join(root, entry));
    } else {
      throw new Error(`pnpm-workspace.yaml: package glob ${JSON.stringify(entry)} is not of the form "dir/*" or "dir"`);
    }
  }
  return dirs;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Source files below `dir` (declaration files excluded). */
function sourceFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules") return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE_EXTENSIONS.test(name) && !/\.d\.[cm]?ts$/.test(name) ? [path] : [];
  });
}

/** The package's compiler options (its tsconfig.json when it has one), made to resolve JavaScript files too. */
function compilerOptions(packageDir: string): ts.CompilerOptions {
  const configPath = join(packageDir, "tsconfig.json");
  let options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  if (isFile(configPath)) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
        },
      },
    );
    if (parsed) options = parsed.options;
  }
  return { ...options, allowJs: true };
}

/** Every module specifier `file` names, with its line. */
function specifiers(file: string): { specifier: string; line: number }[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The imports of the `src` files of `packageDirs` that resolve to such files (of any of these packages). */
export function importGraph(packageDirs: readonly string[]): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  const owners = new Map<string, ts.CompilerOptions[]>();
  for (const dir of packageDirs) {
    const node = compilerOptions(resolve(dir));
    // A bundler ignores the "node" condition Node resolution always applies: the browser variants of conditional
    // imports are found this way.
    const bundler: ts.CompilerOptions = {
      ...node,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    };
    for (const file of sourceFiles(join(resolve(dir), "src"))) {
      graph.set(file, []);
      owners.set(file, [node, bundler]);
    }
  }
  for (const [file, optionSets] of owners) {
    const edges = graph.get(file)!;
    for (const { specifier, line } of specifiers(file)) {
      const targets = new Set<string>();
      for (const options of optionSets) {
        const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule?.resolvedFileName;
        if (resolved !== undefined) targets.add(ts.sys.realpath ? ts.sys.realpath(resolved) : resolved);
      }
      for (const to of targets) {
        if (to !== file && graph.has(to)) edges.push({ from: file, to, specifier, line });
      }
    }
  }
  return graph;
}

/** Strongly connected sets of more than one file (Tarjan's algorithm, iterative: deep chains must not overflow). */
function tangles(graph: Map<string, ImportEdge[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; edge: number }[] = [{ file: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.file)!;
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!.to;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) === index.get(frame.file)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.file);
        if (members.length > 1) found.push(members.sort());
      }
    }
  }
  return found;
}

/** The shortest chain of imports from `start` back to itself inside `members`. */
function shortestCycle(graph: Map<string, ImportEdge[]>, start: string, members: ReadonlySet<string>): ImportEdge[] {
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const edge of graph.get(queue[i]!)!) {
      if (!members.has(edge.to)) continue;
      if (edge.to === start) {
        const chain = [edge];
        for (let at = edge.from; at !== start; at = via.get(at)!.from) chain.unshift(via.get(at)!);
        return chain;
      }
      if (!via.has(edge.to)) {
        via.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  throw new Error(`${start} is in a strongly connected set but no import leads back to it`);
}

/** Every import cycle among the `src` files of `packageDirs`: one (a shortest) per tangle of files. */
export function findImportCycles(packageDirs: readonly string[]): ImportCycle[] {
  const graph = importGraph(packageDirs);
  return tangles(graph).map((tangle) => ({ edges: shortestCycle(graph, tangle[0]!, new Set(tangle)), tangle }));
}

/** A cycle as a message: each import with its file and line, paths relative to `root`. */
export function describeCycle(cycle: ImportCycle, root: string): string {
  const steps = cycle.edges.map(
    (edge) => `${relative(root, edge.from)}:${edge.line} imports ${JSON.stringify(edge.specifier)}`,
  );
  const others = cycle.tangle.length - cycle.edges.length;
  const more = others === 0 ? "" : ` (${others} more file${others === 1 ? "" : "s"} in the same tangle)`;
  return `${steps.join(" -> ")} -> back to ${relative(root, cycle.edges[0]!.from)}${more}`;
}
