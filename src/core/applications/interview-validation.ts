import {z} from 'zod'
import {isTimeZone} from '../time-zones.js'
import {isHttpUrl} from '../url-identity.js'
import {INTERVIEW_KINDS, parseDuration, parseInterviewAt} from './interview-fields.js'
import {anyText, notesSchema} from './validation.js'

export {issuesToDetails} from './validation.js'

/** When an interview starts, local time (`YYYY-MM-DD HH:MM`, or with T); `field` names it in the messages. */
const startSchema = (field: string) =>
  z.string({error: `${field} must be text`}).superRefine((value, context) => {
    const read = parseInterviewAt(value, field)
    if (typeof read === 'string') context.addIssue({code: 'custom', input: value, message: read})
  })

/**
 * What an interview is added with (`jobagent interview`, POST /applications/{url}/interviews). The start is
 * `starts_at`, the name answers give it, or `at`, its older name (the CLI's `--at`), never both. Its output passes
 * it again unchanged (the start stays text), so the API's request check and the service's agree.
 */
export const interviewInputSchema = z
  .strictObject(
    {
      starts_at: startSchema('starts_at').optional(),
      at: startSchema('at').optional(),
      kind: z
        .enum(INTERVIEW_KINDS, {
          error: (issue) => `unknown kind ${JSON.stringify(issue.input)}; use one of: ${INTERVIEW_KINDS.join(', ')}`,
        })
        .nullable()
        .default(null),
      ends_at: startSchema('ends_at').optional(),
      duration: z
        .string({error: 'duration must be text'})
        .superRefine((value, context) => {
          const read = parseDuration(value)
          if (typeof read === 'string') context.addIssue({code: 'custom', input: value, message: read})
        })
        .optional(),
      // One person, or a list of them: each a contact of the application (its id or exact name) or anyone else.
      with: z
        .union([anyText('with'), z.array(anyText('with')).max(20, 'with names at most 20 people')], {
          error: 'with must be text or a list of texts',
        })
        .default(''),
      place: anyText('place').default(''),
      link: anyText('link')
        .refine((value) => value === '' || isHttpUrl(value), {message: 'link must be an http:// or https:// address'})
        .default(''),
      past: z.boolean({error: 'past must be true or false'}).default(false),
      notes: notesSchema.default(''),
      time_zone: z
        .string({error: 'time_zone must be text'})
        .refine(isTimeZone, {
          error: (issue) => `unknown time_zone ${JSON.stringify(issue.input)}; use an IANA zone such as Europe/Berlin`,
        })
        .optional(),
    },
    {error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : undefined)},
  )
  .superRefine((input, context) => {
    if (input.starts_at !== undefined && input.at !== undefined) {
      context.addIssue({code: 'custom', path: ['at'], message: 'give starts_at or at (its older name), not both'})
    } else if (input.starts_at === undefined && input.at === undefined) {
      context.addIssue({code: 'custom', path: ['starts_at'], message: 'starts_at is required'})
    }
    if (input.ends_at !== undefined && input.duration !== undefined) {
      context.addIssue({code: 'custom', path: ['duration'], message: 'give ends_at or duration, not both'})
    }
  })
