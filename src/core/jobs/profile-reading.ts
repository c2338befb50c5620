import type {DescriptionReader, DescriptionTerms} from '../matching/score.js'
import type {DescriptionReadings, StoredDescription} from './description-store.js'

/**
 * What a storing run reads in its descriptions for the profile, as each board answers and before the texts are
 * stored away: a text read in an earlier run is taken from `readings`, the others read and kept there for the next
 * run. The time it takes counts as part of scoring (`ms`).
 */
export class ProfileReading {
  /** Milliseconds spent reading so far. */
  ms = 0

  constructor(
    private readonly reader: DescriptionReader,
    private readonly readings?: DescriptionReadings,
  ) {}

  /** The terms of each text, in order; `stored` says under which key each text is kept. */
  readonly read = async (
    texts: readonly string[],
    stored: readonly StoredDescription[],
  ): Promise<DescriptionTerms[]> => {
    const started = performance.now()
    try {
      const {reader, readings} = this
      const hashes = stored.map((description) => description.hash)
      const kept = readings ? await readings.find(reader.key, hashes).catch(() => new Map<string, string>()) : null
      const fresh: [string, string][] = []
      const read = texts.map((text, index) => {
        const known = kept?.get(hashes[index]!)
        const decoded = known === undefined ? null : reader.decode(known)
        if (decoded) return decoded
        const terms = reader.read(text)
        fresh.push([hashes[index]!, reader.encode(terms)])
        return terms
      })
      // Keeping is an optimisation: a failed write leaves the next run to read these texts again.
      if (readings && fresh.length > 0) await readings.save(reader.key, fresh).catch(() => undefined)
      return read
    } finally {
      this.ms += performance.now() - started
    }
  }
}
