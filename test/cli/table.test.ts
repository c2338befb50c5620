import {describe, expect, it} from 'vitest'
import {renderTable} from '../../src/cli/table.js'

interface Row {
  id: string
  title: string
  company: string
  url: string
}

const rows: Row[] = [
  {
    id: '1',
    title: 'Senior Backend Engineer, Payments Platform (Go, PostgreSQL)',
    company: 'Example Financial Services GmbH',
    url: 'https://boards.example.com/example/jobs/1234567',
  },
  {id: '22', title: 'Nurse', company: 'St. Luke', url: 'https://example.org/j/2'},
]
const columns = [
  {header: 'ID', value: (row: Row) => row.id},
  {header: 'TITLE', value: (row: Row) => row.title, shrinkTo: 20},
  {header: 'COMPANY', value: (row: Row) => row.company, shrinkTo: 12},
  {header: 'URL', value: (row: Row) => row.url, fill: true},
]
const table = (width?: number) => renderTable(rows, columns, undefined, {width}).split('\n')

describe('renderTable', () => {
  it('gives a pipe or a file every whole value, however long', () => {
    const lines = table()
    expect(lines[1]).toContain(rows[0]?.title)
    expect(lines[1]).toContain(rows[0]?.company)
    expect(lines[1]).toContain(rows[0]?.url)
    expect(lines.join('\n')).not.toContain('…')
  })

  it('shows whole values on a terminal wide enough for them, each line within its width', () => {
    const lines = table(160)
    expect(lines[1]).toContain(rows[0]?.title)
    expect(lines[1]).toContain(rows[0]?.url)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(160)
  })

  it('cuts the fill column first, then the widest columns to a common width, never below their floor', () => {
    // Whole, the first row needs 2+59+30+47 plus gaps: 144 columns.
    const lines = table(120)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(120)
    expect(lines[1]).toContain(rows[0]?.title)
    expect(lines[1]).toContain(rows[0]?.company)
    expect(lines[1]).toMatch(/https:\/\/boards\.exa\S*…$/)

    const narrow = table(80)
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(80)
    // The title and company share the room left at one width; the short row keeps its whole title and company.
    expect(narrow[1]).toMatch(/^1 {3}Senior Backend Engineer\S*[^…]*…\s+Example Financ[^…]*…\s+https/)
    expect(narrow[2]).toMatch(/^22\s+Nurse\s+St\. Luke\s+https:\/\/example\.org/)

    // Narrower than the floors: the columns keep their floors and the line wraps on the terminal.
    const tiny = table(30)
    const [id, title, company] = (tiny[1] ?? '').split(/ {2,}/)
    expect(id).toBe('1')
    expect(title).toHaveLength(20)
    expect(company).toHaveLength(12)
  })

  it('leaves out the hideable columns, lowest order first, on a terminal too narrow for every column', () => {
    const hideable = [
      {header: 'ID', value: (row: Row) => row.id},
      {header: 'TITLE', value: (row: Row) => row.title, shrinkTo: 20},
      {header: 'COMPANY', value: (row: Row) => row.company, shrinkTo: 12, hideOrder: 2},
      {header: 'URL', value: (row: Row) => row.url, shrinkTo: 20, hideOrder: 1},
    ]
    const headers = (width: number | undefined) =>
      (renderTable(rows, hideable, undefined, {width}).split('\n')[0] ?? '').split(/ {2,}/)
    expect(headers(undefined)).toEqual(['ID', 'TITLE', 'COMPANY', 'URL'])
    expect(headers(120)).toEqual(['ID', 'TITLE', 'COMPANY', 'URL'])
    // 2 + 20 + 12 + 20 and the gaps need 60: the URL goes first, then the company.
    expect(headers(50)).toEqual(['ID', 'TITLE', 'COMPANY'])
    expect(headers(30)).toEqual(['ID', 'TITLE'])
    for (const line of renderTable(rows, hideable, undefined, {width: 50}).split('\n')) {
      expect(line.length).toBeLessThanOrEqual(50)
    }
  })

  it('puts a cell on one line with its controls escaped, so a row never breaks or drives the terminal', () => {
    const [, line] = renderTable([{text: 'a\nb\t c\u001b[31m'}], [{header: 'T', value: (row) => row.text}]).split('\n')
    expect(line).toBe('a b c\\x1b[31m')
  })
})
