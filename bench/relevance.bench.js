// How well jobagent ranks (issue "Explainable matching"): NDCG@10 of jobagent's scores and of a plain BM25
// baseline over the labelled evaluation set in test/fixtures/relevance (68 captured jobs, four profiles), per
// profile and as means. The computation is the one test/core/jobs/relevance.test.ts runs (test/helpers/relevance.ts),
// loaded from the sources through tsx, as the test loads it; the figures are reported, the test holds the target.
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {register} from 'tsx/esm/api'
import {figure} from './lib/figures.js'
import {ROOT} from './lib/options.js'
import {reportBenchmark} from './lib/report.js'

register()
const load = (path) => import(pathToFileURL(join(ROOT, path)).href)
const [{relevanceFigures}, {scoreJobs}] = await Promise.all([
  load('test/helpers/relevance.ts'),
  load('src/core/matching/score.ts'),
])

const figures = relevanceFigures((jobs, profile) => scoreJobs(jobs, profile))
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length
// As a percentage (NDCG@10 x 100), so the table shows three digits.
const ndcg = (id, name, value) =>
  figure({id, name, unit: '%', better: 'higher', samples: [Math.round(value * 1000) / 10]})

reportBenchmark('relevance', {
  figures: [
    ndcg(
      'relevance/jobagent-mean',
      'jobagent ranking, mean NDCG@10 over the profiles',
      mean(figures.map((f) => f.jobagent)),
    ),
    ndcg('relevance/bm25-mean', 'BM25 baseline, mean NDCG@10 over the profiles', mean(figures.map((f) => f.baseline))),
    ...figures.flatMap(({profile, jobagent, baseline}) => [
      ndcg(`relevance/${profile}/jobagent`, `jobagent ranking, NDCG@10, profile ${profile}`, jobagent),
      ndcg(`relevance/${profile}/bm25`, `BM25 baseline, NDCG@10, profile ${profile}`, baseline),
    ]),
  ],
  notes: [
    `${figures.length} profiles over the jobs of the captured board answers, each job labelled 0/1/2 by reading it ` +
      '(test/fixtures/relevance/NOTES.md); the test fails when the jobagent mean is not above the BM25 mean.',
  ],
})
