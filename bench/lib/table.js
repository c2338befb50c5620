// The summary table, as Markdown with padded columns: readable in a terminal and pasteable into docs/BENCHMARKS.md.
import {formatChange} from './compare.js'
import {formatSpread, formatValue, verdict} from './figures.js'

/** `comparison` (optional): {label, rows} from compareFigures, shown as one more column. */
export function formatTable(figures, comparison) {
  const header = ['benchmark', 'figure', 'median', 'spread (min–max)', 'baseline', 'ratio', 'target', 'result']
  if (comparison) header.push(`vs ${comparison.label}`)
  const rows = figures.map((figure) => {
    const cells = [
      figure.benchmark ?? figure.id.split('/')[0],
      figure.name,
      formatValue(figure.median, figure.unit),
      formatSpread(figure),
      figure.baseline ? `${figure.baseline.name}: ${formatValue(figure.baseline.median, figure.unit)}` : '',
      figure.ratio === null ? '' : `${figure.ratio.toFixed(2)}x`,
      figure.target?.text ?? '',
      verdict(figure),
    ]
    if (comparison) {
      const row = comparison.rows.get(figure.id)
      cells.push(row ? formatChange(row) : 'not in both')
    }
    return cells
  })
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column].length)))
  const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')
}
