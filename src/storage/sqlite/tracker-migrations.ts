import {applicationCanonicalKey, applicationUrlKey} from '../../core/url-identity.js'
import type {Migration} from './database.js'

/** Versioned schema of jobagent.db. Append new versions; never edit one that has shipped. */
export const TRACKER_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE applications (
        id INTEGER PRIMARY KEY,
        url_key TEXT NOT NULL UNIQUE,
        url TEXT NOT NULL,
        title TEXT NOT NULL,
        company TEXT NOT NULL,
        location TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL,
        applied_date TEXT NOT NULL,
        status TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL
      );
      CREATE INDEX applications_status ON applications (status);
      CREATE TABLE status_history (
        id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        changed_at TEXT NOT NULL,
        old_status TEXT NOT NULL,
        new_status TEXT NOT NULL,
        old_notes TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX status_history_application ON status_history (application_id, id);
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        status TEXT NOT NULL,
        mode TEXT NOT NULL,
        jobs_found INTEGER NOT NULL DEFAULT 0,
        new_jobs INTEGER NOT NULL DEFAULT 0,
        notified INTEGER NOT NULL DEFAULT 0,
        sources TEXT NOT NULL DEFAULT '[]',
        error TEXT
      );
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        url_key TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        company TEXT NOT NULL,
        location TEXT NOT NULL DEFAULT '',
        url TEXT NOT NULL,
        source TEXT NOT NULL,
        posted_date TEXT,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        notified_at TEXT,
        identity_key TEXT NOT NULL,
        last_run_id INTEGER REFERENCES runs (id)
      );
      CREATE INDEX jobs_last_run ON jobs (last_run_id);
      CREATE INDEX jobs_identity ON jobs (identity_key);
    `,
  },
  {
    // The details of a job beyond the seed's six fields; lists and the salary are JSON text. Descriptions (several
    // KB each) live in a table of their own, written only when one changes (description_hash): SQLite rewrites a
    // whole row on every UPDATE, and a run updates every job it sees again.
    version: 3,
    sql: `
      CREATE TABLE job_descriptions (
        job_id INTEGER PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
        description TEXT NOT NULL
      );
      ALTER TABLE jobs ADD COLUMN description_hash TEXT;
      ALTER TABLE jobs ADD COLUMN salary TEXT;
      ALTER TABLE jobs ADD COLUMN employment_type TEXT;
      ALTER TABLE jobs ADD COLUMN remote INTEGER;
      ALTER TABLE jobs ADD COLUMN regions TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE jobs ADD COLUMN timezones TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE jobs ADD COLUMN seniority TEXT;
      ALTER TABLE jobs ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE jobs ADD COLUMN board_id TEXT;
      ALTER TABLE jobs ADD COLUMN company_url TEXT;
    `,
  },
  {
    // Follow-ups: an application may be snoozed until a time, and a run's digest records when it named one.
    version: 4,
    sql: `
      ALTER TABLE applications ADD COLUMN snoozed_until TEXT;
      ALTER TABLE applications ADD COLUMN reminded_at TEXT;
      CREATE INDEX applications_waiting ON applications (status, updated_at);
    `,
  },
  {
    // The lives of jobs (docs/LIFECYCLE.md): closed, reopened and reposted jobs, the other listings of a role, and
    // per board how many of its runs in a row no longer listed a job (rows are kept for open jobs only). A role is
    // company + title since this version: the stored keys (company|title|location) lose their last part.
    version: 5,
    sql: `
      ALTER TABLE jobs ADD COLUMN closed_at TEXT;
      ALTER TABLE jobs ADD COLUMN reopened INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN reposted INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN also_on TEXT NOT NULL DEFAULT '[]';
      UPDATE jobs SET identity_key = substr(identity_key, 1,
        instr(identity_key, '|') + instr(substr(identity_key, instr(identity_key, '|') + 1), '|') - 1)
        WHERE identity_key LIKE '%|%|%';
      CREATE INDEX jobs_closed ON jobs (closed_at) WHERE closed_at IS NOT NULL;
      CREATE TABLE job_boards (
        job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        board TEXT NOT NULL,
        criteria TEXT NOT NULL,
        misses INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, board)
      ) WITHOUT ROWID;
      CREATE INDEX job_boards_board ON job_boards (board, criteria);
      ALTER TABLE applications ADD COLUMN posting_closed_at TEXT;
    `,
  },
  {
    // What the HTML of a description read as (SqliteDescriptionCache): the hash of the HTML and of the text it gave. The
    // text is found through the jobs that hold it, so the index on their description hash.
    version: 6,
    sql: `
      CREATE TABLE description_sources (
        source_hash TEXT PRIMARY KEY,
        description_hash TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX jobs_description_hash ON jobs (description_hash) WHERE description_hash IS NOT NULL;
    `,
  },
  {
    // Every canonical URL a job was listed under (its own and its other listings'), so a run finds the job by any
    // of them: a board that goes on listing it under its own URL is neither a repost nor a miss. Jobs stored before
    // know their own URL; their other listings join when a run sees them again.
    version: 7,
    sql: `
      CREATE TABLE job_urls (
        url_key TEXT PRIMARY KEY,
        job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX job_urls_job ON job_urls (job_id);
      INSERT INTO job_urls (url_key, job_id) SELECT url_key, id FROM jobs;
    `,
  },
  {
    // Descriptions are kept by content (their hash) instead of per job: a run puts each board's texts here as the
    // board answers and holds only their hashes (DescriptionStore), jobs with the same text share one row, and a
    // job points at its text through description_hash. Texts no job points at are removed when a run is stored.
    // row_hash: the fingerprint of what the last run wrote into the job's row besides when it was seen
    // (core/jobs/run-changes.ts), so a job seen again unchanged is only touched; null (rows of earlier versions)
    // never matches.
    // applications_waiting covers every column a run's follow-up count reads, so counting a backlog of thousands
    // reads the index alone.
    version: 8,
    sql: `
      ALTER TABLE jobs ADD COLUMN row_hash TEXT;
      DROP INDEX applications_waiting;
      CREATE INDEX applications_waiting ON applications (status, updated_at, snoozed_until, reminded_at);
      CREATE TABLE descriptions (
        hash TEXT PRIMARY KEY,
        description TEXT NOT NULL
      );
      INSERT OR IGNORE INTO descriptions (hash, description)
        SELECT jobs.description_hash, job_descriptions.description
        FROM job_descriptions JOIN jobs ON jobs.id = job_descriptions.job_id
        WHERE jobs.description_hash IS NOT NULL;
      DROP TABLE job_descriptions;
    `,
  },
  {
    // The key of each application's URL without tracking parameters (applicationCanonicalKey), so a job is matched
    // with an application tracked from a link with `?utm_source=...` as well as the other way round.
    version: 9,
    sql: `
      ALTER TABLE applications ADD COLUMN canonical_key TEXT;
      CREATE INDEX applications_canonical ON applications (canonical_key);
    `,
    backfill(db) {
      const rows = db.prepare('SELECT id, url FROM applications').raw().all() as [number, string][]
      const update = db.prepare('UPDATE applications SET canonical_key = ? WHERE id = ?')
      for (const [id, url] of rows) update.run(applicationCanonicalKey(url), id)
    },
  },
  {
    // What the person said of jobs (docs/MATCHING.md, "Verdicts"): one verdict per job, with the title and tags
    // the verdicts teach as they were when it was given.
    version: 10,
    sql: `
      CREATE TABLE job_verdicts (
        job_id INTEGER PRIMARY KEY REFERENCES jobs (id),
        verdict TEXT NOT NULL CHECK (verdict IN ('like', 'dismiss')),
        reason TEXT,
        given_by TEXT NOT NULL CHECK (given_by IN ('user', 'tracked')),
        given_at TEXT NOT NULL,
        title TEXT NOT NULL,
        company TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX job_verdicts_given ON job_verdicts (given_at);
    `,
  },
  {
    // What each description said for the profile (TermsCache), kept beside the text so that a run reads
    // only the texts it has not read before; `reader` is the hash of the reader's key (rules and profile terms).
    version: 11,
    sql: `
      CREATE TABLE description_readings (
        reader TEXT NOT NULL,
        description_hash TEXT NOT NULL,
        reading TEXT NOT NULL,
        PRIMARY KEY (reader, description_hash)
      ) WITHOUT ROWID;
    `,
  },
  {
    // The tracker of docs/COMMANDS.md, "Tracking applications". Applications are rebuilt with AUTOINCREMENT, so
    // the short id of a purged application is never given to another; the history is rebuilt with them (it
    // references them) and says what each entry changed (`change`, null in older entries: a status or notes
    // change) and how (`details`, JSON). Interviews and contacts belong to an application and go with it when it
    // is purged.
    version: 12,
    sql: `
      CREATE TABLE applications_next (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url_key TEXT NOT NULL UNIQUE,
        url TEXT NOT NULL,
        title TEXT NOT NULL,
        company TEXT NOT NULL,
        location TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL,
        applied_date TEXT NOT NULL,
        status TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL,
        snoozed_until TEXT,
        reminded_at TEXT,
        posting_closed_at TEXT,
        canonical_key TEXT,
        salary_expected TEXT NOT NULL DEFAULT '',
        salary_offered TEXT NOT NULL DEFAULT '',
        removed_at TEXT
      );
      INSERT INTO applications_next (id, url_key, url, title, company, location, source, applied_date, status, notes,
        updated_at, snoozed_until, reminded_at, posting_closed_at, canonical_key)
        SELECT id, url_key, url, title, company, location, source, applied_date, status, notes, updated_at,
        snoozed_until, reminded_at, posting_closed_at, canonical_key FROM applications;
      CREATE TABLE status_history_next (
        id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL REFERENCES applications_next (id) ON DELETE CASCADE,
        changed_at TEXT NOT NULL,
        old_status TEXT NOT NULL,
        new_status TEXT NOT NULL,
        old_notes TEXT NOT NULL DEFAULT '',
        change TEXT,
        details TEXT
      );
      INSERT INTO status_history_next (id, application_id, changed_at, old_status, new_status, old_notes)
        SELECT id, application_id, changed_at, old_status, new_status, old_notes FROM status_history;
      DROP TABLE status_history;
      DROP TABLE applications;
      ALTER TABLE applications_next RENAME TO applications;
      ALTER TABLE status_history_next RENAME TO status_history;
      CREATE INDEX applications_status ON applications (status);
      CREATE INDEX applications_canonical ON applications (canonical_key);
      CREATE INDEX applications_waiting
        ON applications (status, updated_at, snoozed_until, reminded_at) WHERE removed_at IS NULL;
      CREATE INDEX status_history_application ON status_history (application_id, id);
      CREATE TABLE interviews (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        starts_at TEXT NOT NULL,
        time_zone TEXT NOT NULL,
        kind TEXT,
        with_whom TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      );
      CREATE INDEX interviews_starts ON interviews (starts_at);
      CREATE INDEX interviews_application ON interviews (application_id);
      CREATE TABLE contacts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        role TEXT NOT NULL DEFAULT '',
        reach TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      );
      CREATE INDEX contacts_application ON contacts (application_id);
    `,
  },
  {
    // Keys read percent-escapes as RFC 3986 does (`/%64up` is `/dup`) since this version: the keys of URLs holding
    // escapes are made again. When the new key is another application's already (two spellings of one URL tracked
    // apart before), the application keeps its old key: both stay, each found by its id.
    version: 13,
    sql: '',
    backfill(db) {
      const rows = db
        .prepare("SELECT id, url, url_key, canonical_key FROM applications WHERE instr(url, '%') > 0")
        .raw()
        .all() as [number, string, string, string | null][]
      const taken = db.prepare('SELECT 1 FROM applications WHERE url_key = ? AND id <> ?').pluck()
      const update = db.prepare('UPDATE applications SET url_key = ?, canonical_key = ? WHERE id = ?')
      for (const [id, url, urlKey, canonicalKey] of rows) {
        const newUrlKey = applicationUrlKey(url)
        const newCanonicalKey = applicationCanonicalKey(url)
        if (newUrlKey === urlKey && newCanonicalKey === canonicalKey) continue
        update.run(taken.get(newUrlKey, id) ? urlKey : newUrlKey, newCanonicalKey, id)
      }
    },
  },
  {
    // Who referred the person (trackedApplicationSchema referral): empty for every application tracked before.
    version: 14,
    sql: "ALTER TABLE applications ADD COLUMN referral TEXT NOT NULL DEFAULT '';",
  },
  {
    // The terms each description holds for the profile (TermsCache), named as the code names them: `analyser` is
    // the hash of the analyser's key (rules and profile terms). Kept terms stay valid.
    version: 15,
    sql: `
      ALTER TABLE description_readings RENAME TO description_terms;
      ALTER TABLE description_terms RENAME COLUMN reader TO analyser;
      ALTER TABLE description_terms RENAME COLUMN reading TO terms;
    `,
  },
  {
    // Sweeps of the directory (docs/SOURCES.md, "Sweeping the directory"): per board what the last sweep saw
    // (validators or a hash, its candidates) and whether it is resting as dead; per sweep what each board ended
    // with, so a stopped sweep resumes where it stopped.
    version: 16,
    sql: `
      CREATE TABLE sweeps (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL,
        selection TEXT NOT NULL,
        run_id INTEGER REFERENCES runs (id),
        counts TEXT
      );
      CREATE INDEX sweeps_status ON sweeps (status, selection);
      CREATE TABLE sweep_boards (
        board TEXT PRIMARY KEY,
        company TEXT NOT NULL,
        region TEXT,
        etag TEXT,
        last_modified TEXT,
        answer_hash TEXT,
        dead_since TEXT,
        dead_until TEXT,
        dead_count INTEGER NOT NULL DEFAULT 0,
        candidates TEXT NOT NULL DEFAULT '[]'
      ) WITHOUT ROWID;
      CREATE INDEX sweep_boards_dead ON sweep_boards (dead_until) WHERE dead_until IS NOT NULL;
      CREATE TABLE sweep_progress (
        sweep_id INTEGER NOT NULL REFERENCES sweeps (id) ON DELETE CASCADE,
        board TEXT NOT NULL,
        outcome TEXT NOT NULL,
        reason TEXT,
        jobs INTEGER NOT NULL,
        candidates INTEGER NOT NULL,
        PRIMARY KEY (sweep_id, board)
      ) WITHOUT ROWID;
    `,
  },
  {
    // The next action with its due date and the documents sent (trackedApplicationSchema next_action,
    // next_action_due, documents): none for every application tracked before. Interviews keep their length (an
    // hour, as the calendar gave every one before), a place or a link, and the UTC offset their start was read
    // with (null before: read as instantOf reads it).
    version: 17,
    sql: `
      ALTER TABLE interviews ADD COLUMN utc_offset INTEGER;
      ALTER TABLE interviews ADD COLUMN duration_minutes INTEGER NOT NULL DEFAULT 60;
      ALTER TABLE interviews ADD COLUMN place TEXT NOT NULL DEFAULT '';
      ALTER TABLE interviews ADD COLUMN link TEXT NOT NULL DEFAULT '';
      ALTER TABLE applications ADD COLUMN next_action TEXT NOT NULL DEFAULT '';
      ALTER TABLE applications ADD COLUMN next_action_due TEXT;
      ALTER TABLE applications ADD COLUMN documents TEXT NOT NULL DEFAULT '[]';
      CREATE INDEX applications_next_action_due ON applications (next_action_due) WHERE next_action_due IS NOT NULL;
    `,
  },
  {
    // The profile each board's kept answer was judged under (a hash of what the gates read): a board unchanged
    // since a sweep under another profile is read again and its candidates picked anew.
    version: 18,
    sql: 'ALTER TABLE sweep_boards ADD COLUMN profile_key TEXT;',
  },
  {
    // The contacts met at an interview (interviewSchema interviewer_ids), as a JSON list of their ids: none for
    // every interview added before, whose `with` text stays as it was.
    version: 19,
    sql: "ALTER TABLE interviews ADD COLUMN interviewer_ids TEXT NOT NULL DEFAULT '[]';",
  },
  {
    // What the daily run saw of each board of an entry with `boards_file` (docs/SOURCES.md, "Many companies"): the
    // last answer's validators or hash and its jobs (deflated JSON), so an unchanged board costs one conditional
    // request and no parsing, and how long a board that answered 404 rests. Apart from sweep_boards: the run asks
    // the full list (Greenhouse with content) where a sweep asks the light one, and keeps every job, not candidates.
    version: 20,
    sql: `
      CREATE TABLE run_boards (
        board TEXT PRIMARY KEY,
        request_key TEXT NOT NULL,
        etag TEXT,
        last_modified TEXT,
        answer_hash TEXT,
        jobs BLOB,
        dead_since TEXT,
        dead_until TEXT,
        dead_count INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;
    `,
  },
]
