import type {ApplicationDocument, DocumentKind, TrackedApplication} from './application.js'

// The words every front end (the CLI, the dashboard, the web page) shows for an application's next action and
// documents. Types only from the record's module, so the web page's bundle takes these without the schemas.

/** What each kind of document is called where it is shown. */
export const DOCUMENT_LABELS: Record<DocumentKind, string> = {cv: 'cv', cover_letter: 'cover letter'}

/** A document recorded: its file, the start of its hash, and its copy when one is kept. */
export function documentLine(document: ApplicationDocument): string {
  const copy = document.copy ? `, copy ${document.copy}` : ''
  return `${document.path} (sha256 ${document.sha256.slice(0, 12)}${copy})`
}

/** A next action with its due date. */
export function nextActionLine(application: Pick<TrackedApplication, 'next_action' | 'next_action_due'>): string {
  const due = application.next_action_due ? ` (due ${application.next_action_due})` : ''
  return `${application.next_action}${due}`
}
