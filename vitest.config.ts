import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The few tests that spawn the built CLI build it first when the sources changed (see the file).
    setupFiles: ['test/build-when-needed.ts'],
    // Two workers match the 2-core machine.
    maxWorkers: 2,
  },
})
