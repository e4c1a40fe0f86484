/**
 * Measures what the home page downloads before it can render (issue 6: under 200 KB gzipped, with
 * deck.gl and recharts only in lazy chunks). Builds the app in memory with the project's Vite
 * config and follows the entry chunk's static imports, i.e. the JavaScript the browser must fetch
 * before anything runs, plus the home route's own lazy chunk, which the router loads at once.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { ROOT_DIR } from '../../supabase/project/index.ts';

type Chunk = Rolldown.OutputChunk;

export interface BundleReport {
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

export async function measureHomeBundle(): Promise<BundleReport> {
  // Build exactly as `npm run build` does: vitest runs with NODE_ENV=test, which would make Vite
  // bundle React's development build.
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
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Chunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  const home = chunks.find((c) => c.facadeModuleId?.endsWith(path.join('src', 'app', 'routes', 'home.tsx')));
  if (!entry || !home) throw new Error('the build has no entry chunk or no home route chunk');

  const initial = closure(entry, byName);
  const homeAll = [...new Map([...initial, ...closure(home, byName)].map((c) => [c.fileName, c])).values()];
  return {
    initialGzip: gzipSize(initial),
    initialFiles: initial.map((c) => c.fileName),
    homeGzip: gzipSize(homeAll),
    homeFiles: homeAll.map((c) => c.fileName),
    initialModules: initial.flatMap((c) => c.moduleIds).map((id) => path.relative(ROOT_DIR, id)),
  };
}
