import type {DescriptionTerms} from '../matching/score.js'

/** A description a run keeps out of memory: the key its text is stored under, and its length in characters. */
export interface StoredDescription {
  /** The text's fingerprint, under which the store keeps it. */
  hash: string
  length: number
  /** The terms of the run's profile the text holds (descriptionAnalyser), found before the text was stored. */
  terms?: DescriptionTerms
}

/**
 * Where a storing run keeps its jobs' description texts while it holds thousands of jobs (several KB each in
 * memory): the job store's table of texts, which the jobs the run stores then point into. Each board's texts are
 * stored as the board answers, read first for what the profile's terms say of them when the run scores its jobs,
 * so the run never needs a text again. A search that stores nothing (a dry run, GET /jobs) keeps its texts.
 */
export interface DescriptionStore {
  /** Stores the texts, each text once whatever its number of jobs, and says under which key each is, in order. */
  storeDescriptions(texts: readonly string[]): Promise<StoredDescription[]>
}

/**
 * The terms descriptions hold for a profile, kept between runs beside the texts: a daily run sees mostly the texts of
 * the day before, and analysing every one again for the profile is most of the time scoring takes. Terms are kept by
 * the analyser's key (the rules and the profile's terms) and the text's hash; keeping is an optimisation only, and a
 * run whose profile changed finds none.
 */
export interface TermsCache {
  /** The kept terms of these texts under `key` (as DescriptionAnalyser.encode wrote them), by hash; those not kept are left out. */
  find(key: string, hashes: readonly string[]): Promise<Map<string, string>>
  /** Keeps terms under `key`, dropping those kept under any other key. */
  save(key: string, entries: readonly (readonly [hash: string, terms: string])[]): Promise<void>
}
