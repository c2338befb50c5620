import {afterEach, describe, expect, it} from 'vitest'
import type {JobResponse} from '../../src/core/jobs/job.js'
import {ashbyBoard} from '../../src/sources/ashby.js'
import {jobicyBoard} from '../../src/sources/jobicy.js'
import {BOARD_CAPTURES, captureJobs} from '../helpers/board-captures.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, testDeps} from '../helpers/source-fixtures.js'

/**
 * The details of chosen jobs of every captured board, field by field, as read from the postings in
 * test/fixtures/sources. A description is checked by its length, start and end; a long tag list by its count and
 * first entries; everything else exactly.
 */
interface Expected {
  index: number
  title: string
  description: {length: number; start: string; end: string} | null
  tags?: {count: number; first: string[]}
  details: Partial<JobResponse>
}

const EXPECTED: Record<string, Expected[]> = {
  remoteok: [
    {
      index: 0,
      title: 'Senior Backend Golang Engineer Mailgun Send',
      description: {
        length: 572,
        start: 'Remote - The Mailgun Sending Pipeline team at Sinch is respo',
        end: "ts that read this and see they're human.",
      },
      details: {
        salary: {
          min: 70000,
          max: 110000,
          currency: 'USD',
          period: 'year',
          annual_min: 70000,
          annual_max: 110000,
          text: null,
        },
        employment_type: null,
        remote: true,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: '1059249',
        company_url: null,
        tags: ['golang', 'senior', 'engineer', 'backend'],
      },
    },
    {
      index: 5,
      title: 'Data Entry Assistant',
      description: {
        length: 2259,
        start: 'Location: Remote\n\nJob Type: Full-Time/Part-Time\n\nJob Descrip',
        end: "ts that read this and see they're human.",
      },
      details: {
        salary: null,
        employment_type: null,
        remote: true,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: '1058875',
        company_url: null,
        tags: ['assistant', 'training', 'growth', 'e-commerce'],
      },
    },
  ],
  remotive: [
    {
      index: 0,
      title: 'Senior Graphic Designer',
      description: {
        length: 3352,
        start: 'Are you a talented Senior Designer looking for a remote job ',
        end: 'ith a project that fits your experience.',
      },
      tags: {count: 45, first: ['Design', '.Net', 'android']},
      details: {
        salary: null,
        employment_type: 'full_time',
        remote: true,
        regions: ['Americas', 'Europe', 'Asia', 'Africa', 'Oceania'],
        timezones: [],
        seniority: null,
        board_id: '2091081',
        company_url: null,
      },
    },
    {
      index: 1,
      title: 'Data Labeling Specialists',
      description: {
        length: 2319,
        start: 'Who We Are\n\nWorkada creates high-quality labeled data for ad',
        end: 'lps improve the way technology performs.',
      },
      details: {
        salary: {
          min: 18,
          max: 22,
          currency: 'USD',
          period: 'hour',
          annual_min: 37440,
          annual_max: 45760,
          text: '$18 - $22/hr',
        },
        employment_type: 'contract',
        remote: true,
        regions: ['USA'],
        timezones: [],
        seniority: null,
        board_id: '2090903',
        company_url: null,
        tags: ['Data and Analytics', 'research', 'digital content', 'spreadsheets'],
      },
    },
    {
      index: 9,
      title: 'Product Sales Specialist - Pet Health',
      description: {
        length: 3910,
        start: "Must Love Dogs!!\n\nAt Tribe Wellness, we're more than just a ",
        end: 'y different type of company.\n\n#li-remote',
      },
      details: {
        salary: {
          min: 55000,
          max: 100000,
          currency: 'USD',
          period: null,
          annual_min: null,
          annual_max: null,
          text: '$55k - $100k',
        },
        employment_type: 'full_time',
        remote: true,
        regions: ['USA'],
        timezones: ['CST (UTC-6)'],
        seniority: null,
        board_id: '2091048',
        company_url: null,
        tags: ['Sales', 'excel', 'salesforce', 'video', 'spark'],
      },
    },
  ],
  arbeitnow: [
    {
      index: 1,
      title: 'Senior Product Manager, Search (all genders)',
      description: {
        length: 4786,
        start: 'Distribusion is the world’s leading ground transportation ma',
        end: 'sh Speaking Jobs in Germany on Arbeitnow',
      },
      details: {
        salary: null,
        employment_type: 'full_time',
        remote: false,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: 'senior-product-manager-search-all-genders-berlin-47054',
        company_url: null,
        tags: ['Information technology', "bachelor's degree"],
      },
    },
  ],
  jobicy: [
    {
      index: 0,
      title: 'Chat Support Specialist (Part-Time)',
      description: {
        length: 2388,
        start: 'Our client is currently seeking an empathetic and proficient',
        end: 'cations).\n\nLocations: US, CA, EU, LATAM.',
      },
      details: {
        salary: null,
        employment_type: 'part_time',
        remote: true,
        regions: ['LATAM', 'Canada', 'Europe', 'USA'],
        timezones: [],
        seniority: null,
        board_id: '113624',
        company_url: null,
        tags: ['Customer Success'],
      },
    },
    {
      index: 1,
      title: 'Customer Success Manager',
      description: {
        length: 6517,
        start: 'We are looking for a highly driven and motivated individual ',
        end: ' bonus, benefits, or related incentives.',
      },
      details: {
        salary: {
          min: 105000,
          max: 157000,
          currency: 'USD',
          period: 'year',
          annual_min: 105000,
          annual_max: 157000,
          text: null,
        },
        employment_type: 'full_time',
        remote: true,
        regions: ['USA'],
        timezones: [],
        seniority: null,
        board_id: '113573',
        company_url: null,
        tags: ['Customer Success'],
      },
    },
  ],
  himalayas: [
    {
      index: 2,
      title: 'Portfolio Manager - Freelance AI Trainer',
      description: {
        length: 119,
        start: 'Please submit your CV in English and indicate your level of ',
        end: '.\n\nMindrift connects specialists with pr',
      },
      tags: {count: 10, first: ['Portfolio-Management', 'Investment-Management', 'AI-Training']},
      details: {
        salary: {min: 50, max: 50, currency: 'USD', period: 'hour', annual_min: 104000, annual_max: 104000, text: null},
        employment_type: 'contract',
        remote: true,
        regions: ['Romania'],
        timezones: ['UTC+2'],
        seniority: 'Mid-level',
        board_id: null,
        company_url: null,
      },
    },
    {
      index: 3,
      title: 'Senior System Software Engineer, NvSci',
      description: {
        length: 143,
        start: 'NVIDIA has been transforming computer graphics, PC gaming, a',
        end: 'ears. It’s a unique legacy of innovation',
      },
      tags: {
        count: 13,
        first: ['System-Software-Engineering', 'Embedded-Systems-Engineering', 'Automotive-Software-Engineering'],
      },
      details: {
        salary: {
          min: 184000,
          max: 356500,
          currency: 'USD',
          period: 'year',
          annual_min: 184000,
          annual_max: 356500,
          text: null,
        },
        employment_type: 'full_time',
        remote: true,
        regions: ['Canada', 'United States'],
        timezones: ['UTC-10', 'UTC-9', 'UTC-8', 'UTC-7', 'UTC-6', 'UTC-5', 'UTC-4', 'UTC-3:30', 'UTC+14'],
        seniority: 'Senior',
        board_id: null,
        company_url: null,
      },
    },
  ],
  greenhouse: [
    {
      index: 0,
      title: 'Account Executive - Italy',
      description: {
        length: 7566,
        start: 'GitLab is the intelligent orchestration platform for DevSecO',
        end: 't us know during the recruiting process.',
      },
      details: {
        salary: null,
        employment_type: null,
        remote: null,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: '8503792002',
        company_url: null,
        tags: ['EMEA - Commercial'],
      },
    },
  ],
  lever: [
    {
      index: 0,
      title: 'Director of IT',
      description: {
        length: 650,
        start: 'About Backstory\n\nBackstory (formerly People.ai) is the leadi',
        end: 'cial goals\n\n- Oversee IT support operati',
      },
      details: {
        salary: {
          min: 200000,
          max: 270000,
          currency: 'USD',
          period: 'year',
          annual_min: 200000,
          annual_max: 270000,
          text: null,
        },
        employment_type: 'full_time',
        remote: true,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: 'd6d4ddcc-1d05-433f-8777-e803665e219a',
        company_url: null,
        tags: ['G&A'],
      },
    },
    {
      index: 2,
      title: 'Principal Customer Success Manager',
      description: {
        length: 958,
        start: 'About Backstory\n\nBackstory (formerly People.ai) is the leadi',
        end: 'in the top 20 percent of Inc 5000 compan',
      },
      details: {
        salary: null,
        employment_type: 'full_time',
        remote: true,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: 'bb0e548d-48e5-4154-8931-a0c2a944c068',
        company_url: null,
        tags: ['Customer Success'],
      },
    },
  ],
  ashby: [
    {
      index: 0,
      title: 'Business Development Representative, New York',
      description: {
        length: 7112,
        start: 'Who We Are\n\nNotion is the collaborative AI workspace where t',
        end: 'ability, please let your recruiter know.',
      },
      details: {
        salary: null,
        employment_type: 'full_time',
        remote: false,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: '05e14247-17c4-4e98-9a13-53828a4e2f13',
        company_url: null,
        tags: ['Early Career'],
      },
    },
  ],
  weworkremotely: [
    {
      index: 0,
      title: 'Maths Coach',
      description: {
        length: 1613,
        start: "Headquarters: London\nURL: http://www.mathmo.com\n\nWe're looki",
        end: 'otely.com/remote-jobs/mathmo-maths-coach',
      },
      details: {
        salary: null,
        employment_type: 'contract',
        remote: true,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: null,
        company_url: 'http://www.mathmo.com',
        tags: ['All Other Remote'],
      },
    },
    {
      index: 2,
      title: 'Entry-Level Crypto Market Specialist',
      description: {
        length: 1965,
        start: 'Headquarters:\n\nApplication link: https://apexcgroup.com/work',
        end: 'ade-entry-level-crypto-market-specialist',
      },
      details: {
        salary: null,
        employment_type: 'full_time',
        remote: true,
        regions: [],
        timezones: [],
        seniority: null,
        board_id: null,
        company_url: null,
        tags: ['All Other Remote', 'Cryptocurrency'],
      },
    },
  ],
}

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function jobsOf(board: string): Promise<JobResponse[]> {
  return (await captureJobs(board)).jobs
}

describe('the details of every board', () => {
  for (const [board, expected] of Object.entries(EXPECTED)) {
    it(`${board}: every field it gives, exactly`, async () => {
      const jobs = await jobsOf(board)
      for (const want of expected) {
        const job = jobs[want.index]!
        expect(job.title).toBe(want.title)
        expect(job).toMatchObject(want.details)
        if (want.description === null) expect(job.description).toBeNull()
        else {
          expect(job.description).toHaveLength(want.description.length)
          expect(job.description?.startsWith(want.description.start)).toBe(true)
          expect(job.description?.endsWith(want.description.end)).toBe(true)
        }
        if (want.tags) {
          expect(job.tags).toHaveLength(want.tags.count)
          expect(job.tags.slice(0, want.tags.first.length)).toEqual(want.tags.first)
        }
      }
    })
  }

  it('reads the pay of shapes the captures lack: Ashby compensation, Jobicy 2026 amounts', async () => {
    const ashbyJob = (extra: Record<string, unknown>) => ({
      id: 'a1',
      title: 'Engineer',
      jobUrl: 'https://jobs.ashbyhq.com/acme/a1',
      workplaceType: 'Remote',
      isListed: true,
      ...extra,
    })
    const compensation = {
      compensationTierSummary: '€70K – €90K • Offers Equity',
      scrapeableCompensationSalarySummary: '€70K - €90K',
      summaryComponents: [
        {compensationType: 'EquityPercentage', interval: 'NONE', minValue: 0.1, maxValue: 0.2, currencyCode: null},
        {compensationType: 'Salary', interval: '1 YEAR', minValue: 70000, maxValue: 90000, currencyCode: 'EUR'},
      ],
    }
    const body = JSON.stringify({
      jobs: [
        ashbyJob({shouldDisplayCompensationOnJobPostings: true, compensation}),
        ashbyJob({
          id: 'a2',
          jobUrl: 'https://jobs.ashbyhq.com/acme/a2',
          shouldDisplayCompensationOnJobPostings: false,
          compensation,
        }),
      ],
    })
    server = await startMockServer(serveBody(body))
    const [shown, hidden] = await fetchAll(
      ashbyBoard.source({type: 'ashby', url: server.url, boards: ['acme']}, {slug: 'acme'}, testDeps()),
    )
    expect(shown?.salary).toEqual({
      min: 70000,
      max: 90000,
      currency: 'EUR',
      period: 'year',
      annual_min: 70000,
      annual_max: 90000,
      text: '€70K - €90K',
    })
    expect(shown?.remote).toBe(true)
    // The employer hides pay on its postings: jobagent does not show it either.
    expect(hidden?.salary).toBeNull()
    await server.close()

    const jobicy2026 = JSON.stringify({
      jobs: [
        {
          id: 7,
          url: 'https://jobicy.com/jobs/7',
          jobTitle: 'Support',
          companyName: 'Acme',
          jobGeo: 'Anywhere',
          jobLevel: 'Senior',
          jobType: ['Full-Time'],
          salaryMin: 4000,
          salaryMax: 5000,
          salaryCurrency: 'EUR',
          salaryPeriod: 'monthly',
          pubDate: '2026-08-15T15:28:49+00:00',
        },
      ],
    })
    server = await startMockServer(serveBody(jobicy2026))
    const [monthly] = await fetchAll(jobicyBoard.source({type: 'jobicy', url: server.url}, testDeps()))
    expect(monthly).toMatchObject({
      salary: {
        min: 4000,
        max: 5000,
        currency: 'EUR',
        period: 'month',
        annual_min: 48000,
        annual_max: 60000,
        text: null,
      },
      employment_type: 'full_time',
      seniority: 'Senior',
      // "Anywhere" is no restriction.
      regions: [],
    })
  })

  it('asks Greenhouse for the description and Ashby for the pay', async () => {
    expect((await captureJobs('greenhouse')).requests).toEqual(['/v1/boards/gitlab/jobs?content=true'])
    expect((await captureJobs('ashby')).requests).toEqual(['/posting-api/job-board/notion?includeCompensation=true'])
  })

  it('keeps the markup out of every description: no tags, no entities, no runs of blank lines', async () => {
    for (const board of Object.keys(BOARD_CAPTURES)) {
      for (const job of await jobsOf(board)) {
        if (job.description === null) continue
        expect(job.description, `${board}: ${job.title}`).not.toMatch(
          /<\/?(p|div|li|ul|br|strong|span)\b|&(amp|lt|gt|nbsp);/,
        )
        expect(job.description).not.toMatch(/\n\s*\n\s*\n/)
      }
    }
  })
})
