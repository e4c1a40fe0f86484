/**
 * The vitest project Stryker runs for each mutant of one module (MUTATION_MODULE, set by run.ts):
 * that module's project (app or units, with its aliases and setup) narrowed to the module's own test
 * files. The stack project (databases and servers) never runs per mutant.
 */
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';
import { MODULES } from './modules.ts';

type Project = { test?: { name?: string; include?: string[] } };

const name = process.env.MUTATION_MODULE ?? '';
const module = MODULES[name];
if (!module) throw new Error(`MUTATION_MODULE must be one of ${Object.keys(MODULES).join(', ')}`);
const project = (base.test!.projects as Project[]).find((p) => p.test?.name === module.project)!;

export default defineConfig({
  test: {
    // Instrumented code on a busy machine: a test that takes a second normally (the pixel-bomb checks
    // build 16-megapixel headers) can exceed vitest's 5 s default; Stryker's own timeout still applies.
    projects: [
      { ...project, test: { ...project.test, include: module.tests, testTimeout: 60_000 } },
    ] as never,
  },
});
