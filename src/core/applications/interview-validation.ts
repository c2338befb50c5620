import {z} from 'zod'
import {isTimeZone} from '../time-zones.js'
import {INTERVIEW_KINDS, readInterviewAt} from './interview-fields.js'
import {anyText, notesSchema} from './validation.js'

export {issuesToDetails} from './validation.js'

/**
 * What an interview is added with (`jobagent interview`, POST /applications/{url}/interviews). Its output passes
 * it again unchanged (`at` stays text), so the API's request check and the service's agree.
 */
export const interviewInputSchema = z.strictObject(
  {
    at: z
      .string({error: (issue) => (issue.input === undefined ? 'at is required' : 'at must be text')})
      .superRefine((value, context) => {
        const read = readInterviewAt(value)
        if (typeof read === 'string') context.addIssue({code: 'custom', input: value, message: read})
      }),
    kind: z
      .enum(INTERVIEW_KINDS, {
        error: (issue) => `unknown kind ${JSON.stringify(issue.input)}; use one of: ${INTERVIEW_KINDS.join(', ')}`,
      })
      .nullable()
      .default(null),
    with: anyText('with').default(''),
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
