import type {BackupSummary, RestoreSummary} from '../../app/tracker-backup.js'

const LEFT_OUT_WHY = 'secrets are never written to a backup'

/** `Backed up 12 applications, 3 verdicts, the profile and the config to FILE`, and the settings left out. */
export function renderBackup(summary: BackupSummary): string {
  const parts = [`${summary.applications} application(s)`, `${summary.verdicts} verdict(s)`]
  if (summary.profile) parts.push('the profile')
  const lines = [`Backed up ${parts.join(', ')} and the config to ${summary.file ?? 'stdout'}`]
  if (summary.config_left_out.length > 0) {
    lines.push(`Left out (${LEFT_OUT_WHY}): ${summary.config_left_out.join(', ')}`)
  }
  return lines.join('\n')
}

/** What a restore added, renumbered and skipped, and the settings to set again. */
export function renderRestore(summary: RestoreSummary): string {
  const lines = [
    `Restored ${summary.applications} application(s) and ${summary.verdicts} verdict(s) from ${summary.file} (${summary.mode})`,
  ]
  for (const {from, to} of summary.renumbered) lines.push(`  #${from} is #${to} here: #${from} is another application`)
  for (const skipped of summary.skipped) {
    lines.push(`  skipped #${skipped.id} ${skipped.url}: already tracked as #${skipped.tracked_as}`)
  }
  if (summary.verdicts_skipped > 0) {
    lines.push(`  skipped ${summary.verdicts_skipped} verdict(s): this home has a verdict on the same job`)
  }
  lines.push(summary.config_written ? 'The config file was written.' : 'The config file was left as it was.')
  if (summary.config_left_out.length > 0) {
    lines.push(
      `The backup left out ${summary.config_left_out.join(', ')} (${LEFT_OUT_WHY}); set them with: jobagent config set <key> <value>`,
    )
  }
  return lines.join('\n')
}
