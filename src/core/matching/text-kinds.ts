/**
 * Where a word of a posting stands, which says how much a skill named there is worth: the title and the
 * requirements say what the job is; the duties and the rest of the body less; an "about us", benefits or
 * equal-opportunity paragraph, or a keyword list outside the requirements, nothing.
 */
export const SECTIONS = ['nothing', 'body', 'duties', 'requirements', 'tags', 'title'] as const
export type Section = (typeof SECTIONS)[number]

/** What a skill named in each place is worth, from 0 to 1 (docs/MATCHING.md, "Skills"). */
export const SECTION_WEIGHT: Readonly<Record<Section, number>> = {
  nothing: 0,
  body: 0.4,
  duties: 0.6,
  requirements: 0.8,
  tags: 0.8,
  title: 1,
}

/** The rank of a section: a higher one wins when a term is named in several places. */
export const sectionRank = (section: Section): number => SECTIONS.indexOf(section)

type Heading = 'body' | 'duties' | 'requirements' | 'boilerplate'

/** A heading is at most this long. */
const HEADING_LENGTH = 70

// Headings, read lower-case. "About the role" introduces the duties; any other "About ..." the employer.
const ABOUT_THE_JOB = /^about (the|this) (role|position|job|opportunity)|^about you\b/
const REQUIREMENTS =
  /\b(requirements?|qualifications?|what (you('ll| will)?|we) (bring|need|have|expect|require)|you (have|bring|are|should)|about you|who you are|your (profile|skills|background|experience|expertise)|skills|must[- ]haves?|nice[- ]to[- ]haves?|bonus( points)?|tech(nology)? stack|our stack|technologies|what we('re| are)? looking for|looking for|ideal candidate|experience|expertise|competenc\w*|preferred|minimum|profil|mitbringst|anforderungen|qualifikation\w*|kenntnisse)\b/
const BOILERPLATE =
  /^about\b|\b(who we are|our (mission|story|values|culture|company|team|benefits|offer)|benefits|perks|what we offer|we offer|why (join|work|us)|compensation|salary|pay (range|transparency)|equal (opportunity|employment)|eeo|diversity|inclusion|privacy|how to apply|application process|hiring process|interview process|not your tech stack|other (roles|opportunities|positions)|wir bieten|über uns|locations?|working (at|with us)|life at|join us|disclaimer|legal notice|accommodations?)\b/
const DUTIES =
  /\b(responsibilities|what you('ll| will)? (do|be doing|work on)|the role|your role|role overview|day[- ]to[- ]day|your (tasks|mission|impact|day)|in this role|the job|job description|key duties|duties|aufgaben|deine aufgaben|ihre aufgaben|the opportunity|overview|the position)\b/
// A sentence of the legal or application boilerplate, wherever it stands.
const BOILERPLATE_SENTENCE =
  /equal (opportunity|employment)|without regard to|reasonable accommodation|privacy (notice|policy)|e-verify|please mention the word|affirmative action|protected veteran|background check|all qualified applicants/

/** A short line that heads a part of the posting (`Requirements:`, `WHAT WE OFFER`, `About Acme`). */
function headingOf(line: string): Heading | null {
  if (line.length < 2 || line.length > HEADING_LENGTH || /^[-*•·▪◦●–]|^\d+[.)]\s/.test(line)) return null
  const words = line.split(/\s+/).length
  const marked = /[:?]$/.test(line) || (/\p{Lu}/u.test(line) && line === line.toUpperCase())
  // An unmarked line of a few words may be a heading too (`Benefits`, `About Acme`); a longer one is a sentence.
  if (words > (marked ? 8 : 4)) return null
  const text = line.toLowerCase().replace(/[:?!.]+$/, '')
  // The employer's own parts first: `Not your tech stack?` and `Skills we value at Acme` are about the employer.
  const kind = ABOUT_THE_JOB.test(text)
    ? 'duties'
    : BOILERPLATE.test(text)
      ? 'boilerplate'
      : REQUIREMENTS.test(text)
        ? 'requirements'
        : DUTIES.test(text)
          ? 'duties'
          : null
  if (kind) return kind
  // A marked heading of words the lists above do not know starts a part that counts as plain body.
  return marked ? 'body' : null
}

/** A line of many short comma-separated entries: a keyword list rather than a sentence. */
function isKeywordList(line: string): boolean {
  let commas = 0
  for (let index = line.indexOf(','); index !== -1; index = line.indexOf(',', index + 1)) commas++
  if (commas < 5) return false
  let words = 1
  for (let index = 0; index < line.length; index++) if (line.charCodeAt(index) === 32) words++
  return words / (commas + 1) <= 3
}

/**
 * Where each place of a description stands, read lazily: one pass finds the lines and the part each belongs to
 * (headings are short lines, so only those are tested); the checks of a line's own text (boilerplate sentences,
 * keyword lists) run only for the lines a term stands on. `lower` is the text in lower case, read by the checks.
 */
export class DescriptionLines {
  /** Where the line being read starts, and the part it is in (the last heading before it). */
  private start = 0
  private part: Heading = 'body'
  /** The section of the line being read, once worked out. */
  private current: Section | undefined
  private lineEnd = -1

  constructor(
    private readonly text: string,
    private readonly lower: string,
  ) {}

  /**
   * Where the text at `offset` stands; offsets come in increasing order. The lines are read up to the one that
   * holds it and no further: the headings after the last term named do not matter.
   */
  sectionAt(offset: number): Section {
    while (this.lineEnd < offset && this.lineEnd < this.text.length) this.next()
    this.current ??= this.lineSection()
    return this.current
  }

  /** Every line's section, for tests and explanations. */
  all(): Section[] {
    const sections: Section[] = []
    while (this.lineEnd < this.text.length) {
      this.next()
      sections.push(this.lineSection())
    }
    return sections
  }

  /** Moves to the next line, taking the part it heads if it is a heading. */
  private next(): void {
    this.start = this.lineEnd + 1
    const newline = this.text.indexOf('\n', this.start)
    this.lineEnd = newline === -1 ? this.text.length : newline
    this.current = undefined
    this.heading = false
    // Only a short line can be a heading, and never a list item: others are not even sliced.
    const first = this.text.charCodeAt(this.start)
    if (this.lineEnd - this.start > HEADING_LENGTH + 40 || first === 45 /* - */ || first === 42 /* * */) return
    const heading = headingOf(this.text.slice(this.start, this.lineEnd).trim())
    if (heading) {
      this.part = heading
      this.heading = true
    }
  }

  private heading = false

  private lineSection(): Section {
    if (this.heading) return this.part === 'boilerplate' ? 'nothing' : this.part
    if (this.part === 'boilerplate') return 'nothing'
    const line = this.lower.slice(this.start, this.lineEnd)
    if (BOILERPLATE_SENTENCE.test(line)) return 'nothing'
    if (this.part === 'requirements') return 'requirements'
    return isKeywordList(line) ? 'nothing' : this.part
  }
}
