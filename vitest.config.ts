import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // Test files share a worker's module graph: a fresh worker per file loaded the same modules once per file, a
    // third of the suite's time. The tests change no process state they do not restore (no module mocks, fake
    // timers or stubbed globals; the few environment variables set are put back), and these undo what vi stubs.
    isolate: false,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The few tests that spawn the built CLI build it first when the sources changed (see the file).
    setupFiles: ['test/build-when-needed.ts'],
    // Two workers match the 2-core machine.
    maxWorkers: 2,
  },
})
