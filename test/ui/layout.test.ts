import {describe, expect, it} from 'vitest'
import {fitHint, footerText} from '../../src/ui/components/footer.js'
import {fitColumns, frameHeight, layoutRows, scrollTop} from '../../src/ui/layout.js'

const specs = [
  {key: 'title', header: 'TITLE', min: 20, weight: 5, priority: 0},
  {key: 'company', header: 'COMPANY', min: 12, weight: 3, priority: 1},
  {key: 'source', header: 'SOURCE', min: 10, weight: 1, priority: 5},
  {key: 'status', header: 'STATUS', min: 12, weight: 0, priority: 2},
]

describe('dashboard layout', () => {
  it('leaves out the least important columns first and fills the width exactly', () => {
    const narrow = fitColumns(specs, 50)
    expect(narrow.map((column) => column.key)).toEqual(['title', 'company', 'status'])
    expect(narrow.reduce((sum, column) => sum + column.width, 0) + narrow.length - 1).toBe(50)
    expect(narrow.find((column) => column.key === 'status')?.width).toBe(12)
    const wide = fitColumns(specs, 118)
    expect(wide.map((column) => column.key)).toEqual(['title', 'company', 'source', 'status'])
    expect(wide.reduce((sum, column) => sum + column.width, 0) + wide.length - 1).toBe(118)
  })

  it('moves the window as little as possible to keep the selection visible', () => {
    expect(scrollTop(0, 5, 10, 100)).toBe(0)
    expect(scrollTop(0, 10, 10, 100)).toBe(1)
    expect(scrollTop(40, 35, 10, 100)).toBe(35)
    expect(scrollTop(0, 99, 10, 100)).toBe(90)
    expect(scrollTop(95, 99, 10, 100)).toBe(90)
    expect(scrollTop(5, 0, 10, 3)).toBe(0)
  })

  it('keeps the frame one row shorter than the terminal and shares the rest between table and panels', () => {
    const size = {columns: 80, rows: 24}
    expect(frameHeight(size)).toBe(23)
    const plain = layoutRows(size, {detail: false, picker: false, help: false, runLines: 0})
    expect(plain).toEqual({table: 18, panel: 0, run: 0, help: 0, message: 1})
    const detail = layoutRows(size, {detail: true, picker: false, help: false, runLines: 3, messageLines: 2})
    expect(2 + 1 + detail.table + detail.panel + detail.run + detail.message + 1).toBe(23)
    expect(detail.table).toBeGreaterThanOrEqual(3)
    const picker = layoutRows(size, {detail: false, picker: true, help: false, runLines: 0})
    expect(picker.panel).toBe(9)
  })

  it('fits the footer into the width, keeping help and quit', () => {
    for (const width of [40, 60, 80, 120]) {
      const text = footerText('jobs', width)
      expect(text.length).toBeLessThanOrEqual(width)
      expect(text).toContain('? help')
      expect(text).toContain('q quit')
    }
    expect(footerText('jobs', 80)).toContain('a track')
    expect(footerText('applications', 200)).not.toContain('a track')
  })

  it('shortens a prompt hint by whole parts, keeping what to type and how to get out', () => {
    const hint = 'type the field · Enter next (last saves) · ↑ back · Ctrl-U clear · Esc cancel'
    expect(fitHint(hint, 80)).toBe(hint)
    expect(fitHint(hint, 62)).toBe('type the field · Enter next (last saves) · ↑ back · Esc cancel')
    expect(fitHint(hint, 60)).toBe('type the field · Enter next (last saves) · Esc cancel')
    expect(fitHint(hint, 40)).toBe('type the field · Esc cancel')
  })
})
