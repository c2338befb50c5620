import {useCallback, useEffect, useMemo, useReducer} from 'react'
import {dashboardReducer} from '../dashboard-reducer.js'
import {initialState, rowsOf, selectedApplication, selectedJob, targetApplication} from '../dashboard-state.js'
import {useApplicationExtras, useDashboardData} from '../hooks/use-dashboard-data.js'
import {useRequestRunner} from '../hooks/use-request-runner.js'
import {useTerminalSize} from '../hooks/use-terminal-size.js'
import {Box, useApp, useInput} from '../ink.js'
import {frameHeight, isTooSmall, MIN_SIZE} from '../layout.js'
import {applicationOfJob, type DashboardServices} from '../services.js'
import {ThemeContext} from '../theme.js'
import {applicationColumns, jobColumns} from './columns.js'
import {ApplicationDetail, JobDetail} from './detail-pane.js'
import {Footer} from './footer.js'
import {Header} from './header.js'
import {HelpPanel} from './help-panel.js'
import {MessageLine} from './message-line.js'
import {SearchPanel} from './search-panel.js'
import {StatsPanel} from './stats-panel.js'
import {StatusPicker} from './status-picker.js'
import {Table} from './table.js'
import {Text} from './text.js'

interface AppProps {
  services: DashboardServices
  colour: boolean
}

const EMPTY = {
  jobs: 'No jobs from the last run. Press r to search the boards now.',
  applications: 'No applications tracked yet. Track a job with a in the Jobs view.',
  filtered: 'Nothing matches the filter. Esc clears it.',
}

/** The dashboard: all state lives here, in one reducer; the components below only draw it. */
export function App({services, colour}: AppProps) {
  const size = useTerminalSize()
  const [state, dispatch] = useReducer(dashboardReducer, size, initialState)
  const {reload} = useDashboardData(services, dispatch)
  const {stop} = useRequestRunner({services, requests: state.requests, dispatch, reload})
  const {exit} = useApp()
  const theme = useMemo(() => ({colour}), [colour])

  useEffect(() => dispatch({type: 'resize', size}), [size])
  useEffect(() => {
    if (state.quitting) void stop().finally(() => exit())
  }, [state.quitting, stop, exit])
  useInput(useCallback((input, key) => dispatch({type: 'key', input, key}), []))

  const width = state.size.columns
  const rows = rowsOf(state)
  const scored = state.data?.scored ?? false
  const likes = state.data?.likes
  const jobsTable = useMemo(() => jobColumns(width, colour, scored, likes ?? new Map()), [width, colour, scored, likes])
  const followUps = state.data?.followUps
  const applications = state.data?.applications
  const applicationsTable = useMemo(
    () => applicationColumns(width, colour, followUps ?? new Map(), applications ?? []),
    [width, colour, followUps, applications],
  )
  const detailApplication = state.detail && state.mode.kind !== 'pick-status' ? targetApplication(state) : undefined
  const detailRef = detailApplication ? String(detailApplication.id) : undefined
  const extras = useApplicationExtras(services, state.view === 'applications' ? detailRef : undefined, state.data)

  if (isTooSmall(state.size)) {
    return (
      <ThemeContext.Provider value={theme}>
        <Text wrap="truncate-end">{`Terminal too small: at least ${MIN_SIZE.columns}x${MIN_SIZE.rows} needed. q quits.`}</Text>
      </ThemeContext.Provider>
    )
  }

  const view = state.views[state.view]
  const filtered = view.text !== '' || view.status !== null
  const job = selectedJob(state)
  const application = selectedApplication(state)
  const {mode} = state
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width} height={frameHeight(state.size)}>
        <Header
          data={state.data}
          view={state.view}
          filter={view}
          shown={state.lists[state.view].length}
          width={width}
        />
        {mode.kind === 'help' ? (
          <HelpPanel width={width} height={rows.help} />
        ) : mode.kind === 'stats' ? (
          <StatsPanel stats={state.data?.stats ?? null} width={width} height={rows.help} />
        ) : state.view === 'jobs' ? (
          <Table
            rows={state.lists.jobs}
            columns={jobsTable}
            top={view.top}
            height={rows.table}
            selected={view.index}
            width={width}
            rowKey={(row) => String(row.id)}
            empty={!state.data ? 'Loading…' : filtered ? EMPTY.filtered : EMPTY.jobs}
          />
        ) : (
          <Table
            rows={state.lists.applications}
            columns={applicationsTable}
            top={view.top}
            height={rows.table}
            selected={view.index}
            width={width}
            rowKey={(row) => String(row.id)}
            empty={!state.data ? 'Loading…' : filtered ? EMPTY.filtered : EMPTY.applications}
          />
        )}
        {mode.kind === 'pick-status' ? (
          <StatusPicker mode={mode} width={width} height={rows.panel} />
        ) : rows.panel > 0 && state.view === 'jobs' && job ? (
          <JobDetail
            job={job}
            application={state.data ? applicationOfJob(state.data, job) : undefined}
            like={state.data?.likes.get(job.id)}
            now={services.clock.now()}
            width={width}
            height={rows.panel}
          />
        ) : rows.panel > 0 && state.view === 'applications' && application ? (
          <ApplicationDetail
            application={application}
            extras={extras}
            now={services.clock.now()}
            width={width}
            height={rows.panel}
          />
        ) : rows.panel > 0 ? (
          <Box height={rows.panel} />
        ) : null}
        {state.search !== null ? <SearchPanel lines={state.search} width={width} height={rows.run} /> : null}
        <Box height={rows.message} width={width} overflow="hidden">
          <MessageLine state={state} />
        </Box>
        <Box height={1} width={width}>
          <Footer mode={mode.kind} view={state.view} width={width} />
        </Box>
      </Box>
    </ThemeContext.Provider>
  )
}
