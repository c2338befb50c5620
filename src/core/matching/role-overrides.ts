/**
 * Where O*NET's titles read jobs wrong, corrected by hand. Each entry has a test in
 * test/core/matching/role-overrides.test.ts that says why; everything else comes from data/occupations.json.
 */

/**
 * Titles whose occupations the data gets wrong, by O*NET-SOC code. "Security Engineer" is listed under six
 * occupations, from fire alarm installers to blockchain engineers; in postings it is the information security
 * engineer, analyst or penetration tester.
 */
export const TITLE_OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  'security engineer': ['15-1299.05', '15-1212.00', '15-1299.04'],
  // Listed under blockchain engineers only; in postings a platform engineer builds the software others run on.
  'platform engineer': ['15-1252.00', '15-1244.00'],
  // Listed under validation engineers (manufacturing) beside software developers; in postings it runs software.
  'site reliability engineer': ['15-1252.00', '15-1244.00'],
  // In no title; read by its words it is a sports coach or a middle school teacher. A nurse coach is a registered
  // nurse who coaches patients (the nurse coach certification is for registered nurses).
  'nurse coach': ['29-1141.00'],
}

/**
 * Abbreviations and newer names of work that O*NET always spells out its own way: "ML Engineer" is in no title,
 * "Machine Learning Engineer" is. A title's word is read as its expansion wherever it stands.
 */
export const TITLE_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  ml: ['machine', 'learning'],
  sre: ['site', 'reliability', 'engineer'],
  // "People Operations", "People Partner", "Head of People": what O*NET titles human resources.
  people: ['human', 'resources'],
}

/**
 * Head nouns that name the same work where the data's titles are too few to say so: developers, engineers and
 * programmers of software share a stem in few O*NET titles ("Java Developer", "Java Programmer"), as do nurses and
 * practitioners, technicians, installers and mechanics of one trade.
 */
export const HEAD_EQUIVALENTS: readonly (readonly string[])[] = [
  ['developer', 'engineer', 'programmer'],
  ['nurse', 'practitioner'],
  ['technician', 'installer', 'mechanic'],
]
