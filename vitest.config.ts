import {defineConfig} from 'vitest/config'

const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx']
/** The pure domain's tests: no framework, driver, file system, global or mock, so nothing of one file can leak. */
const CORE = ['test/core/**/*.test.ts']
/**
 * The test files that change what the whole process shares, so each keeps a worker of its own: Ink renders into
 * process-wide state (the dashboard's tests), the others change process.env (TZ, XDG_*, HTTP_PROXY) or spy on a
 * driver's prototype. They put back what they change, but one that stopped halfway must not decide a later file.
 */
const OWN_PROCESS = [
  'test/ui/**/*.test.{ts,tsx}',
  'test/app/config.test.ts',
  'test/cli/history-times.test.ts',
  'test/http-client/client.test.ts',
  'test/shipments/storage/postgres/shipment-combined-store.test.ts',
]

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
      // One module graph per worker for these: a fresh worker per file loaded the same modules (oclif, Hono,
      // zod, the knowledge files) once for each of about 200 files, which took a large part of their time.
      {extends: true, test: {name: 'core', include: CORE, isolate: false}},
      {extends: true, test: {name: 'shared', include: ALL, exclude: [...CORE, ...OWN_PROCESS], isolate: false}},
      {extends: true, test: {name: 'own-process', include: OWN_PROCESS}},
    ],
  },
})
