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
    // Three workers on two cores: the files that take longest spend much of their time waiting for the processes
    // they start (the built CLI, servers, a browser) and for timers, which a third worker fills. With two the cores
    // were a third idle and the suite took 445 s; with three 283 s, with four 308 s.
    maxWorkers: 3,
  },
})
