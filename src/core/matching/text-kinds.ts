/**
 * Where a word of a posting stands, which says how much a skill named there is worth: the title and the
 * requirements say what the job is; the duties and the rest of the body less; an "about us", benefits or
 * equal-opportunity paragraph, or a keyword list outside the requirements, nothing.
 */
const STANDINGS = ['nothing', 'body', 'duties', 'requirements', 'tags', 'title'] as const
export type Standing = (typeof STANDINGS)[number]

/** What a skill named in each place is worth, from 0 to 1 (docs/MATCHING.md, "Skills"). */
export const STANDING_WEIGHT: Readonly<Record<Standing, number>> = {
  nothing: 0,
  body: 0.4,
  duties: 0.6,
  requirements: 0.8,
  tags: 0.8,
  title: 1,
}

/** The rank of a standing: a higher one wins when a term is named in several places. */
export const standingRank = (standing: Standing): number => STANDINGS.indexOf(standing)

type Section = 'body' | 'duties' | 'requirements' | 'boilerplate'

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
function headingOf(line: string): Section | null {
  if (line.length < 2 || line.length > 70 || /^[-*•·▪◦●–]|^\d+[.)]\s/.test(line)) return null
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

/** A description's lines, each with where it stands; read in one pass over the text. */
interface LineStandings {
  /** The offset at which each line ends (exclusive), in order. */
  ends: number[]
  standings: Standing[]
}

export function lineStandings(text: string): LineStandings {
  const ends: number[] = []
  const standings: Standing[] = []
  let section: Section = 'body'
  let start = 0
  while (start <= text.length) {
    const newline = text.indexOf('\n', start)
    const end = newline === -1 ? text.length : newline
    const line = text.slice(start, end).trim()
    let standing: Standing
    const heading = line === '' ? null : headingOf(line)
    if (heading) {
      section = heading
      standing = heading === 'boilerplate' ? 'nothing' : heading
    } else if (section === 'boilerplate' || BOILERPLATE_SENTENCE.test(line.toLowerCase())) {
      standing = 'nothing'
    } else if (section === 'requirements') {
      standing = 'requirements'
    } else if (isKeywordList(line)) {
      standing = 'nothing'
    } else {
      standing = section
    }
    ends.push(end)
    standings.push(standing)
    if (newline === -1) break
    start = newline + 1
  }
  return {ends, standings}
}
