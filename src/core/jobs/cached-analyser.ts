import type {DescriptionAnalyser, DescriptionTerms} from '../matching/score.js'
import type {StoredDescription, TermsCache} from './description-store.js'

/**
 * What a storing run finds in its descriptions for the profile, as each board answers and before the texts are
 * stored away: a text analysed in an earlier run has its terms taken from `cache`, the others are analysed and
 * kept there for the next run. The time it takes counts as part of scoring (`ms`).
 */
export class CachedAnalyser {
  /** Milliseconds spent analysing so far. */
  ms = 0

  constructor(
    private readonly analyser: DescriptionAnalyser,
    private readonly cache?: TermsCache,
  ) {}

  /** The terms of each text, in order; `stored` says under which key each text is kept. */
  readonly analyse = async (
    texts: readonly string[],
    stored: readonly StoredDescription[],
  ): Promise<DescriptionTerms[]> => {
    const started = performance.now()
    try {
      const {analyser, cache} = this
      const hashes = stored.map((description) => description.hash)
      const kept = cache ? await cache.find(analyser.key, hashes).catch(() => new Map<string, string>()) : null
      const fresh: [string, string][] = []
      const analysed = texts.map((text, index) => {
        const known = kept?.get(hashes[index]!)
        const decoded = known === undefined ? null : analyser.decode(known)
        if (decoded) return decoded
        const terms = analyser.analyse(text)
        fresh.push([hashes[index]!, analyser.encode(terms)])
        return terms
      })
      // Keeping is an optimisation: a failed write leaves the next run to analyse these texts again.
      if (cache && fresh.length > 0) await cache.save(analyser.key, fresh).catch(() => undefined)
      return analysed
    } finally {
      this.ms += performance.now() - started
    }
  }
}
