import fc from 'fast-check'

/**
 * The seed of every property in the fuzz suites. Fixed by default, so a run of the suite (and CI) is repeatable;
 * JOBAGENT_FUZZ_SEED=<number> replays a reported failure, JOBAGENT_FUZZ_SEED=random explores new inputs. A failure
 * prints its seed and path either way.
 */
const requested = process.env.JOBAGENT_FUZZ_SEED
export const FUZZ_SEED =
  requested === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number.parseInt(requested ?? '20261122', 10)

fc.configureGlobal({seed: FUZZ_SEED})
if (requested !== undefined) console.warn(`fast-check seed: ${FUZZ_SEED}`)
