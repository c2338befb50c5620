import {ValidationError} from '../core/errors.js'
import {type Profile, SENIORITIES} from '../core/matching/profile.js'

/** One question of `jobagent profile`: what it asks, an example, and how the answer becomes the profile's value. */
interface ProfileQuestion<K extends keyof Profile> {
  key: K
  ask: string
  example: string
  /** The value now, as an answer would give it (what Enter keeps). */
  shown: (value: Profile[K]) => string
  read: (answer: string) => Profile[K]
}

const list = (answer: string) =>
  answer
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

/** `kubernetes:3, terraform 3, go` -> {kubernetes: 3, terraform: 3, go: 2}; a weight is 1 to 3, 2 when left out. */
function parseSkills(answer: string): Record<string, number> {
  const skills: Record<string, number> = {}
  for (const item of list(answer)) {
    // `name:weight`, `name weight` or `name`; a colon always brings a weight, so `python:x` is refused, not a skill.
    const match = /^(.*?)(?::\s*|\s+)([^\s:]+)$/.exec(item)
    const weighted = item.includes(':') || (match !== null && /^-?[0-9.]+$/.test(match[2]!))
    const name = (weighted && match ? match[1]! : item).trim().toLowerCase()
    const weight = weighted && match ? Number(match[2]) : 2
    if (Object.hasOwn(skills, name)) {
      throw new ValidationError(`${name} is named twice`, {hint: 'name each skill once, with one weight'})
    }
    if (name === '' || name === '__proto__' || name === 'constructor' || name === 'prototype') {
      throw new ValidationError(`"${item}" is not a skill`, {
        hint: 'write a skill with an optional weight, e.g. kubernetes:3',
      })
    }
    if (!Number.isInteger(weight) || weight < 1 || weight > 3) {
      throw new ValidationError(`the weight of ${name} must be 1, 2 or 3, got ${match?.[2] ?? item}`, {
        hint: '3: must have, 2: good to have, 1: nice to have (e.g. terraform:3)',
      })
    }
    skills[name] = weight
  }
  return skills
}

type AnyQuestion = {[K in keyof Profile]: ProfileQuestion<K>}[keyof Profile]

/** The questions in the order they are asked; every answer may be left empty to keep what is there. */
export const PROFILE_QUESTIONS: readonly AnyQuestion[] = [
  {
    key: 'roles',
    ask: 'Which job titles do you want, most wanted first?',
    example: 'platform engineer, site reliability engineer, devops engineer',
    shown: (roles) => roles.join(', '),
    read: list,
  },
  {
    key: 'skills',
    ask: 'Your skills, each with a weight from 1 (nice to have) to 3 (must have)?',
    example: 'kubernetes:3, terraform:3, go:2, aws:2, prometheus:1',
    shown: (skills) =>
      Object.entries(skills)
        .map(([name, weight]) => `${name}:${weight}`)
        .join(', '),
    read: parseSkills,
  },
  {
    key: 'avoid',
    ask: 'Words that rule a job out when its title or requirements name them?',
    example: 'php, on-call 24/7',
    shown: (avoid) => avoid.join(', '),
    read: list,
  },
  {
    key: 'seniority',
    ask: `Your level (${SENIORITIES.join(', ')} or any)?`,
    example: 'senior',
    shown: (seniority) => seniority,
    read: (answer) => {
      const level = answer.trim().toLowerCase()
      if (level === 'any' || (SENIORITIES as readonly string[]).includes(level)) return level as Profile['seniority']
      throw new ValidationError(`"${answer.trim()}" is not a level`, {
        hint: `answer one of: ${SENIORITIES.join(', ')}, any`,
      })
    },
  },
  {
    key: 'home',
    ask: 'The country or region where you live and may work, or "anywhere"?',
    example: 'Netherlands',
    shown: (home) => home ?? '',
    read: (answer) => answer.trim(),
  },
  {
    key: 'locations',
    ask: 'Where you will work: remote, cities, countries, regions, or anywhere?',
    example: 'remote, amsterdam, europe',
    shown: (locations) => locations.join(', '),
    read: list,
  },
]

/** The profile with one question's answer taken in: an empty answer keeps the value, `-` clears it. */
export function answerQuestion(profile: Profile, question: AnyQuestion, answer: string): Profile {
  const text = answer.trim()
  if (text === '') return profile
  if (text === '-') {
    const cleared: Partial<Profile> = {roles: [], skills: {}, avoid: [], seniority: 'any', home: null, locations: []}
    return {...profile, [question.key]: cleared[question.key]}
  }
  return {...profile, [question.key]: question.read(text)}
}
