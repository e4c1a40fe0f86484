/**
 * Measures what the home page downloads before it can render (issue 6: under 200 KB gzipped, with
 * deck.gl and recharts only in lazy chunks): the entry chunk and everything it imports statically, i.e.
 * the JavaScript the browser must fetch before anything runs, plus the home route's own lazy chunk,
 * which the router loads at once. It measures the test stack's production build when there is one
 * (its chunk graph written by vite.config.ts's bundleGraph, the files as served), else builds the app in
 * memory with the project's Vite config.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { ROOT_DIR } from '../../supabase/project/index.ts';

/** What the measure needs of a chunk (a Rolldown output chunk, or its entry in a written graph). */
interface Chunk {
  fileName: string;
  imports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
  moduleIds: string[];
  code: string | Uint8Array;
}

export interface BundleReport {
  /** Which build was measured: the stack's build folder, or 'in memory'. */
  source: string;
  /** Entry chunk plus everything it imports statically, gzipped bytes. */
  initialGzip: number;
  initialFiles: string[];
  /** The initial JS plus the home route's chunk and its static imports. */
  homeGzip: number;
  homeFiles: string[];
  /** Modules of the initial JS, as paths relative to the project. */
  initialModules: string[];
}

/** Libraries that must only arrive in lazy chunks. */
export const HEAVY_LIBRARIES = ['deck.gl', '@deck.gl/', '@luma.gl/', 'recharts', 'd3-', 'pdf-lib'];

function closure(start: Chunk, byName: Map<string, Chunk>): Chunk[] {
  const seen = new Map<string, Chunk>();
  const visit = (chunk: Chunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const next = byName.get(name);
      if (next) visit(next);
    }
  };
  visit(start);
  return [...seen.values()];
}

const gzipSize = (chunks: Chunk[]) => chunks.reduce((sum, c) => sum + gzipSync(c.code).length, 0);

/** The chunks of the test stack's build (supabase/tests/global-setup.ts), or null when it has none. */
async function stackBuildChunks(): Promise<{ source: string; chunks: Chunk[] } | null> {
  const dir = process.env.STACK_APP_BUILD_DIR;
  const graphFile = process.env.STACK_APP_BUNDLE_GRAPH;
  if (!dir || !graphFile) return null;
  const graph = JSON.parse(await fs.readFile(graphFile, 'utf8')) as {
    outDir: string;
    chunks: Omit<Chunk, 'code'>[];
  };
  if (path.resolve(graph.outDir) !== path.resolve(dir)) {
    throw new Error(`${graphFile} describes ${graph.outDir}, not the stack's build ${dir}`);
  }
  const chunks = await Promise.all(
    graph.chunks.map(async (c) => ({ ...c, code: await fs.readFile(path.join(dir, c.fileName)) })),
  );
  return { source: dir, chunks };
}

/** Builds the app in memory, exactly as `npm run build` does. */
async function inMemoryChunks(): Promise<{ source: string; chunks: Chunk[] }> {
  // vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      root: ROOT_DIR,
      configFile: path.join(ROOT_DIR, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { write: false },
    });
  } finally {
    process.env.NODE_ENV = previousNodeEnv;
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs
    .flatMap((o) => o.output)
    .filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  return { source: 'in memory', chunks };
}

export async function measureHomeBundle(): Promise<BundleReport> {
  const { source, chunks } = (await stackBuildChunks()) ?? (await inMemoryChunks());
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  const home = chunks.find((c) => c.facadeModuleId?.endsWith(path.join('src', 'app', 'routes', 'home.tsx')));
  if (!entry || !home) throw new Error(`the build (${source}) has no entry chunk or no home route chunk`);

  const initial = closure(entry, byName);
  const homeAll = [...new Map([...initial, ...closure(home, byName)].map((c) => [c.fileName, c])).values()];
  return {
    source,
    initialGzip: gzipSize(initial),
    initialFiles: initial.map((c) => c.fileName),
    homeGzip: gzipSize(homeAll),
    homeFiles: homeAll.map((c) => c.fileName),
    initialModules: initial.flatMap((c) => c.moduleIds).map((id) => path.relative(ROOT_DIR, id)),
  };
}
