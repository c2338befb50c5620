// The bodies of the API's answers as the page reads them: inferred from the zod schemas the routes answer with
// (src/http/schemas.ts), so a field added or renamed there is one edit, checked here by the type checker. Only
// types cross over: esbuild drops these imports, and the page's bundle holds none of the server's code.
import type {z} from 'zod'
import type {
  ApplicationsPageSchema,
  ApplicationWithHistorySchema,
  ContactSchema,
  ErrorSchema,
  FollowUpsSchema,
  FoundJobSchema,
  InterviewAddedSchema,
  InterviewsSchema,
  LastRunPageSchema,
  ListedJobSchema,
  RecordedSchema,
  SearchResultSchema,
  StatsSchema,
  StatusChangedSchema,
  TrackedApplicationSchema,
  TrackingAnswerSchema,
  VerdictGivenSchema,
  VerdictUndoneSchema,
} from '../http/schemas.js'

export type ApplicationsPage = z.infer<typeof ApplicationsPageSchema>
export type TrackedApplication = z.infer<typeof TrackedApplicationSchema>
export type Recorded = z.infer<typeof RecordedSchema>
export type StatusChanged = z.infer<typeof StatusChangedSchema>
export type FollowUps = z.infer<typeof FollowUpsSchema>
export type FollowUp = FollowUps['applications'][number]
export type ApplicationWithHistory = z.infer<typeof ApplicationWithHistorySchema>
export type HistoryEntry = ApplicationWithHistory['history'][number]
export type Contact = z.infer<typeof ContactSchema>
export type InterviewAdded = z.infer<typeof InterviewAddedSchema>
export type Interviews = z.infer<typeof InterviewsSchema>
export type ScheduledInterview = Interviews['interviews'][number]

export type LastRunPage = z.infer<typeof LastRunPageSchema>
export type LastRun = LastRunPage['run']
export type SearchResult = z.infer<typeof SearchResultSchema>
export type TrackingAnswer = z.infer<typeof TrackingAnswerSchema>
export type VerdictGiven = z.infer<typeof VerdictGivenSchema>
export type VerdictUndone = z.infer<typeof VerdictUndoneSchema>

/**
 * A job the page lists: one a search found (GET /jobs), or one the last run stored (GET /jobs/last), which adds
 * its id and its life (first seen, closed, reposted, other listings).
 */
export type Job = z.infer<typeof FoundJobSchema> &
  Partial<Omit<z.infer<typeof ListedJobSchema>, keyof z.infer<typeof FoundJobSchema>>>

export type Stats = z.infer<typeof StatsSchema>
/** The figures of one group of applications (a source, a month). */
export type FunnelFigures = Omit<Stats['by_source'][number], 'source'>
export type FunnelStep = Stats['funnel'][number]

export type ApiErrorBody = z.infer<typeof ErrorSchema>['error']
