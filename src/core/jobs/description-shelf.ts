import type {DescriptionTerms} from '../matching/score.js'

/** A description a run keeps out of memory: where its text is on the shelf, and its length in characters. */
export interface ParkedDescription {
  /** The text's fingerprint, under which the shelf keeps it. */
  hash: string
  length: number
  /** What the run's profile reads in the text (descriptionTerms), taken before the text went onto the shelf. */
  terms?: DescriptionTerms
}

/**
 * Where a storing run keeps its jobs' description texts while it holds thousands of jobs (several KB each in
 * memory): the store's table of texts, which the jobs the run stores then point into. Each board's texts go onto
 * the shelf as the board answers, read first for what the profile's terms say of them when the run scores its
 * jobs, so the run never needs a text again. A search that stores nothing (a dry run, GET /jobs) keeps its texts.
 */
export interface DescriptionShelf {
  /** Puts the texts on the shelf, each text once whatever its number of jobs, and says where each is, in order. */
  park(texts: readonly string[]): Promise<ParkedDescription[]>
}
