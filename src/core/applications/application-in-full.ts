import {type ApplicationWithHistory, applicationDetail} from './application.js'
import type {ApplicationService} from './application-service.js'
import type {Contact} from './contact.js'
import type {ContactService} from './contact-service.js'
import {type Interview, type InterviewService, interviewRecord} from './interviews.js'

/** One application with everything the tracker keeps of it: its history, interviews and contacts. */
export interface ApplicationInFull extends ApplicationWithHistory {
  interviews: Interview[]
  contacts: Contact[]
}

interface TrackerServices {
  applications: Pick<ApplicationService, 'get'>
  interviews: Pick<InterviewService, 'of'>
  contacts: Pick<ContactService, 'list'>
}

/** What `status <id>` and GET /applications/{url} show of one application. */
export async function applicationInFull(services: TrackerServices, ref: string): Promise<ApplicationInFull> {
  const found = await services.applications.get(ref)
  const [interviews, contacts] = await Promise.all([
    services.interviews.of(found.application),
    services.contacts.list(String(found.application.id)),
  ])
  return {...found, interviews, contacts}
}

/** The JSON of one application in full: the record, its history, interviews and contacts. */
export function applicationInFullDocument(full: ApplicationInFull) {
  return {...applicationDetail(full), interviews: full.interviews.map(interviewRecord), contacts: full.contacts}
}
