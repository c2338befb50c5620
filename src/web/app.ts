// The jobagent web page, bundled by esbuild (scripts/bundle-web.js) into the app.js that index.html loads; no
// framework. It talks only to the public REST API, inserts API text as text (never as HTML) and has no inline
// script or style, so a Content-Security-Policy of default-src 'self' holds. Each tab is a view module; this one
// wires them to index.html and draws them together.
import {loadApplications, renderApplications, setupApplicationsView} from './applications-view.js'
import {$, el} from './dom.js'
import {renderFollowUps, setupFollowUpsView} from './follow-ups-view.js'
import {downloadCsv, renderCounts} from './header-view.js'
import {loadLastRun, renderJobs, renderLastRunSummary, setupJobsView} from './jobs-view.js'
import {showError} from './messages.js'
import type {Page} from './page-state.js'
import {loadStats} from './stats-view.js'
import {setupTokenForm} from './token-form.js'

function render(): void {
  renderCounts()
  renderLastRunSummary()
  renderJobs()
  renderApplications()
  renderFollowUps()
}

async function refresh(): Promise<void> {
  try {
    await loadApplications()
  } catch (error) {
    showError('Could not load the applications', error)
  }
  render()
}

function setupTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLElement>('[role="tab"]')]
  const choose = (chosen: HTMLElement, focus: boolean) => {
    for (const tab of tabs) {
      const selected = tab === chosen
      tab.setAttribute('aria-selected', String(selected))
      tab.tabIndex = selected ? 0 : -1
      $(tab.getAttribute('aria-controls') ?? '').hidden = !selected
    }
    if (focus) chosen.focus()
    if (chosen.id === 'tab-stats') loadStats()
  }
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => choose(tab, false))
    tab.addEventListener('keydown', (event) => {
      const keys: Record<string, number> = {ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1}
      const target = keys[event.key]
      if (target === undefined) return
      event.preventDefault()
      choose(tabs[(target + tabs.length) % tabs.length]!, true)
    })
  })
}

function init(): void {
  const page: Page = {render, refresh}
  setupApplicationsView(page)
  setupFollowUpsView(page)
  setupJobsView(page)
  for (const tab of ['jobs', 'applications']) {
    $(`tab-${tab}`).append(' ', el('span', {className: 'tab-count', id: `tab-${tab}-count`}))
    $(`${tab}-filter`).addEventListener('input', render)
    $(`${tab}-status`).addEventListener('change', render)
  }
  $('tab-follow-ups').append(' ', el('span', {className: 'tab-count', id: 'tab-follow-ups-count'}))
  setupTabs()
  $('stats-since').addEventListener('change', loadStats)
  $('export-link').addEventListener('click', downloadCsv)
  setupTokenForm()
  refresh()
  loadLastRun()
}

init()
