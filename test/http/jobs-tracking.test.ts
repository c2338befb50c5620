import {afterEach, describe, expect, it} from 'vitest'
import {recordRun} from '../../src/core/jobs/run-changes.js'
import {
  applicationBody,
  json,
  jsonBody,
  type MockBoard,
  mockRemoteOk,
  remoteOkJob,
  type TestApi,
  testApi,
} from '../helpers/http.js'
import {acmeJob, closesNothing, foundJobs, runRecord} from '../helpers/job-details.js'

let api: TestApi | undefined
let remoteok: MockBoard | undefined

afterEach(async () => {
  await api?.cleanup()
  await remoteok?.close()
  api = undefined
  remoteok = undefined
})

describe('GET /jobs judges tracked and new as jobagent run does', () => {
  it('matches a board URL with tracking parameters to the application tracked under the plain URL', async () => {
    remoteok = await mockRemoteOk([
      remoteOkJob({id: '1', url: 'https://remoteok.com/remote-jobs/1?utm_source=x'}),
      remoteOkJob({id: '2', position: 'Ops', url: 'https://remoteok.com/remote-jobs/2?utm_source=x&ref=feed'}),
      remoteOkJob({id: '3', position: 'QA', url: 'https://remoteok.com/remote-jobs/3?utm_source=x'}),
    ])
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const track = (url: string, status: string) =>
      api!.app.request('/applications', jsonBody(applicationBody({url, status})))
    expect((await track('https://remoteok.com/remote-jobs/1', 'applied')).status).toBe(201)
    expect((await track('https://remoteok.com/remote-jobs/2/', 'saved')).status).toBe(201)

    const body = await json(await api.app.request('/jobs'))
    const judged = body.jobs.map((job: Record<string, unknown>) => [
      job.url,
      job.tracked_status,
      job.tracked_url,
      job.is_new,
    ])
    expect(judged).toEqual(
      expect.arrayContaining([
        ['https://remoteok.com/remote-jobs/1?utm_source=x', 'applied', 'https://remoteok.com/remote-jobs/1', false],
        [
          'https://remoteok.com/remote-jobs/2?utm_source=x&ref=feed',
          'saved',
          'https://remoteok.com/remote-jobs/2/',
          true,
        ],
        ['https://remoteok.com/remote-jobs/3?utm_source=x', null, null, true],
      ]),
    )
    expect(judged).toHaveLength(3)
  })

  it('judges a job by every listing of its role, as the run does: applied for under the other URL, it is not new', async () => {
    remoteok = await mockRemoteOk([
      remoteOkJob({id: '1', company: 'Acme', position: 'Backend Engineer', url: 'https://remoteok.com/remote-jobs/1'}),
      remoteOkJob({id: '2', company: 'Acme', position: 'Backend Engineer', url: 'https://remoteok.com/remote-jobs/2'}),
    ])
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    const body = await json(await api.app.request('/jobs'))
    expect(body.jobs).toHaveLength(1)
    const other = body.jobs[0].url.endsWith('/1')
      ? 'https://remoteok.com/remote-jobs/2'
      : 'https://remoteok.com/remote-jobs/1'
    await api.app.request('/applications', jsonBody(applicationBody({url: other, status: 'applied'})))

    const judged = await json(await api.app.request('/jobs'))
    expect(judged.jobs).toHaveLength(1)
    expect(judged.jobs[0]).toMatchObject({tracked_status: 'applied', tracked_url: other, is_new: false})
  })

  it('judges each call against the tracker as it is then', async () => {
    remoteok = await mockRemoteOk([remoteOkJob({url: 'https://remoteok.com/remote-jobs/1?utm_medium=rss'})])
    api = testApi({config: {sources: [{type: 'remoteok', url: remoteok.url}]}})
    expect((await json(await api.app.request('/jobs'))).jobs[0]).toMatchObject({tracked_status: null, is_new: true})
    await api.app.request('/applications', jsonBody(applicationBody({url: 'https://remoteok.com/remote-jobs/1'})))
    expect((await json(await api.app.request('/jobs'))).jobs[0]).toMatchObject({
      tracked_status: 'applied',
      tracked_url: 'https://remoteok.com/remote-jobs/1',
      is_new: false,
    })
  })

  it('POST /jobs/tracking judges URLs against the tracker as it is now, in the order given', async () => {
    api = testApi()
    await api.app.request(
      '/applications',
      jsonBody(applicationBody({url: 'https://board.example/jobs/1', status: 'offer'})),
    )
    const response = await api.app.request(
      '/jobs/tracking',
      jsonBody({urls: ['https://board.example/jobs/2', 'https://board.example/jobs/1?utm_source=x#apply']}),
    )
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      jobs: [
        {url: 'https://board.example/jobs/2', tracked_status: null, tracked_url: null, is_new: true},
        {
          url: 'https://board.example/jobs/1?utm_source=x#apply',
          tracked_status: 'offer',
          tracked_url: 'https://board.example/jobs/1',
          is_new: false,
        },
      ],
    })
    const refused = await api.app.request('/jobs/tracking', jsonBody({urls: 'https://board.example/jobs/2'}))
    expect(refused.status).toBe(422)
    expect((await json(refused)).error.details[0].field).toBe('urls')
  })

  it('POST /jobs/track records an untracked job and refuses one tracked under its canonical URL', async () => {
    api = testApi()
    const plain = 'https://board.example/jobs/1'
    const first = await api.app.request('/jobs/track', jsonBody(applicationBody({url: plain, status: 'saved'})))
    expect(first.status).toBe(201)
    expect(await json(first)).toMatchObject({status: 'recorded', application: {url: plain, status: 'saved'}})

    const again = await api.app.request(
      '/jobs/track',
      jsonBody(applicationBody({url: `${plain}?utm_source=newsletter&utm_medium=email`})),
    )
    expect(again.status).toBe(409)
    expect(await json(again)).toEqual({
      error: {
        code: 'conflict',
        message: `${plain}?utm_source=newsletter&utm_medium=email is already tracked as #1 ${plain} (status: saved)`,
        details: [{field: 'url', message: 'already tracked as #1'}],
      },
    })
    const invalid = await api.app.request('/jobs/track', jsonBody({url: 'https://board.example/jobs/9'}))
    expect(invalid.status).toBe(422)
    const {applications} = await json(await api.app.request('/applications'))
    expect(applications.map((application: {url: string}) => application.url)).toEqual([plain])
  })

  it('POST /jobs/track takes the id of a stored job or any link to it, filling the fields from the job', async () => {
    api = testApi()
    await recordRun(api.context.jobStore, runRecord('2026-11-20T08:00:00'), {
      ...closesNothing,
      found: foundJobs([acmeJob(1), acmeJob(2)]),
    })
    const link = 'https://board.example/jobs/1?gh_src=abc&utm_medium=email&ref=hn'
    const byLink = await api.app.request('/jobs/track', jsonBody({url: link}))
    expect(byLink.status).toBe(201)
    expect((await json(byLink)).application).toMatchObject({
      id: 1,
      url: link,
      title: 'Engineer 1',
      company: 'Acme',
      location: 'Remote',
      source: 'remotive',
      status: 'applied',
    })
    const byId = await api.app.request('/jobs/track', jsonBody({job_id: 2, status: 'saved'}))
    expect(byId.status).toBe(201)
    expect((await json(byId)).application).toMatchObject({id: 2, title: 'Engineer 2', status: 'saved'})
    const again = await api.app.request('/jobs/track', jsonBody({url: 'https://board.example/jobs/2?utm_source=x'}))
    expect(again.status).toBe(409)
    expect((await json(again)).error.message).toContain('is already tracked as #2 https://board.example/jobs/2')
    const both = await api.app.request('/jobs/track', jsonBody({job_id: 1, url: link}))
    expect(both.status).toBe(422)
    expect((await json(both)).error.details).toEqual([
      {field: 'url', message: 'leave out the URL when a job id names the job'},
    ])
  })

  it('documents the judgement on FoundJob', async () => {
    api = testApi()
    const document = await json(await api.app.request('/openapi.json'))
    expect(document.components.schemas.FoundJob.required).toEqual(
      expect.arrayContaining(['url', 'tracked_status', 'tracked_url', 'is_new']),
    )
    expect(document.components.schemas.ListedJob.required).toContain('tracked_url')
    expect(Object.keys(document.paths['/jobs/track'].post.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '409',
      '413',
      '415',
      '422',
      '503',
    ])
    expect(document.paths['/jobs/tracking'].post.responses['200']).toBeDefined()
  })
})
