/**
 * The vitest projects Stryker runs for each mutant: the component tests and the unit tests, never
 * the stack project (which starts databases and servers, far too slow to run per mutant).
 */
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

type Project = { test?: { name?: string } };

export default defineConfig({
  test: {
    projects: (base.test!.projects as Project[]).filter((p) => p.test?.name !== 'stack') as never,
  },
});
