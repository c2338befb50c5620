/**
 * The arguments both entry points (bin/run.js, the single executable) hand to oclif: `--version --verbose` is the
 * `version --verbose` command, which prints the attributions too, as oclif's own `--version` flag cannot; any
 * other arguments go as they are (undefined: oclif reads process.argv itself).
 */
export function entryArgs(args: readonly string[]): string[] | undefined {
  const [first, ...rest] = args
  if ((first === '--version' || first === '-v') && rest.includes('--verbose')) return ['version', ...rest]
  return undefined
}
