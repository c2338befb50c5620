import {defineConfig} from 'vitest/config'

const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx']
/** The pure domain's tests: no framework, driver, file system, global or mock, so nothing of one file can leak. */
const CORE = ['test/core/**/*.test.ts']

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The few tests that spawn the built CLI build it first when the sources changed (see the file).
    setupFiles: ['test/build-when-needed.ts'],
    // Two workers match the 2-core machine.
    maxWorkers: 2,
    projects: [
      // One module graph for all of them: a fresh worker per file loaded the same modules 40 times, which took
      // more than half of their time.
      {extends: true, test: {name: 'core', include: CORE, isolate: false}},
      {extends: true, test: {name: 'rest', include: ALL, exclude: CORE}},
    ],
  },
})
