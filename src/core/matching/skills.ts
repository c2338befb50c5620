import {normaliseTerm} from './profile.js'

/**
 * Spellings that mean the same skill, each group written once; a profile term matches every spelling of the groups
 * that hold it (docs/MATCHING.md, "Skills"). These are the ways people write the technologies and fields of job
 * postings that O*NET's tool names do not give (data/skills.json gives those: `microsoft excel`/`excel`,
 * `amazon web services`/`aws`, `oracle peoplesoft`/`peoplesoft`). test/core/matching/skills.test.ts checks each
 * group.
 */
export const SKILL_SYNONYMS: readonly (readonly string[])[] = [
  ['golang', 'go', 'go lang'],
  ['kubernetes', 'k8s'],
  ['javascript', 'js', 'ecmascript'],
  ['typescript', 'ts'],
  ['node.js', 'nodejs', 'node'],
  ['postgresql', 'postgres', 'psql'],
  ['react', 'react.js', 'reactjs'],
  ['vue', 'vue.js', 'vuejs'],
  ['next.js', 'nextjs'],
  ['c#', 'csharp'],
  ['.net', 'dotnet'],
  ['machine learning', 'ml'],
  ['artificial intelligence', 'ai'],
  ['large language models', 'llm', 'llms'],
  ['amazon web services', 'aws'],
  ['google cloud', 'gcp', 'google cloud platform'],
  ['ci/cd', 'ci', 'cd', 'continuous integration', 'continuous delivery'],
  ['excel', 'microsoft excel'],
  ['ruby on rails', 'rails', 'ruby/rails'],
  ['backend', 'back-end', 'back end'],
  ['frontend', 'front-end', 'front end'],
  ['full stack', 'full-stack', 'fullstack'],
  ['devops', 'dev ops'],
  ['site reliability', 'sre'],
  ['customer success', 'customer happiness'],
  ['user experience', 'ux'],
  ['search engine optimization', 'seo'],
]

/**
 * Skills that are also plain words of English ("let's go", "rust", "swift delivery", "excel at"): they count only
 * where they stand as the technology (standsAsSkill). Each entry is tested with the sentence that shows why.
 */
export const COMMON_WORD_SKILLS: ReadonlySet<string> = new Set([
  'go',
  'rust',
  'swift',
  'excel',
  'r',
  'c',
  'ci',
  'cd',
  'dart',
  'spring',
  'chef',
  'puppet',
  'word',
])

/** data/skills.json: groups of spellings from O*NET's technology examples and those that may be plain words. */
export interface SkillData {
  source: string
  groups: string[][]
  ambiguous: string[]
}

/** One spelling a profile's skill matches; `ambiguous`: it counts only where it stands as the skill. */
interface SkillSpelling {
  spelling: string
  ambiguous: boolean
}

/** Every skill's spellings: the table above and the groups derived from O*NET (Knowledge `skills`). */
export class SkillSpellings {
  private readonly groups = new Map<string, string[][]>()
  private readonly ambiguous: ReadonlySet<string>

  constructor(data: SkillData) {
    this.ambiguous = new Set(data.ambiguous)
    for (const group of [...SKILL_SYNONYMS, ...data.groups]) {
      for (const spelling of group) {
        const groups = this.groups.get(spelling) ?? []
        groups.push([...group])
        this.groups.set(spelling, groups)
      }
    }
  }

  /**
   * What a profile term matches: itself and every spelling of the groups that hold it. A plain word of English counts
   * only as the skill; so does a tool's short name the profile did not write itself (`outlook` for a profile's
   * `microsoft outlook`), which may be a word too, while `terraform` written by the profile is the tool.
   */
  of(term: string): SkillSpelling[] {
    const normal = normaliseTerm(term)
    const found = new Set([normal])
    for (const group of this.groups.get(normal) ?? []) for (const spelling of group) found.add(spelling)
    return [...found].map((spelling) => ({
      spelling,
      ambiguous: COMMON_WORD_SKILLS.has(spelling) || (spelling !== normal && this.ambiguous.has(spelling)),
    }))
  }
}

/** Skill spellings from the shipped data (a parsed data/skills.json). */
export function skillSpellings(data: SkillData): SkillSpellings {
  return new SkillSpellings(data)
}

const UPPER = /\p{Lu}/u
/** What may stand right before or after a technology in a list of them. */
const LIST_MARK = /[,/;|()[\]·•]/
/** What ends a sentence before a word, or starts a line or a list item: a capital says nothing there. */
const SENTENCE_END = /[.!?:]$/
const LINE_START = /\n[\s\-*•·▪◦●–]*$/

/**
 * Whether a word that may be plain English stands as the technology at `at` (`length` characters) of `text` (as
 * written, not lower-cased): in a list of technologies (`Go, Rust`, `C/C++`, `(Go)`), or written as a name in the
 * middle of a sentence (`experience with Go and Kubernetes`); never joined to the next word (`go-to-market`). In a
 * title every word is capitalised: there a capital is enough. A single letter (`R`, `C`) counts only in a list.
 */
export function standsAsSkill(text: string, at: number, length: number, inTitle = false): boolean {
  const end = at + length
  if ((text.charAt(end) === '-' && /\p{L}/u.test(text.charAt(end + 1))) || text.charAt(at - 1) === '-') return false
  const before = text.slice(Math.max(0, at - 40), at)
  const previous = before.trimEnd().slice(-1)
  const next = text
    .slice(end, end + 40)
    .trimStart()
    .charAt(0)
  // `Languages: Go, Rust`: a colon opens a list.
  const listedBefore = previous !== '' && (LIST_MARK.test(previous) || previous === ':')
  const listedAfter = next !== '' && LIST_MARK.test(next)
  const capital = UPPER.test(text.charAt(at))
  if (length === 1) return capital && (listedBefore || listedAfter)
  if (!capital) return listedBefore && listedAfter
  if (inTitle || listedBefore || listedAfter) return true
  const trimmed = before.replace(/[ \t]+$/, '')
  return !((at < 40 && trimmed.trim() === '') || SENTENCE_END.test(trimmed) || LINE_START.test(before))
}
